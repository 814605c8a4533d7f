/**
 * What the dashboards in notebooks/ (TypeScript on Deno's Jupyter kernel) use: open the results file named by
 * ADAPTMR_RESULTS read-only, load the same rows and chart specs as the HTML report (one palette, one labelling),
 * and display charts as PNG (nbconvert's HTML export keeps images, not inline SVG) and tables as HTML. Displays are
 * plain objects carrying Jupyter's display symbol, which Deno's kernel renders — no Deno-only API, so this file
 * typechecks and is testable under Node too.
 */
import type { TopLevelSpec } from 'vega-lite';
import { InputError } from '../../core/errors.ts';
import { openResultStore } from '../../store/index.ts';
import { specToSvg, svgToPng } from '../render-chart.ts';
import { loadReportData, type ReportData } from '../html/load-data.ts';
import { holmText, mdeText, verdictEstimate } from '../verdict-table.ts';

export { comparisonsSpec, latencyVsScoreSpec, routesSpec, tokensByStageSpec, typeScoresSpec, verdictForestSpec, kKey, HEADLINE, hasTokens } from '../html/chart-specs.ts';
export { markedLabel, UPPER_BOUND_MARK } from '../palette.ts';
export type { ReportData, TypeScore, Comparison, Efficiency } from '../html/load-data.ts';

/** A value Deno's Jupyter kernel displays as the given MIME bundle. */
export interface Displayable { [key: symbol]: () => Record<string, string> }

const DISPLAY = Symbol.for('Jupyter.display');

export function display(bundle: Record<string, string>): Displayable {
  return { [DISPLAY]: () => bundle };
}

interface DenoJupyter { display(obj: unknown, options?: { raw?: boolean }): Promise<void> }

/**
 * Sends outputs to the notebook as `display_data`, awaited. Cells use this rather than ending in an expression:
 * Deno's kernel (2.9) now and then publishes no `execute_result` for a cell's last expression, and nbconvert then
 * silently keeps an empty output; an awaited display is on the wire before the cell completes.
 */
export async function show(...items: (Displayable | Promise<Displayable>)[]): Promise<void> {
  let jupyter: DenoJupyter | undefined;
  try {
    jupyter = (globalThis as { Deno?: { jupyter?: DenoJupyter } }).Deno?.jupyter; // throws outside `deno jupyter`
  } catch {
    jupyter = undefined;
  }
  if (!jupyter) throw new Error('show() runs inside a notebook on Deno\'s Jupyter kernel');
  for (const item of items) {
    const d = await item;
    await jupyter.display(d[DISPLAY]!(), { raw: true });
  }
}

/** The results file of the notebook run (env ADAPTMR_RESULTS), loaded read-only into report rows. */
export async function loadResults(path = readEnv('ADAPTMR_RESULTS')): Promise<ReportData> {
  if (!path) throw new InputError('set ADAPTMR_RESULTS to a results .duckdb file (npm run notebooks -- <file> does)', 'ADAPTMR_RESULTS');
  const store = await openResultStore(path, { readOnly: true });
  try {
    return await loadReportData(store, path);
  } finally {
    await store.close();
  }
}

function readEnv(name: string): string | undefined {
  return typeof process !== 'undefined' ? process.env[name] : undefined;
}

/** A chart as a PNG output (rendered by vega + resvg, like the CLI's charts). */
export async function chart(spec: TopLevelSpec): Promise<Displayable> {
  const png = svgToPng(await specToSvg(spec));
  return display({ 'image/png': png.toString('base64'), 'text/plain': `[chart: ${String(spec.title ?? 'vega-lite')}]` });
}

const esc = (s: unknown): string => String(s ?? '').replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/** Rows as an HTML table (plain text fallback for consoles); `format` maps a column to its cell text. */
export function table<T extends object>(rows: readonly T[], columns: (keyof T & string)[], format: Partial<Record<keyof T & string, (v: unknown) => string>> = {}): Displayable {
  const cell = (r: T, c: keyof T & string): string => (format[c] ? format[c]!(r[c]) : String(r[c] ?? '—'));
  const head = `<tr>${columns.map((c) => `<th>${esc(c)}</th>`).join('')}</tr>`;
  const body = rows.map((r) => `<tr>${columns.map((c) => `<td>${esc(cell(r, c))}</td>`).join('')}</tr>`).join('');
  const text = [columns.join('\t'), ...rows.map((r) => columns.map((c) => cell(r, c)).join('\t'))].join('\n');
  return display({ 'text/html': `<table><thead>${head}</thead><tbody>${body}</tbody></table>`, 'text/plain': text });
}

/**
 * Text from a results file (experiment, run, method and dataset names — a shard or CI artifact may come from
 * anywhere) as literal markdown text: HTML's `& < >` become entities and every markdown punctuation mark is
 * backslash-escaped (CommonMark §2.4), so nbconvert renders it as the characters it is — never a tag, link or
 * emphasis — and control characters are dropped.
 */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/[\t\n\r]+/gu, ' ')
    .replace(/[\u0000-\u001f\u007f-\u009f]/gu, '')
    .replace(/[\\`*_{}[\]()#+\-.!|~]/gu, (c) => `\\${c}`)
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;');
}

/**
 * Markdown output (section notes that depend on the file), as a tagged template: the literal parts are the
 * notebook author's markdown, every interpolated value is text (`escapeMarkdown`), so a name like
 * `<img src=x onerror=…>` in a results file is shown, not run. The plain-text form carries the values as they are.
 */
export function note(strings: TemplateStringsArray, ...values: unknown[]): Displayable {
  const markdown = strings.reduce((acc, s, i) => acc + s + (i < values.length ? escapeMarkdown(String(values[i])) : ''), '');
  const text = strings.reduce((acc, s, i) => acc + s + (i < values.length ? String(values[i]) : ''), '');
  return display({ 'text/markdown': markdown, 'text/plain': text });
}

/**
 * The stored verdicts (the `verdicts` table, as the terminal and HTML reports print them; none recomputed), those
 * whose claim starts with `claimPrefix` when given; a note when the file has none.
 */
export function verdicts(data: ReportData, claimPrefix?: string): Displayable {
  const rows = data.verdicts.filter((v) => claimPrefix === undefined || v.claim.startsWith(claimPrefix));
  if (rows.length === 0) return note`No verdicts in this file (plan experiments store them when their statistics are computed: \`adaptmr run\`, \`adaptmr report\`).`;
  const mark = (id: string | null): string => (id === null ? '—' : data.methodMarks[id] ? `${id} (${data.methodMarks[id]})` : id);
  return table(rows.map((v) => ({
    experiment: v.experiment, dataset: v.dataset, claim: v.claim, A: mark(v.methodA), B: mark(v.methodB), type: v.adaptType, n: v.n,
    estimate: verdictEstimate(v), 'p_holm (m)': holmText(v), MDE: mdeText(v), verdict: v.verdict, reason: v.reason,
  })), ['experiment', 'dataset', 'claim', 'A', 'B', 'type', 'n', 'estimate', 'p_holm (m)', 'MDE', 'verdict', 'reason']);
}

export const pct = (v: unknown): string => (typeof v === 'number' && Number.isFinite(v) ? `${(v * 100).toFixed(1)}%` : '—');
export const fixed = (digits: number) => (v: unknown): string => (typeof v === 'number' && Number.isFinite(v) ? v.toFixed(digits) : '—');

/** The headline metric selection: recall_any@5 (session) when present, else the first QA accuracy, else any. */
export function headline(data: ReportData): { metric: string; level: string; k: string } {
  const has = (m: string, l: string, k: number | null): boolean => data.scores.some((s) => s.metric === m && s.level === l && s.k === k);
  if (has('recall_any', 'session', 5)) return { metric: 'recall_any', level: 'session', k: '5' };
  if (has('recall_any', 'session', 10)) return { metric: 'recall_any', level: 'session', k: '10' };
  const first = data.scores.find((s) => s.metric === 'accuracy') ?? data.scores[0];
  return first ? { metric: first.metric, level: first.level, k: first.k === null ? '-' : String(first.k) } : { metric: 'none', level: 'none', k: '-' };
}

export interface DeltaRow { dataset: string; method: string; type: string; delta: number; ciLow?: number | null; ciHigh?: number | null }

/** Dot-and-whisker of each method's difference from a reference per type (whiskers when CIs are given). */
export function deltaSpec(rows: readonly DeltaRow[], title: string): TopLevelSpec {
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title,
    data: { values: rows.map((r) => ({ ...r, ciLow: r.ciLow ?? null, ciHigh: r.ciHigh ?? null })) },
    facet: { column: { field: 'type', type: 'nominal', title: null, sort: ['factual', 'temporal', 'update', 'multi-hop', 'abstention', 'all'] }, row: { field: 'dataset', type: 'nominal', title: null } },
    spec: {
      width: 120,
      layer: [
        { mark: { type: 'rule', color: '#999', strokeDash: [2, 2] }, encoding: { x: { datum: 0, type: 'quantitative' } } },
        { mark: 'rule', transform: [{ filter: 'isValid(datum.ciLow)' }], encoding: { y: { field: 'method', type: 'nominal', title: null }, x: { field: 'ciLow', type: 'quantitative' }, x2: { field: 'ciHigh' } } },
        { mark: { type: 'point', filled: true, size: 60 }, encoding: { y: { field: 'method', type: 'nominal', title: null }, x: { field: 'delta', type: 'quantitative', title: 'difference from reference', axis: { format: '+%' } }, color: { condition: { test: 'datum.delta < 0', value: '#BE0032' }, value: '#008856' } } },
      ],
    },
    config: { background: 'white' },
  } as TopLevelSpec;
}
