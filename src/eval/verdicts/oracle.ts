/**
 * Plan experiment 2 as the plan means it (§3.4 exp 2), per dataset of a run whose strategies each ran on every
 * question:
 *   - on the selection half of the seeded split, per gold type, the strategy with the best mean serves that type.
 *     Tie rule: among strategies tied at the best mean, the type's own strategy (strategy-temporal for temporal)
 *     if it is one of them; otherwise the first by id, and the tie is reported;
 *   - the best single fixed strategy: the one with the best mean over the whole selection half; when several tie
 *     there, the oracle is compared with each of them (`vsTied`), never with an alphabetical pick;
 *   - on the report half: the oracle (each question served by its type's choice) against the reference (unified)
 *     and against the best single strategy; and the per-question ceiling — every question served by whichever
 *     strategy scores best on it — the ceiling: the upper bound of any routing over these strategies (the oracle is not one:
 *     a type's choice made on the other half can lose to a fixed strategy);
 *   - the premise "no single strategy is best for every type": the oracle against every single strategy on the
 *     report half (an intersection-union test: it holds only if the oracle beats each one).
 * Bootstraps resample conversations on LoCoMo, as every statistic of the file. Pure.
 */
import { ADAPT_TYPES } from '../../core/types.ts';
import { splitKey, splitQuestions } from '../analysis/split.ts';
import { bootstrapCi, clusterBy, singletons, seedFor, type Interval, type PlanCache } from '../stats/index.ts';
import { bootstrapFor, clusterLabels, type RunStats } from '../stats/results/index.ts';
import { mean, testPairs, type Headline, type Pairs, type ScoreIndex, type TestedPairs } from './inputs.ts';

export interface OracleChoice {
  adaptType: string;
  chosen: string;
  /** Every strategy tied at the best selection mean (one element: no tie). */
  tied: string[];
  /** own = the type's own strategy won a tie (or outright); first-id = a tie without it, broken by id. */
  rule: 'best' | 'own' | 'first-id';
  selectionMean: number;
  nSelection: number;
}

export interface OracleTypeRow {
  adaptType: string;
  n: number;
  oracle: Interval;
  reference: Interval;
  bestSingle: Interval;
  ceiling: Interval;
  vsReference: TestedPairs;
  vsBestSingle: TestedPairs;
  /** The oracle against each strategy tied for best single on the selection half (one element: no tie). */
  vsTied: { id: string; mean: Interval; vs: TestedPairs }[];
}

export interface OracleAnalysis {
  dataset: string;
  choices: OracleChoice[];
  bestSingle: { id: string; tied: string[]; selectionMean: number };
  rows: OracleTypeRow[];
  /** Oracle − each single strategy over the whole report half (the premise's tests). */
  singles: { id: string; vs: TestedPairs }[];
}

export interface OracleInput {
  scores: ScoreIndex;
  runId: string;
  dataset: string;
  headline: Headline;
  /** Strategy methods: id and the AdaptMR type it is written for (its `name` option). */
  strategies: readonly { id: string; own: string }[];
  reference: string;
  split: number;
  seed: number;
  stats: Pick<RunStats, 'seed' | 'resamples' | 'ci' | 'alpha' | 'continuousTest' | 'cluster'>;
  plans: PlanCache;
}

/** The strategy methods of a run's config that the oracle chooses among (written for one of the five types). */
export function oracleStrategies(
  methods: readonly { id: string; method: string; options: Record<string, unknown> }[],
): { id: string; own: string }[] {
  return methods
    .filter((m) => m.method === 'strategy' && (ADAPT_TYPES as readonly string[]).includes(String(m.options.name)))
    .map((m) => ({ id: m.id, own: String(m.options.name) }));
}

const EPS = 1e-12;

function best(means: Map<string, number>): { top: number; tied: string[] } {
  const top = Math.max(...means.values());
  return {
    top,
    tied: [...means]
      .filter(([, v]) => v >= top - EPS)
      .map(([id]) => id)
      .sort(),
  };
}

export function oracleAnalysis(o: OracleInput): OracleAnalysis | null {
  const ids = o.strategies.map((s) => s.id);
  const series = [...ids, o.reference].map((m) => o.scores.get(o.runId, o.dataset, m, o.headline));
  if (series.some((s) => !s) || ids.length < 2) return null;
  const [first] = series as ReadonlyMap<string, { value: number; adaptType: string }>[];
  // Questions every strategy and the reference scored.
  const questions = [...first!.entries()]
    .filter(([id]) => series.every((s) => s!.has(id)))
    .map(([questionId, v]) => ({ dataset: o.dataset, questionId, adaptType: v.adaptType }));
  if (questions.length === 0) return null;
  const half = splitQuestions(questions, o.split, o.seed);
  const value = (m: string, q: string): number => o.scores.get(o.runId, o.dataset, m, o.headline)!.get(q)!.value;
  const selection = questions.filter((q) => half.get(splitKey(o.dataset, q.questionId)) === 'selection');
  const report = questions.filter((q) => half.get(splitKey(o.dataset, q.questionId)) === 'report');
  const types = [...new Set(questions.map((q) => q.adaptType))].sort();
  const choices = chooseStrategies(o, types, selection, value);
  const overall = best(new Map(ids.map((m) => [m, mean(selection.map((q) => value(m, q.questionId)))])));
  const bestSingle = { id: overall.tied[0]!, tied: overall.tied, selectionMean: overall.top };
  const choiceOf = new Map(choices.map((c) => [c.adaptType, c.chosen]));
  const served = report.filter((q) => choiceOf.has(q.adaptType)).sort((a, b) => (a.questionId < b.questionId ? -1 : 1));
  if (served.length === 0) return null;
  const datasetIds = questions.map((q) => q.questionId);
  const w: ReportHalf = { o, ids, value, choiceOf, datasetIds, bootstrap: bootstrapFor(datasetIds, o.stats.cluster) };
  const rows: OracleTypeRow[] = [];
  for (const t of [...types.filter((x) => choiceOf.has(x)), 'all']) {
    const sel = served.filter((q) => t === 'all' || q.adaptType === t);
    if (sel.length > 0) rows.push(typeRow(w, t, sel, bestSingle));
  }
  const singles = ids.map((id) => ({ id, vs: vsOracle(w, served, (q) => value(id, q)) }));
  return { dataset: o.dataset, choices, bestSingle, rows, singles };
}

type Question = { dataset: string; questionId: string; adaptType: string };

/** Per type, the strategy best on the selection half (the tie rule: the type's own strategy, else the first by id). */
function chooseStrategies(
  o: OracleInput,
  types: readonly string[],
  selection: readonly Question[],
  value: (m: string, q: string) => number,
): OracleChoice[] {
  const ids = o.strategies.map((s) => s.id);
  const own = new Map(o.strategies.map((s) => [s.own, s.id]));
  const choices: OracleChoice[] = [];
  for (const t of types) {
    const sel = selection.filter((q) => q.adaptType === t);
    if (sel.length === 0) continue;
    const { top, tied } = best(new Map(ids.map((m) => [m, mean(sel.map((q) => value(m, q.questionId)))])));
    const mine = own.get(t);
    const chosen = tied.length === 1 ? tied[0]! : mine && tied.includes(mine) ? mine : tied[0]!;
    choices.push({
      adaptType: t,
      chosen,
      tied,
      rule: tied.length === 1 ? 'best' : chosen === mine ? 'own' : 'first-id',
      selectionMean: top,
      nSelection: sel.length,
    });
  }
  return choices;
}

/** What the report half's tests and intervals share. */
interface ReportHalf {
  o: OracleInput;
  ids: string[];
  value: (m: string, q: string) => number;
  /** The strategy chosen per type. */
  choiceOf: Map<string, string>;
  datasetIds: string[];
  bootstrap: ReturnType<typeof bootstrapFor>;
}

/** The oracle (each question served by its type's chosen strategy) paired with `other` on `sel`. */
function vsOracle(w: ReportHalf, sel: readonly Question[], other: (q: string) => number): TestedPairs {
  const pairs: Pairs = {
    ids: sel.map((q) => q.questionId),
    types: sel.map((q) => q.adaptType),
    a: Float64Array.from(sel, (q) => w.value(w.choiceOf.get(q.adaptType)!, q.questionId)),
    b: Float64Array.from(sel, (q) => other(q.questionId)),
  };
  return testPairs(pairs, w.o.stats, w.o.plans, w.datasetIds)!;
}

/** The bootstrap interval of a mean over `sel` (questions or conversations resampled, as the comparisons). */
function interval(w: ReportHalf, sel: readonly Question[], v: (q: string) => number, key: string): Interval {
  const { o, bootstrap } = w;
  const x = Float64Array.from(sel, (q) => v(q.questionId));
  const labels = clusterLabels(
    sel.map((q) => q.questionId),
    bootstrap,
  );
  const units = labels ? clusterBy(x, labels) : singletons(x);
  return bootstrapCi(
    units,
    o.plans.get(
      units.sums.length,
      o.stats.resamples,
      seedFor(o.stats.seed, `oracle\t${key}\t${bootstrap}\t${sel.map((q) => q.questionId).join('\n')}`),
    ),
    o.stats.ci,
    o.stats.alpha,
  );
}

/** One type's (or `all`'s) row on the report half: the oracle vs the reference, the best single and each tied one. */
function typeRow(
  w: ReportHalf,
  t: string,
  sel: readonly Question[],
  bestSingle: OracleAnalysis['bestSingle'],
): OracleTypeRow {
  const { o, value } = w;
  const typeOf = new Map(sel.map((q) => [q.questionId, q.adaptType]));
  const vsReference = vsOracle(w, sel, (q) => value(o.reference, q));
  const vsBestSingle = vsOracle(w, sel, (q) => value(bestSingle.id, q));
  // A tie on the selection half is no choice: the oracle is compared with each tied strategy.
  const vsTied = bestSingle.tied.map((id) => ({
    id,
    mean: interval(w, sel, (q) => value(id, q), id === bestSingle.id ? 'best-single' : `tied\t${id}`),
    vs: id === bestSingle.id ? vsBestSingle : vsOracle(w, sel, (q) => value(id, q)),
  }));
  const ceiling = (q: string): number => Math.max(...w.ids.map((m) => value(m, q)));
  return {
    adaptType: t,
    n: sel.length,
    vsReference,
    vsBestSingle,
    vsTied,
    oracle: interval(w, sel, (q) => value(w.choiceOf.get(typeOf.get(q)!)!, q), 'oracle'),
    reference: interval(w, sel, (q) => value(o.reference, q), 'reference'),
    bestSingle: interval(w, sel, (q) => value(bestSingle.id, q), 'best-single'),
    ceiling: interval(w, sel, ceiling, 'ceiling'),
  };
}
