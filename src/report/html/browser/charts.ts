/**
 * Embeds every chart of the page fitted to its container: columns and panel widths from the container's width
 * (chart-fit.ts' hints), shrunk again while the drawn SVG is still wider, refitted when the window is resized.
 * Counts drawn and failed charts in the render state and sets `settled` once all are drawn and fitted.
 */
import type { ChartSpec, PagePayload, ReportState } from './payload.ts';

export interface Pickers {
  picker: HTMLSelectElement | null;
  typePick: HTMLSelectElement | null;
}

/** A copy of chart `id`'s spec with the pickers' current values and panels fitted into `width − shrink` pixels. */
function fitted(payload: PagePayload, pickers: Pickers, id: string, width: number, shrink: number): ChartSpec {
  const s = JSON.parse(JSON.stringify(payload.charts[id])) as ChartSpec;
  for (const p of s.params ?? []) {
    if (p.name === 'pick' && pickers.picker) p.value = pickers.picker.value;
    if (p.name === 'typeSel' && pickers.typePick) p.value = pickers.typePick.value;
  }
  const f = s.usermeta?.fit;
  if (!f || !s.spec) return s;
  const w = Math.max(200, width - shrink);
  const cols = Math.max(1, Math.min(f.panels, Math.floor(w / (f.minWidth + f.reserve))));
  s.columns = cols;
  s.spec.width = Math.max(120, Math.floor(w / cols) - f.reserve);
  return s;
}

/** The width a chart may take: its section's content box (the chart box itself shrinks to its content once drawn). */
function avail(box: HTMLElement): number {
  const p = box.parentElement as HTMLElement;
  const st = getComputedStyle(p);
  return p.clientWidth - parseFloat(st.paddingLeft) - parseFloat(st.paddingRight);
}

/** The drawn width of a chart box: the SVG's own (before CSS scales it) plus the room vega-embed keeps for its menu. */
function drawnWidth(box: HTMLElement): number {
  const svg = box.querySelector('svg');
  const wrap = box.querySelector('.vega-embed');
  const pad = wrap ? parseFloat(getComputedStyle(wrap).paddingRight) || 0 : 0;
  const natural = svg ? Number(svg.getAttribute('width')) || svg.getBoundingClientRect().width : 0;
  return natural + pad;
}

/** Draws the page's charts and keeps them fitted; returns nothing, the state tracks progress. */
export function embedCharts(payload: PagePayload, state: ReportState, pickers: Pickers): void {
  const ids = Object.keys(payload.charts);
  let pending = 0;
  const done = (): void => {
    if (pending === 0 && state.rendered + state.failed.length === state.expected) state.settled = true;
  };
  const embed = (id: string, shrink: number, first: boolean): Promise<void> => {
    const box = document.getElementById(`chart-${id}`) as HTMLElement;
    pending++;
    // No "View Source" (vega-embed writes the spec, data strings included, unescaped into a new window) nor editor;
    // ast: expressions run in vega's interpreter, so the page's CSP needs no 'unsafe-eval'.
    return vegaEmbed(box, fitted(payload, pickers, id, avail(box), shrink), {
      renderer: 'svg',
      ast: true,
      actions: { export: true, source: false, compiled: false, editor: false },
    })
      .then((result) => {
        if (state.views[id] && state.views[id] !== result.view) state.views[id].finalize();
        state.views[id] = result.view;
        const over = drawnWidth(box) - avail(box);
        const fits = (payload.charts[id] as ChartSpec | undefined)?.usermeta?.fit;
        pending--;
        // Still wider than its box: narrower panels by the excess; a chart without fit data is scaled down by CSS.
        if (over > 1 && fits && shrink < avail(box) && state.refits < 200) {
          state.refits++;
          return embed(id, shrink + over + 12, first);
        }
        if (first) state.rendered++;
        done();
      })
      .catch((err: unknown) => {
        pending--;
        if (first) state.failed.push(id);
        console.error(`chart ${id} failed: ${err}`);
        done();
      });
  };
  for (const id of ids) embed(id, 0, true);
  refitOnResize(() => {
    state.settled = false;
    for (const id of ids) if (state.views[id]) embed(id, 0, false);
    done();
  });
}

/** Calls `refit` 150 ms after the window's width changed by 20 px or more. */
function refitOnResize(refit: () => void): void {
  let lastWidth = window.innerWidth;
  let timer: ReturnType<typeof setTimeout> | undefined;
  window.addEventListener('resize', () => {
    if (Math.abs(window.innerWidth - lastWidth) < 20) return;
    lastWidth = window.innerWidth;
    clearTimeout(timer);
    timer = setTimeout(refit, 150);
  });
}
