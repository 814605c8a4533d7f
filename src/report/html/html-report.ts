/**
 * `adaptmr report <file> --html <page>`: reads the results file read-only and writes one self-contained HTML page
 * (page.ts). Which sections and charts appear depends only on what the file holds.
 */
import { writeFileAtomic } from '../../core/atomic-write.ts';
import { redactDeep } from '../../core/secrets.ts';
import { ensureWritableDir } from '../../core/writable-dir.ts';
import { dirname } from 'node:path';
import type { TopLevelSpec } from 'vega-lite';
import { openResultStore } from '../../store/index.ts';
import { REPORT_DEFAULTS } from '../report.ts';
import { comparisonsSpec, kKey, latencyVsScoreSpec, routesSpec, seriesDomain, tokensByStageSpec, typeScoresSpec, type Selection } from './chart-specs.ts';
import { loadReportData, type ReportData, type TypeScore } from './load-data.ts';
import { renderPage } from './page.ts';

export interface HtmlReportSummary {
  path: string;
  charts: string[];
  questions: number;
  bytes: number;
}

const comboOf = (r: Pick<TypeScore, 'metric' | 'level' | 'k'>): string => `${r.metric}|${r.level}|${kKey(r.k)}`;

/** Picker options, headline first: the report's default metric at session level and the smallest default k. */
function combos(scores: readonly TypeScore[]): { options: { value: string; label: string }[]; initial: string } {
  const seen = new Map<string, string>();
  for (const r of scores) seen.set(comboOf(r), r.k === null ? `${r.metric} (${r.level})` : `${r.metric}@${r.k} (${r.level})`);
  const options = [...seen].map(([value, label]) => ({ value, label })).sort((a, b) => a.label.localeCompare(b.label, 'en', { numeric: true }));
  const preferred = REPORT_DEFAULTS.ks.map((k) => `${REPORT_DEFAULTS.metric}|${REPORT_DEFAULTS.level}|${k}`);
  const initial = preferred.find((p) => seen.has(p)) ?? [...seen.keys()].find((v) => v.startsWith('accuracy|')) ?? options[0]?.value ?? 'none|none|-';
  return { options, initial };
}

export function pageCharts(data: ReportData, initial: string): { charts: Record<string, TopLevelSpec>; picked: string[] } {
  const [metric = '', level = '', k = '-'] = initial.split('|');
  const sel: Selection = { metric, level, k };
  const colors = seriesDomain([...data.scores, ...data.efficiency]);
  const charts: Record<string, TopLevelSpec> = {};
  if (data.scores.length > 0) charts.scores = typeScoresSpec(data.scores, sel, colors);
  if (data.comparisons.length > 0) charts.comparisons = comparisonsSpec(data.comparisons, sel);
  if (data.scores.length > 0 && data.efficiency.some((e) => e.stage === 'retrieval')) charts.latency = latencyVsScoreSpec(data.efficiency, data.scores, sel, colors);
  if (data.efficiency.some((e) => e.stage !== 'retrieval')) charts.tokens = tokensByStageSpec(data.efficiency);
  if (data.routes.length > 0) charts.routes = routesSpec(data.routes);
  return { charts, picked: ['scores', 'comparisons', 'latency'].filter((id) => id in charts) };
}

export async function writeHtmlReport(file: string, htmlPath: string): Promise<HtmlReportSummary> {
  const store = await openResultStore(file, { readOnly: true });
  // Checked before the data are read and the page rendered.
  ensureWritableDir(dirname(htmlPath), 'folder of the --html page', 'choose another --html path');
  let data: ReportData;
  try {
    // A file written before URL credentials were redacted (or by another tool) may still hold them: the page
    // shows every string redacted, the resolved config and the JSON payload included.
    data = redactDeep(await loadReportData(store, file));
  } finally {
    await store.close();
  }
  const { options, initial } = combos(data.scores);
  const { charts, picked } = pageCharts(data, initial);
  const html = renderPage({ data, charts, picked, combos: options, initial });
  // The previous page stays whole until the new one is on disk (atomic-write.ts).
  writeFileAtomic(htmlPath, html);
  return { path: htmlPath, charts: Object.keys(charts), questions: data.questions.length, bytes: Buffer.byteLength(html) };
}
