/**
 * Paired comparisons of every method of a run with the run's reference method (or a method of another run:
 * sweeps compare each variation with the base), per dataset, level, metric, k and AdaptMR type (plus 'all'), on
 * the questions both methods scored (paired.ts: mean difference, paired bootstrap CI, exact or permutation test).
 * Questions only one of the two scored (the other errored, or ran on fewer questions) are left out of the pair
 * and counted in `nExcluded`. p-values are Holm-adjusted within a family: one run, dataset, level, metric and k,
 * and — by default — one AdaptMR type (stats.family = 'metric' pools the types).
 */
import { holm } from '../holm.ts';
import { comparePaired, type TestName } from '../paired.ts';
import { PlanCache, seedFor } from '../resample.ts';
import type { CiMethod } from '../bootstrap.ts';
import { byId, clusterLabels, type Bootstrap, type RunStats, type ScoreInput } from './inputs.ts';
import { bootstrapKinds, groupBy } from './score-cis.ts';

export interface ComparisonRow {
  run: string;
  /** The run the reference method's scores come from (= run, except in sweeps). */
  runB: string;
  dataset: string;
  methodA: string;
  methodB: string;
  level: string;
  metric: string;
  k: number | null;
  adaptType: string;
  nPairs: number;
  nExcluded: number;
  meanDiff: number;
  ciLow: number;
  ciHigh: number;
  pValue: number;
  pHolm: number;
  test: TestName;
  family: string;
  /** Tests in the family (Holm's m); 0 for a row left out of every family. */
  familySize: number;
  ciMethod: CiMethod;
  bootstrap: Bootstrap;
  resamples: number;
}

type Series = Map<string, ScoreInput[]>; // adapt type → rows

function seriesKey(
  runId: string,
  method: string,
  dataset: string,
  level: string,
  metric: string,
  k: number | null,
): string {
  return [runId, method, dataset, level, metric, String(k)].join('\t');
}

export function computeComparisons(
  rows: readonly ScoreInput[],
  runs: ReadonlyMap<string, RunStats>,
  plans = new PlanCache(32),
): ComparisonRow[] {
  const kinds = bootstrapKinds(rows, runs);
  const series = new Map<string, Series>();
  for (const [key, list] of groupBy(rows, (r) => seriesKey(r.runId, r.method, r.dataset, r.level, r.metric, r.k))) {
    series.set(
      key,
      groupBy(list, (r) => r.adaptType),
    );
  }
  const out: ComparisonRow[] = [];
  for (const run of runs.values()) {
    const ref = run.reference;
    if (!ref) continue;
    const cells = new Set<string>();
    for (const r of rows) if (r.runId === run.runId) cells.add([r.dataset, r.level, r.metric, String(r.k)].join('\t'));
    for (const cell of [...cells].sort()) {
      const [dataset = '', level = '', metric = '', kText = ''] = cell.split('\t');
      if (run.metrics && !run.metrics.includes(metric)) continue;
      const k = kText === 'null' ? null : Number(kText);
      const b = series.get(seriesKey(ref.runId, ref.method, dataset, level, metric, k));
      if (!b) continue;
      const bootstrap = kinds.get(`${run.runId}\t${dataset}`) ?? 'question';
      for (const method of run.methods) {
        if (method === ref.method && run.runId === ref.runId) continue;
        const a = series.get(seriesKey(run.runId, method, dataset, level, metric, k));
        if (!a) continue;
        const types = [...new Set([...a.keys(), ...b.keys()])].sort();
        for (const adaptType of [...types, 'all']) {
          const rowsA = adaptType === 'all' ? [...a.values()].flat() : (a.get(adaptType) ?? []);
          const rowsB = adaptType === 'all' ? [...b.values()].flat() : (b.get(adaptType) ?? []);
          const row = compareOne(rowsA, rowsB, run, bootstrap, plans);
          if (!row) continue;
          const familyType = run.family === 'metric-type' ? `/${adaptType}` : '';
          out.push({
            run: run.runId,
            runB: ref.runId,
            dataset,
            methodA: method,
            methodB: ref.method,
            level,
            metric,
            k,
            adaptType,
            ...row,
            pHolm: Number.NaN,
            familySize: 0,
            family: `${run.runName}/${dataset}/${level}/${metric}${k === null ? '' : `@${k}`}${familyType}`,
            bootstrap,
            resamples: run.resamples,
          });
        }
      }
    }
  }
  for (const fam of groupBy(out, (r) => `${r.run}\t${r.family}`).values()) {
    const adjusted = holm(fam.map((r) => r.pValue));
    fam.forEach((r, i) => {
      r.pHolm = adjusted[i]!;
      r.familySize = fam.length;
    });
  }
  return out;
}

function compareOne(
  rowsA: readonly ScoreInput[],
  rowsB: readonly ScoreInput[],
  run: RunStats,
  bootstrap: Bootstrap,
  plans: PlanCache,
) {
  const bValue = new Map(rowsB.map((r) => [r.questionId, r.value]));
  const paired = rowsA.filter((r) => bValue.has(r.questionId)).sort((x, y) => byId(x.questionId, y.questionId));
  const union = new Set([...rowsA.map((r) => r.questionId), ...bValue.keys()]);
  if (paired.length === 0) return null;
  const ids = paired.map((r) => r.questionId);
  const res = comparePaired(
    Float64Array.from(paired.map((r) => r.value)),
    Float64Array.from(paired.map((r) => bValue.get(r.questionId)!)),
    clusterLabels(ids, bootstrap),
    {
      resamples: run.resamples,
      ci: run.ci,
      alpha: run.alpha,
      continuousTest: run.continuousTest,
      plans,
      seed: seedFor(run.seed, `pair\t${bootstrap}\t${ids.join('\n')}`),
    },
  );
  return {
    nPairs: res.nPairs,
    nExcluded: union.size - res.nPairs,
    meanDiff: res.meanDiff,
    ciLow: res.ciLow,
    ciHigh: res.ciHigh,
    pValue: res.pValue,
    test: res.test,
    ciMethod: res.ciMethod,
  };
}
