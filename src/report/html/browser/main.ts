/**
 * The report page's browser script (entry of the bundle bundle.ts builds; runs as plain ES2017 with no dependency
 * beyond the inlined vega-embed): inflates the page's data, then draws the charts fitted to their containers
 * (charts.ts), keeps the metric picker, the score and comparison tables and the charts' `pick` param in step
 * (tables.ts), filters the verdict rows, and drives the per-question drill-down (drill.ts).
 * `window.adaptmrReport` exposes the chart count and render state for the browser test and the screenshot script
 * (`settled` once every chart is drawn and fitted). Every text from the data goes into the DOM as text nodes.
 */
import { embedCharts } from './charts.ts';
import { byId } from './dom.ts';
import { wireDrillDown } from './drill.ts';
import type { PagePayload, ReportState } from './payload.ts';
import { wireMetricPicker, wireVerdictFilters } from './tables.ts';

function start(payload: PagePayload): void {
  const ids = Object.keys(payload.charts);
  const state: ReportState = {
    rendered: 0,
    failed: [],
    expected: ids.length,
    views: {},
    settled: ids.length === 0,
    refits: 0,
  };
  window.adaptmrReport = state;
  const picker = byId<HTMLSelectElement>('pick-metric') as HTMLSelectElement;
  embedCharts(payload, state, { picker, typePick: byId<HTMLSelectElement>('c-type') });
  wireVerdictFilters();
  wireMetricPicker(payload, state, picker);
  wireDrillDown(payload.data);
}

/**
 * The page's data is gzip-compressed and base64-encoded (page.ts), so a page with thousands of drill-down rows
 * stays small; the browser's own DecompressionStream inflates it before anything is drawn.
 */
function readPayload(then: (payload: PagePayload) => void): void {
  const el = byId('report-data') as HTMLElement;
  if (el.getAttribute('data-encoding') !== 'gzip-base64') {
    then(JSON.parse(el.textContent ?? ''));
    return;
  }
  window.adaptmrReport = { rendered: 0, failed: [], expected: 0, views: {}, settled: false, refits: 0, loading: true };
  const bin = atob((el.textContent ?? '').trim());
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'))).text().then(
    (text) => then(JSON.parse(text)),
    (err: unknown) => {
      window.adaptmrReport.failed.push(`report data: ${err}`);
    },
  );
}

readPayload(start);
