/**
 * `adaptmr report <file> --summary`: what the runs show — the stored `findings` (findings-text.ts), at most 30 lines
 * per results file; the quick start prints it. `--verdicts`: per dataset, one per-type table at the dataset's headline
 * (mean, 95% bootstrap CI, n), experiment 2's oracle table when the file has that run, every stored verdict as one
 * line (verdict-table.ts `formatVerdict`) and the Holm families. Nothing is computed here that the full report does
 * not show: the tables read `scores_by_type` / `score_cis`, the oracle rows the same analysis as the verdicts, the
 * lines the `verdicts` and `findings` tables. A claim the run has no method for (`adaptmr-over-bm25` without a
 * BM25-first-stage variant) is left out of the lines and listed by the full report.
 */
import { ClaimContext, oracleAnalyses } from '../eval/verdicts/index.ts';
import {
  loadVerdictInput,
  openResultStore,
  readFindings,
  readVerdicts,
  type ResultStore,
  type VerdictRow,
} from '../store/index.ts';
import { experimentOrder, experimentTitle, familiesTable, findingLines } from './findings-text.ts';
import { perTypeTable } from './per-type-table.ts';
import { loadPlanRuns, headlineTitle, type Headline, type PlanRun } from './plan/plan-runs.ts';
import { oracleTable } from './plan/oracle-table.ts';
import { refreshFileStats } from './refresh.ts';
import { loadDegradedMarks, loadMethodMarks, markedMethod, type SeriesKey } from './series-label.ts';
import { loadTypeMeans, type TypeMeanRow } from './type-means.ts';
import { formatVerdict } from './verdict-table.ts';
import { unlockedNote } from './unlocked-note.ts';
import { chanceNote } from './chance-note.ts';

/**
 * One row per method and type: the same method run by two runs of the file on the same questions (the quick start's
 * reference, in both of its parts) is shown once when its cells agree, else once per run. `series` is
 * `<label>\u0000<run id>` on the way in.
 */
function oncePerMethod(rows: readonly TypeMeanRow[]): TypeMeanRow[] {
  const groups = new Map<string, TypeMeanRow[]>();
  for (const r of rows) {
    const label = r.series.split('\u0000')[0]!;
    groups.set(label, [...(groups.get(label) ?? []), r]);
  }
  const out: TypeMeanRow[] = [];
  for (const [label, group] of groups) {
    const runs = [...new Set(group.map((r) => r.series))];
    const cells = runs.map((run) =>
      JSON.stringify(group.filter((r) => r.series === run).map((r) => [r.adaptType, r.n, r.mean, r.ciLow, r.ciHigh])),
    );
    if (new Set(cells).size === 1)
      out.push(...group.filter((r) => r.series === runs[0]).map((r) => ({ ...r, series: label })));
    else out.push(...group.map((r) => ({ ...r, series: `${label} (run ${r.series.split('\u0000')[1]})` })));
  }
  return out;
}

async function headlineTables(store: ResultStore, runs: readonly PlanRun[]): Promise<string[]> {
  const headlines = new Map<string, Headline>();
  for (const run of runs) for (const d of run.datasets) if (!headlines.has(d)) headlines.set(d, run.headlineOf(d));
  const marks = await loadDegradedMarks(store);
  const out: string[] = [];
  for (const [dataset, h] of headlines) {
    const label = (r: SeriesKey): string => `${markedMethod(marks, r.run_id, r.method)}\u0000${r.run_id}`;
    const rows = (await loadTypeMeans(store, { ...h, label })).filter((r) => r.dataset === dataset);
    if (rows.length > 0) out.push(perTypeTable(oncePerMethod(rows), `${dataset}: ${headlineTitle(h)} by AdaptMR type`));
  }
  return out;
}

async function oracleTables(store: ResultStore, runs: readonly PlanRun[]): Promise<string[]> {
  const oracleRuns = runs.filter((r) => r.plan.experiment === 'oracle-upper-bound' && r.reference);
  if (oracleRuns.length === 0) return [];
  const ctx = new ClaimContext(await loadVerdictInput(store));
  return oracleRuns.flatMap((run) => {
    const analyses = oracleAnalyses(ctx, run.input);
    if (analyses.length === 0) return [];
    return [
      `Oracle strategy per type (chosen on a seeded half, reported on the other; the oracle strategy (held-out) — it routes by the gold type; only the per-question ceiling is an upper bound), run ${run.name}\n${oracleTable(analyses, run.reference!)}`,
    ];
  });
}

/** The stored verdicts as one line each, grouped by experiment in the plan's order. */
export function verdictLines(rows: readonly VerdictRow[], marks: ReadonlyMap<string, string>): string[] {
  const shown = rows.filter((v) => !(v.methodA === null && v.verdict === 'n/a'));
  return experimentOrder(shown.map((v) => v.experiment)).map(
    (e) =>
      `${experimentTitle(e)} (${e}): verdicts\n${shown
        .filter((v) => v.experiment === e)
        .map((v) => `  ${formatVerdict(v, marks)}`)
        .join('\n')}`,
  );
}

/** `--summary`: the findings, at most 30 lines. */
export async function runSummary(file: string): Promise<string> {
  const statsNote = await refreshFileStats(file);
  const store = await openResultStore(file, { readOnly: true });
  try {
    const unlocked = await unlockedNote(store);
    return [
      ...(unlocked ? [unlocked] : []),
      ...(statsNote ? [statsNote] : []),
      ...findingLines(await readFindings(store), file),
      ...[await chanceNote(store)].filter((x) => x !== null),
    ].join('\n');
  } finally {
    await store.close();
  }
}

/** `--verdicts`: the headline tables, the oracle table, every verdict in one line and the Holm families. */
export async function runVerdicts(file: string): Promise<string> {
  const statsNote = await refreshFileStats(file);
  const store = await openResultStore(file, { readOnly: true });
  try {
    const runs = await loadPlanRuns(store);
    const rows = await readVerdicts(store);
    const verdicts = verdictLines(rows, await loadMethodMarks(store));
    const families = familiesTable(rows);
    const unlocked = await unlockedNote(store);
    const parts = [
      ...(unlocked ? [unlocked] : []),
      ...(statsNote ? [statsNote] : []),
      ...(await headlineTables(store, runs)),
      ...(await oracleTables(store, runs)),
      ...(verdicts.length > 0
        ? verdicts
        : ['no verdicts: the file holds no run with a `plan:` block (docs/statistics.md)']),
      ...(families ? [families] : []),
      ...[await chanceNote(store)].filter((x) => x !== null),
      `what they show: adaptmr report ${file} --summary; every table, comparison, route and chart: adaptmr report ${file}; one page: adaptmr report ${file} --html <page.html>`,
    ];
    return parts.join('\n\n');
  } finally {
    await store.close();
  }
}
