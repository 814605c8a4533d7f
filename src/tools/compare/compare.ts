/**
 * `adaptmr compare`: one paired comparison on demand — method A vs method B of a results file, on one metric,
 * level and k, per AdaptMR type and overall — computed from the rows with the same code and settings (the run's
 * `stats:` block) as the stored `comparisons` table, so the numbers agree with the report's.
 */
import { InputError } from '../../core/errors.ts';
import { computeComparisons, type ComparisonRow, type RunStats } from '../../eval/stats/results/index.ts';
import { loadRunStats, loadScoreInputs, openResultStore } from '../../store/index.ts';
import { formatComparison } from '../../report/comparison-cells.ts';
import { loadDegradedMarks, markedMethod } from '../../report/series-label.ts';

export interface CompareOptions {
  a: string;
  b: string;
  metric: string;
  level: string;
  k: number | null;
  type?: string | undefined;
  /** One dataset of the file (default: every dataset, each its own rows). */
  dataset?: string | undefined;
  /** Run of A (needed when A ran in several runs of the file); B's run defaults to A's, else the one run that has B. */
  run?: string | undefined;
  runB?: string | undefined;
}

function pickRun(
  runsWith: string[],
  wanted: string | undefined,
  method: string,
  path: string,
  fallback?: string,
): string {
  if (wanted) {
    if (!runsWith.includes(wanted))
      throw new InputError(
        `method "${method}" has no scores in run "${wanted}" (runs with it: ${runsWith.join(', ') || 'none'})`,
        path,
      );
    return wanted;
  }
  if (fallback && runsWith.includes(fallback)) return fallback;
  if (runsWith.length === 1) return runsWith[0]!;
  if (runsWith.length === 0)
    throw new InputError(`no counted scores of method "${method}" for this metric/level/k`, path);
  throw new InputError(
    `method "${method}" is in several runs (${runsWith.join(', ')}); choose one with --run / --run-b`,
    path,
  );
}

export async function compareMethods(
  path: string,
  o: CompareOptions,
): Promise<{ rows: ComparisonRow[]; text: string }> {
  const store = await openResultStore(path, { readOnly: true });
  try {
    const runs = await loadRunStats(store);
    const rows = (await loadScoreInputs(store)).filter(
      (r) =>
        r.metric === o.metric &&
        r.level === o.level &&
        r.k === o.k &&
        (o.dataset === undefined || r.dataset === o.dataset),
    );
    const runsOf = (m: string): string[] => [...new Set(rows.filter((r) => r.method === m).map((r) => r.runId))].sort();
    const runA = pickRun(runsOf(o.a), o.run, o.a, path);
    const runB = pickRun(runsOf(o.b), o.runB, o.b, path, runA);
    const base = runs.get(runA);
    if (!base) throw new InputError(`run "${runA}" has no config in the runs table`, path);
    const spec: RunStats = { ...base, reference: { runId: runB, method: o.b }, methods: [o.a], metrics: [o.metric] };
    let out = computeComparisons(rows, new Map([[runA, spec]])).filter((r) => r.methodA === o.a);
    if (o.type) out = out.filter((r) => r.adaptType === o.type);
    // Holm's correction belongs to the experiment's family (every method vs the reference): take the stored p_holm
    // when the file's comparisons table has this comparison; a one-off comparison has no family (p_holm n/a).
    const stored = await store.query<{ dataset: string; adapt_type: string; p_holm: number }>(
      `SELECT dataset, adapt_type, p_holm FROM comparisons WHERE run = $1 AND run_b = $2 AND method_a = $3 AND method_b = $4
         AND metric = $5 AND level = $6 AND k IS NOT DISTINCT FROM $7`,
      [runA, runB, o.a, o.b, o.metric, o.level, o.k],
    );
    const holmOf = new Map(stored.map((r) => [`${r.dataset}\t${r.adapt_type}`, r.p_holm]));
    out = out.map((r) => ({ ...r, pHolm: holmOf.get(`${r.dataset}\t${r.adaptType}`) ?? Number.NaN }));
    if (out.length === 0)
      throw new InputError(
        `no question scored by both "${o.a}" and "${o.b}"${o.type ? ` of type ${o.type}` : ''}${o.dataset ? ` in ${o.dataset}` : ''}`,
        path,
      );
    // Several datasets (e.g. LongMemEval and LoCoMo in one run): each row names its dataset.
    const width = Math.max(...out.map((r) => r.dataset.length));
    const where = (r: ComparisonRow): string =>
      new Set(out.map((x) => x.dataset)).size > 1 ? `${r.dataset.padEnd(width)}  ` : '';
    const k = o.k === null ? '' : `@${o.k}`;
    const marks = await loadDegradedMarks(store);
    const lines = [
      `${markedMethod(marks, runA, o.a)} (${runA}) − ${markedMethod(marks, runB, o.b)} (${runB}), ${o.metric}${k} at ${o.level} level; ${spec.ci} ${Math.round((1 - spec.alpha) * 100)}% CI, ` +
        `${spec.resamples} resamples, seed ${spec.seed}; p_holm from the experiment's comparison family (${spec.family}), n/a when this pair is not in it`,
      ...out.map(
        (r) =>
          `  ${where(r)}${r.adaptType.padEnd(11)} n=${String(r.nPairs).padEnd(4)} ${formatComparison(r)}  (p ${r.pValue.toPrecision(3)}, ${r.test}, ${r.bootstrap} bootstrap${r.nExcluded > 0 ? `, ${r.nExcluded} unpaired questions left out` : ''})`,
      ),
    ];
    return { rows: out, text: lines.join('\n') };
  } finally {
    await store.close();
  }
}
