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
import { markedLabel } from '../palette.ts';
import { nativeGrid } from '../native-types.ts';
import { claimLabel, pValueText } from '../claim-label.ts';
import { combos } from '../html/html-report.ts';
import { HEADLINE, comboLabel, comboOf, comparisonPair, isHeadlineRow } from '../html/chart-specs.ts';
import type { Comparison } from '../html/load-data.ts';

export {
  comparisonsSpec,
  latencyVsScoreSpec,
  routesSpec,
  tokensByStageSpec,
  typeScoresSpec,
  verdictForestSpec,
  kKey,
  HEADLINE,
  hasTokens,
  comparisonPair,
} from '../html/chart-specs.ts';
export { verdictGroups, experimentTitle } from '../html/page.ts';
export { typeDotSpec } from '../html/type-dot-spec.ts';
export { claimLabel, variationLabel } from '../claim-label.ts';
export { markedLabel, UPPER_BOUND_MARK } from '../palette.ts';
export type { ReportData, TypeScore, Comparison, Efficiency } from '../html/load-data.ts';

/** A value Deno's Jupyter kernel displays as the given MIME bundle. */
export interface Displayable {
  [key: symbol]: () => Record<string, string>;
}

const DISPLAY = Symbol.for('Jupyter.display');

export function display(bundle: Record<string, string>): Displayable {
  return { [DISPLAY]: () => bundle };
}

interface DenoJupyter {
  display(obj: unknown, options?: { raw?: boolean }): Promise<void>;
}

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
  if (!jupyter) throw new Error("show() runs inside a notebook on Deno's Jupyter kernel");
  for (const item of items) {
    const d = await item;
    await jupyter.display(d[DISPLAY]!(), { raw: true });
  }
}

/**
 * Several outputs as one display (HTML: tables as they are, charts as PNG data URLs, notes as escaped text), for a
 * cell that shows a list of them: one display per cell, so a display the kernel loses makes the cell silent, which
 * `npm run notebooks` notices and re-executes, rather than a cell that quietly shows part of its outputs.
 */
export async function combine(...items: (Displayable | Promise<Displayable>)[]): Promise<Displayable> {
  const html: string[] = [];
  const text: string[] = [];
  for (const item of items) {
    const b = (await item)[DISPLAY]!();
    if (b['image/png']) html.push(`<img src="data:image/png;base64,${b['image/png']}">`);
    else if (b['text/html']) html.push(b['text/html']);
    else html.push(`<p>${esc(b['text/plain'] ?? '')}</p>`);
    text.push(b['text/plain'] ?? '');
  }
  return display({ 'text/html': html.join('\n'), 'text/plain': text.join('\n') });
}

/**
 * The results file of the notebook run (env ADAPTMR_RESULTS), loaded read-only into report rows — the same rows as
 * the HTML report (verdicts, comparisons and their families, headlines, colours), without the drill-down's unit
 * texts and the plan sections' tables, which the dashboards do not show.
 */
export async function loadResults(path = readEnv('ADAPTMR_RESULTS')): Promise<ReportData> {
  if (!path)
    throw new InputError(
      'set ADAPTMR_RESULTS to a results .duckdb file (npm run notebooks -- <file> does)',
      'ADAPTMR_RESULTS',
    );
  const store = await openResultStore(path, { readOnly: true });
  try {
    return await loadReportData(store, path, { unitTexts: false, experiments: false });
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
  return display({
    'image/png': png.toString('base64'),
    'text/plain': `[chart: ${String(spec.title ?? 'vega-lite')}]`,
  });
}

const esc = (s: unknown): string =>
  String(s ?? '')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;');

/** Rows as an HTML table (plain text fallback for consoles); `format` maps a column to its cell text. */
export function table<T extends object>(
  rows: readonly T[],
  columns: (keyof T & string)[],
  format: Partial<Record<keyof T & string, (v: unknown) => string>> = {},
): Displayable {
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
  const markdown = strings.reduce(
    (acc, s, i) => acc + s + (i < values.length ? escapeMarkdown(String(values[i])) : ''),
    '',
  );
  const text = strings.reduce((acc, s, i) => acc + s + (i < values.length ? String(values[i]) : ''), '');
  return display({ 'text/markdown': markdown, 'text/plain': text });
}

/**
 * The stored verdicts (the `verdicts` table, as the terminal and HTML reports print them; none recomputed): those
 * whose claim starts with `filter` (a string), or that `filter` keeps; a note when none is left.
 */
export function verdicts(
  data: ReportData,
  filter?: string | ((v: ReportData['verdicts'][number]) => boolean),
): Displayable {
  const keep =
    typeof filter === 'function'
      ? filter
      : (v: ReportData['verdicts'][number]) => filter === undefined || v.claim.startsWith(filter);
  const rows = data.verdicts.filter(keep);
  if (rows.length === 0)
    return note`No verdicts in this file (plan experiments store them when their statistics are computed: \`adaptmr run\`, \`adaptmr report\`).`;
  return table(
    rows.map((v) => ({
      experiment: v.experiment,
      dataset: v.dataset,
      compared: claimLabel(v, data.methodMarks),
      claim: v.claim,
      type: v.adaptType,
      n: v.n,
      estimate: verdictEstimate(v),
      'p_holm (m)': holmText(v),
      MDE: mdeText(v),
      verdict: v.verdict,
      reason: v.reason,
    })),
    ['experiment', 'dataset', 'compared', 'claim', 'type', 'n', 'estimate', 'p_holm (m)', 'MDE', 'verdict', 'reason'],
  );
}

export const pct = (v: unknown): string =>
  typeof v === 'number' && Number.isFinite(v) ? `${(v * 100).toFixed(1)}%` : '—';
export const fixed =
  (digits: number) =>
  (v: unknown): string =>
    typeof v === 'number' && Number.isFinite(v) ? v.toFixed(digits) : '—';

/**
 * What the dashboards show: `headline` — each dataset at its own headline metric, level and k, side by side — when
 * the file declares headlines (plan runs), else the report's default (recall_any@5 at session level, else @10, else
 * QA accuracy), as the HTML page's picker starts.
 */
export function headlinePick(data: Pick<ReportData, 'scores' | 'headlines'>): string {
  return combos(data).initial;
}

/** The pick in words: `each dataset at its headline (longmemeval-s: recall_any@1 (session level); …)`. */
export function pickLabel(data: Pick<ReportData, 'scores' | 'headlines'>, pick: string): string {
  return combos(data).options.find((o) => o.value === pick)?.label ?? pick;
}

/** Whether a score or comparison row is the picked cell (its dataset's headline under `headline`). */
export function isPicked(
  data: Pick<ReportData, 'headlines'>,
  pick: string,
  r: { dataset: string; metric: string; level: string; k: number | null },
): boolean {
  return pick === HEADLINE ? isHeadlineRow(data.headlines, r) : comboOf(r) === pick;
}

const TYPE_ORDER = ['factual', 'temporal', 'update', 'multi-hop', 'abstention', 'all'];

/** Per-type means of the picked cells: one row per dataset × method, the types as columns (mean [CI] (n)). */
export function scoresTable(data: ReportData, pick: string): Displayable {
  const rows = data.scores.filter((s) => isPicked(data, pick, s));
  const types = TYPE_ORDER.filter((t) => rows.some((r) => r.type === t));
  const keys = [...new Set(rows.map((r) => `${r.dataset}\t${markedLabel(r.series, r.upperBound)}`))];
  const out = keys.map((key) => {
    const [dataset = '', method = ''] = key.split('\t');
    const mine = rows.filter((r) => r.dataset === dataset && markedLabel(r.series, r.upperBound) === method);
    const first = mine[0]!;
    const cell = (t: string): string => {
      const r = mine.find((x) => x.type === t);
      return r ? `${pct(r.mean)}${r.ciLow === null ? '' : ` [${pct(r.ciLow)}, ${pct(r.ciHigh)}]`} (${r.n})` : '—';
    };
    const metric = `${comboLabel(first)}${first.level === 'session' && first.granularity === 'turn' ? ' — session of top turns' : ''}`;
    return Object.fromEntries([
      ['dataset', dataset],
      ['method', method],
      ['metric', metric],
      ...types.map((t) => [t, cell(t)]),
    ]) as Record<string, string>;
  });
  return table(out, ['dataset', 'method', 'metric', ...types]);
}

/**
 * The paired comparisons of the picked cells as the HTML page groups them: one row per dataset × pair (a sweep's
 * variations in words), the types as columns, A − B in points [95% CI] with p_holm (< 0.001 below) within its Holm
 * family of m. `keep` narrows the rows (the ablation notebook keeps the sweep's pairs).
 */
export function comparisonTable(
  data: ReportData,
  pick: string,
  keep: (c: Comparison) => boolean = () => true,
): Displayable {
  const rows = data.comparisons.filter(
    (c) => keep(c) && isPicked(data, pick, c as { dataset: string; metric: string; level: string; k: number | null }),
  );
  const types = TYPE_ORDER.filter((t) => rows.some((r) => r.adapt_type === t));
  const pts = (x: unknown): string =>
    typeof x === 'number' ? `${x >= 0 ? '+' : '−'}${Math.abs(x * 100).toFixed(1)}` : '—';
  const groups = [...new Set(rows.map((r) => `${String(r.dataset)}\t${comparisonPair(r, data)}`))];
  const out = groups.map((g) => {
    const [dataset = '', pair = ''] = g.split('\t');
    const mine = rows.filter((r) => String(r.dataset) === dataset && comparisonPair(r, data) === pair);
    const cell = (t: string): string => {
      const r = mine.find((x) => x.adapt_type === t);
      if (!r) return '—';
      const sig = typeof r.p_holm === 'number' && r.p_holm < 0.05 ? ' *' : '';
      return `${pts(r.mean_diff)} [${pts(r.ci_low)}, ${pts(r.ci_high)}] p_holm ${pValueText(r.p_holm as number)}${r.family_size ? ` (m ${String(r.family_size)})` : ''} n ${String(r.n_pairs)}${sig}`;
    };
    return Object.fromEntries([['dataset', dataset], ['A − B', pair], ...types.map((t) => [t, cell(t)])]) as Record<
      string,
      string
    >;
  });
  return table(out, ['dataset', 'A − B', ...types]);
}

/**
 * Which datasets a section shows, out of every dataset of the file, as a note — so a dataset is never dropped
 * silently: a dataset with no rows is named with the reason given.
 */
export function coverage(data: ReportData, what: string, shown: Iterable<string>, missingWhy: string): Displayable {
  const all = [...new Set([...data.questions.map((q) => q.dataset), ...data.scores.map((s) => s.dataset)])].sort();
  const have = new Set(shown);
  const missing = all.filter((d) => !have.has(d));
  const text = `${what}: ${all.filter((d) => have.has(d)).join(', ') || 'no dataset'}${missing.length > 0 ? ` — not shown: ${missing.join(', ')} (${missingWhy})` : ' — every dataset of the file'}`;
  return display({ 'text/markdown': escapeMarkdown(text), 'text/plain': text });
}

/**
 * Per native type (src/report/native-types.ts): one table per dataset whose AdaptMR types pool several native labels
 * (a benchmark's abilities…), methods as rows, `<AdaptMR type> · <native type>` columns, mean [CI] (n) at the headline.
 */
export function nativeTypesTables(data: ReportData): Displayable[] {
  return nativeGrid(data.nativeScores ?? [], (r) => markedLabel(r.series, r.upperBound)).map((g) =>
    table(
      g.rows.map((r) => Object.fromEntries([['method', r.method], ...g.columns.map((c, i) => [c, r.cells[i] ?? '—'])])),
      ['method', ...g.columns],
    ),
  );
}
