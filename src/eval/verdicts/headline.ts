/**
 * Each dataset's headline (metric, level, k) of a plan run: judged accuracy when the run answers questions (unless
 * `plan.metric` names another); else declared in the experiment file (`plan.headline`, or the older `metric` /
 * `level` / `k`); else chosen
 * by a rule fixed before the data: on the selection half of the seeded split (the one experiment 2 uses), the
 * retrieval cell — level × k of recall_any — whose method means are most spread out (largest standard deviation
 * across the run's ranking methods that are neither gold-type (oracle) methods nor silent stand-ins), among the cells not
 * at ceiling (no method at 99% or more: a gain over a saturated method cannot show) before any at ceiling; the rule
 * looks at no method's identity, so it favours none. Ties: the finer level (turn before session), then the smaller k.
 */
import type { PlanConfig } from '../../core/stats-config.ts';
import { splitKey, splitQuestions } from '../analysis/split.ts';
import type { ScoreInput } from '../stats/results/index.ts';
import { HEADLINE_CEILING } from './ceiling.ts';
import { headlineText, type Headline } from './inputs.ts';

export interface ResolvedHeadline extends Headline {
  /** How it was set: `declared`, or the rule's choice with its numbers. */
  how: string;
}

const LEVEL_ORDER = ['turn', 'round', 'session'];

/** The declared headline of a dataset, or undefined when the file leaves it to the rule. */
export function declaredHeadline(plan: PlanConfig, dataset: string, qa: boolean): Headline | undefined {
  // With answers and no `metric` named, the headline is judged accuracy whatever `headline` / `level` say: they
  // describe the retrieval headline the same file reports offline (one file serves both).
  // `metric`, `level` and `k` may each be one value or a per-dataset map.
  const metric = typeof plan.metric === 'string' ? plan.metric : plan.metric?.[dataset];
  const k = typeof plan.k === 'number' ? plan.k : plan.k?.[dataset];
  if (qa && metric === undefined) return { metric: 'accuracy', level: 'qa', k: null };
  const entry = plan.headline?.[dataset];
  if (entry === 'auto') return undefined;
  if (entry) {
    const qaMetric = entry.level === 'qa';
    return { metric: entry.metric, level: entry.level, k: qaMetric ? null : (entry.k ?? 10) };
  }
  const old = metric !== undefined || plan.level !== undefined || k !== undefined;
  if (!old) return undefined;
  const level = (typeof plan.level === 'string' ? plan.level : plan.level?.[dataset]) ?? 'session';
  return { metric: metric ?? 'recall_any', level, k: level === 'qa' ? null : (k ?? 10) };
}

/**
 * The rule's choice among the run's recall_any cells on `dataset`; `eligible` = the methods it weighs. Undefined
 * when the run has no such cell.
 */
export function autoHeadline(
  rows: readonly ScoreInput[],
  dataset: string,
  eligible: ReadonlySet<string>,
  split: number,
  seed: number,
): ResolvedHeadline | undefined {
  const mine = rows.filter((r) => r.dataset === dataset && r.metric === 'recall_any' && eligible.has(r.method));
  if (mine.length === 0) return undefined;
  const questions = [
    ...new Map(mine.map((r) => [r.questionId, { dataset, questionId: r.questionId, adaptType: r.adaptType }])).values(),
  ];
  const half = splitQuestions(questions, split, seed);
  const cells = new Map<string, { level: string; k: number; sums: Map<string, { s: number; n: number }> }>();
  for (const r of mine) {
    if (r.k === null || half.get(splitKey(dataset, r.questionId)) !== 'selection') continue;
    const key = `${r.level}\t${r.k}`;
    let c = cells.get(key);
    if (!c) cells.set(key, (c = { level: r.level, k: r.k, sums: new Map() }));
    const m = c.sums.get(r.method) ?? { s: 0, n: 0 };
    m.s += r.value;
    m.n++;
    c.sums.set(r.method, m);
  }
  const best = mostSpread(cells.values());
  if (!best) return undefined;
  const h = { metric: 'recall_any', level: best.level, k: best.k };
  const ceiling = best.ceiling ? '; every cell has a method at ceiling' : '';
  return {
    ...h,
    how: `chosen on the selection half: ${headlineText(h)} spreads the ${best.methods} methods' means most (SD ${(best.sd * 100).toFixed(1)} points)${ceiling}`,
  };
}

interface Spread {
  level: string;
  k: number;
  sd: number;
  methods: number;
  /** The cell's best method is at ceiling (≥ HEADLINE_CEILING): a gain over it cannot show. */
  ceiling: boolean;
}

/** The cell whose method means spread most, a cell not at ceiling before any at ceiling; ties as the header says. */
function mostSpread(cells: Iterable<{ level: string; k: number; sums: Map<string, { s: number; n: number }> }>) {
  let best: Spread | undefined;
  const order = (l: string): number => LEVEL_ORDER.indexOf(l) + 1 || LEVEL_ORDER.length + 1;
  for (const c of cells) {
    const means = [...c.sums.values()].map((m) => m.s / m.n);
    if (means.length < 2) continue;
    const mu = means.reduce((a, b) => a + b, 0) / means.length;
    const sd = Math.sqrt(means.reduce((a, b) => a + (b - mu) ** 2, 0) / means.length);
    const ceiling = Math.max(...means) >= HEADLINE_CEILING;
    const better =
      !best ||
      (best.ceiling && !ceiling) ||
      (best.ceiling === ceiling &&
        (sd > best.sd + 1e-12 ||
          (Math.abs(sd - best.sd) <= 1e-12 &&
            (order(c.level) < order(best.level) || (c.level === best.level && c.k < best.k)))));
    if (better) best = { level: c.level, k: c.k, sd, methods: means.length, ceiling };
  }
  return best;
}

/** A plan run's headline on a dataset: declared, or the rule's choice (falling back to recall_any@10 by session). */
export function resolveHeadline(
  plan: PlanConfig,
  qa: boolean,
  dataset: string,
  rows: readonly ScoreInput[],
  eligible: ReadonlySet<string>,
  seed: number,
): ResolvedHeadline {
  const declared = declaredHeadline(plan, dataset, qa);
  if (declared) return { ...declared, how: 'declared in the experiment file' };
  return (
    autoHeadline(rows, dataset, eligible, plan.split ?? 0.5, seed) ?? {
      metric: 'recall_any',
      level: 'session',
      k: 10,
      how: 'no recall_any cell to choose from; recall_any@10 (session level)',
    }
  );
}
