/**
 * The page's client-rendered tables: the verdict rows' filters, and the score and comparison tables that follow
 * the metric picker ('headline': each dataset at its own headline metric; else `metric|level|k`) — the picker
 * also sets the `pick` param of the charts listed in `payload.picked`.
 */
import { byId, h, label, pct, pText, pts, swatch, TYPES, uniq } from './dom.ts';
import type { Comparison, PagePayload, ReportState } from './payload.ts';

/** A row picked by metric, level and k (a score, a comparison or a dataset's headline). */
interface Combo {
  metric?: unknown;
  level?: unknown;
  k?: unknown;
  dataset?: unknown;
}
const kKey = (k: unknown): string => (k === null || k === undefined ? '-' : String(k));
const combo = (r: Combo): string => `${r.metric}|${r.level}|${kKey(r.k)}`;
const comboLabel = (r: Combo): string =>
  `${r.metric}${r.k === null || r.k === undefined ? '' : `@${r.k}`} (${r.level} level)`;

/** Shows the verdict rows the dataset, type and verdict filters keep, and counts them. */
export function wireVerdictFilters(): void {
  const selects = ['v-dataset', 'v-type', 'v-verdict'].map((id) => byId<HTMLSelectElement>(id));
  const attrs = ['data-dataset', 'data-type', 'data-verdict'];
  const filter = (): void => {
    const rows = Array.from(document.querySelectorAll<HTMLElement>('#experiment tr.verdict'));
    let shown = 0;
    for (const r of rows) {
      const ok = selects.every((s, i) => !s?.value || r.getAttribute(attrs[i] as string) === s.value);
      r.style.display = ok ? '' : 'none';
      if (ok) shown++;
    }
    const count = byId('v-count');
    if (count) count.textContent = `${shown} of ${rows.length} claims shown`;
  };
  for (const s of selects) if (s) s.addEventListener('change', filter);
  filter();
}

/** Wires the metric picker, the comparison type and dataset pickers, and draws both tables once. */
export function wireMetricPicker(payload: PagePayload, state: ReportState, picker: HTMLSelectElement): void {
  const data = payload.data;
  const isHeadline = (r: Combo): boolean => {
    const hl = data.headlines[String(r.dataset)];
    return !!hl && combo(hl) === combo(r);
  };
  const picked = (r: Combo): boolean => (picker.value === 'headline' ? isHeadline(r) : combo(r) === picker.value);
  const renderScores = (): void => scoreTable(payload, picked);
  const renderComparisons = (): void => comparisonTable(payload, picked);
  picker.addEventListener('change', () => {
    renderScores();
    renderComparisons();
    for (const id of Object.keys(state.views)) {
      if (payload.picked.indexOf(id) < 0) continue;
      state.views[id]?.signal('pick', picker.value).runAsync();
    }
  });
  const typePick = byId<HTMLSelectElement>('c-type');
  if (typePick)
    typePick.addEventListener('change', () => {
      if (state.views.comparisons) state.views.comparisons.signal('typeSel', typePick.value).runAsync();
    });
  const cds = byId('c-dataset');
  if (cds) cds.addEventListener('change', renderComparisons);
  renderScores();
  renderComparisons();
}

type Picked = (r: Combo) => boolean;

/** The score table: one row per dataset and series, one column per type, mean [CI] (n) at the picked metric. */
function scoreTable(payload: PagePayload, picked: Picked): void {
  const data = payload.data;
  const rows = data.scores.filter(picked);
  const types = TYPES.slice(1)
    .concat(['all'])
    .filter((t) => rows.some((r) => r.type === t));
  const keyOf = (r: (typeof rows)[number]): string => `${r.dataset}\t${label(r.series, r.upperBound)}`;
  const keys = uniq(rows.map(keyOf));
  const head = ['dataset', 'method', 'metric'].concat(types).map((t) => h('th', { text: t }));
  const table = h('table', { class: 'grid' }, [h('thead', {}, [h('tr', {}, head)])]);
  const body = h('tbody');
  for (const key of keys) {
    const [dataset, series] = key.split('\t') as [string, string];
    const mine = rows.filter((x) => keyOf(x) === key);
    const first = mine[0];
    const derived = first && first.level === 'session' && first.granularity === 'turn';
    const cells = types.map((t) => {
      const r = mine.filter((x) => x.type === t)[0];
      if (!r) return h('td', { text: '—' });
      const ci = r.ciLow !== null && r.ciLow !== undefined ? ` [${pct(r.ciLow)}, ${pct(r.ciHigh)}]` : '';
      return h('td', { class: 'num' }, [pct(r.mean) + ci, h('span', { class: 'n', text: ` (${r.n})` })]);
    });
    const metric = `${comboLabel(first as Combo)}${derived ? ' — session of top turns' : ''}`;
    const lead = [
      h('td', { text: dataset }),
      h('td', {}, [swatch(data.colors, series), series]),
      h('td', { class: 'n', text: metric }),
    ];
    body.appendChild(h('tr', { class: first?.upperBound ? 'upper' : '' }, lead.concat(cells)));
  }
  table.appendChild(body);
  const box = byId('score-table') as HTMLElement;
  box.textContent = '';
  box.appendChild(keys.length ? table : h('p', { text: 'No counted scores for this metric.' }));
}

/** "A − B" of a comparison: method ids with their marks, or the two runs' labels when one method is compared across runs. */
function pairOf(data: PagePayload['data'], r: Comparison): string {
  const mark = (id: string): string => (data.methodMarks[id] ? `${id} (${data.methodMarks[id]})` : id);
  const a = String(r.method_a);
  const b = String(r.method_b);
  const ra = String(r.run || '');
  const rb = String(r.run_b || ra);
  if (a === b && ra !== rb) return `${data.runLabels[ra] || ra} − ${data.runLabels[rb] || rb}`;
  return `${mark(a)} − ${mark(b)}`;
}

/** One comparison cell: A − B [CI] in points, bold when p_holm < 0.05, with p_holm, family size and pairs. */
function comparisonCell(r: Comparison | undefined): HTMLElement {
  if (!r) return h('td', { text: '—' });
  const sig = typeof r.p_holm === 'number' && r.p_holm < 0.05;
  const stats = `p_holm ${pText(r.p_holm)}${r.family_size ? ` (m ${r.family_size})` : ''} · n ${r.n_pairs}`;
  return h('td', { class: `num${sig ? ' sig' : ''}`, style: sig ? 'font-weight:600' : '' }, [
    `${pts(r.mean_diff)} [${pts(r.ci_low)}, ${pts(r.ci_high)}]`,
    h('br'),
    h('span', { class: 'n', text: stats }),
  ]);
}

/** The comparison table: one row per dataset and pair, one column per type, for the picked metric and dataset. */
function comparisonTable(payload: PagePayload, picked: Picked): void {
  const box = byId('comparison-table');
  if (!box) return;
  const data = payload.data;
  const ds = byId<HTMLSelectElement>('c-dataset') as HTMLSelectElement;
  const rows = data.comparisons.filter((r) => picked(r) && (!ds.value || r.dataset === ds.value));
  const types = TYPES.filter((t) => rows.some((r) => r.adapt_type === t));
  const groupOf = (r: Comparison): string => `${r.dataset}\t${pairOf(data, r)}`;
  const groups = uniq(rows.map(groupOf));
  const head = ['dataset', 'A − B'].concat(types).map((c) => h('th', { text: c }));
  const table = h('table', { class: 'grid' }, [h('thead', {}, [h('tr', {}, head)])]);
  const body = h('tbody');
  for (const g of groups) {
    const mine = rows.filter((r) => groupOf(r) === g);
    const [dataset, pair] = g.split('\t') as [string, string];
    const cells = types.map((t) => comparisonCell(mine.filter((x) => x.adapt_type === t)[0]));
    body.appendChild(h('tr', {}, [h('td', { text: dataset }), h('td', { text: pair })].concat(cells)));
  }
  table.appendChild(body);
  box.textContent = '';
  box.appendChild(groups.length ? table : h('p', { text: 'No comparisons for this metric.' }));
}
