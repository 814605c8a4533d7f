/**
 * `adaptmr report <file> --summary`: the short form the quick start prints — per dataset, one per-type table at the
 * dataset's headline (mean, 95% bootstrap CI, n), experiment 2's oracle table when the file has that run, and every
 * stored verdict as one line (verdict-table.ts `formatVerdict`). Nothing is computed here that the full report does not
 * show: the tables read `scores_by_type` / `score_cis`, the oracle rows the same analysis as the verdicts, the lines
 * the `verdicts` table. A claim the run has no method for (`adaptmr-over-bm25` without a BM25-first-stage variant) is
 * left out here and listed by the full report.
 */
import { ClaimContext, oracleAnalyses } from '../eval/verdicts/index.ts';
import { loadVerdictInput, openResultStore, readVerdicts, type ResultStore, type VerdictRow } from '../store/index.ts';
import { perTypeTable } from './per-type-table.ts';
import { loadPlanRuns, headlineTitle, type Headline, type PlanRun } from './plan/plan-runs.ts';
import { oracleTable } from './plan/oracle-upper-bound.ts';
import { refreshFileStats } from './refresh.ts';
import { loadDegradedMarks, loadMethodMarks, markedMethod, type SeriesKey } from './series-label.ts';
import { loadTypeMeans, type TypeMeanRow } from './type-means.ts';
import { formatVerdict } from './verdict-table.ts';
import { unlockedNote } from './unlocked-note.ts';

/** The plan experiments' names in the plan's order, for the verdict lines' headings. */
const EXPERIMENT_TITLES: Record<string, string> = {
  'existing-systems': 'Experiment 1 — existing systems',
  'oracle-upper-bound': 'Experiment 2 — the oracle strategy (held-out)',
  'adaptmr-vs-baselines': 'Experiment 3 — AdaptMR vs the baselines',
  ablations: 'Experiment 4 — ablations',
  efficiency: 'Experiment 5 — efficiency',
  'beyond-benchmarks': 'Beyond LongMemEval and LoCoMo',
  'router-transfer': 'Router transfer',
};
const ORDER = Object.keys(EXPERIMENT_TITLES);

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
  const experiments = [...new Set(shown.map((v) => v.experiment))].sort(
    (a, b) =>
      ((ORDER.indexOf(a.split('/')[0]!) + 100) % 100) - ((ORDER.indexOf(b.split('/')[0]!) + 100) % 100) ||
      a.localeCompare(b),
  );
  return experiments.map((e) => {
    const title = EXPERIMENT_TITLES[e.split('/')[0]!] ?? e;
    return `${title} (${e}): verdicts\n${shown
      .filter((v) => v.experiment === e)
      .map((v) => `  ${formatVerdict(v, marks)}`)
      .join('\n')}`;
  });
}

export async function runSummary(file: string): Promise<string> {
  const statsNote = await refreshFileStats(file);
  const store = await openResultStore(file, { readOnly: true });
  try {
    const runs = await loadPlanRuns(store);
    const verdicts = verdictLines(await readVerdicts(store), await loadMethodMarks(store));
    const unlocked = await unlockedNote(store);
    const parts = [
      ...(unlocked ? [unlocked] : []),
      ...(statsNote ? [statsNote] : []),
      ...(await headlineTables(store, runs)),
      ...(await oracleTables(store, runs)),
      ...(verdicts.length > 0
        ? verdicts
        : ['no verdicts: the file holds no run with a `plan:` block (docs/statistics.md)']),
      `every table, comparison, route and chart: adaptmr report ${file}; one page: adaptmr report ${file} --html <page.html>`,
    ];
    return parts.join('\n\n');
  } finally {
    await store.close();
  }
}
