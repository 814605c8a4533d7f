/**
 * Aggregation of judged answers into the numbers papers report. Pure functions.
 *
 * LongMemEval (`evaluate_qa.py` / the paper): accuracy per native question type (abstention questions count in
 * their native type too, as the official script keys by `question_type`), task-averaged accuracy = the unweighted
 * mean of the six types' accuracies, overall accuracy = mean over all questions, abstention accuracy = mean over
 * `_abs` questions.
 *
 * LoCoMo: the headline is over categories 1–4 (mean over their questions, as Mem0 reports it); category 5
 * (adversarial) is reported on its own; per-category numbers for all.
 *
 * Repeated judging: each metric is computed once per judge run r (from each question's r-th verdict) and reported
 * as mean ± sample sd over runs (sd = 0 with one run).
 */
import { mean } from '../../core/averages.ts';

export const LONGMEMEVAL_TYPES = [
  'single-session-user',
  'single-session-assistant',
  'single-session-preference',
  'temporal-reasoning',
  'knowledge-update',
  'multi-session',
] as const;

export interface Stat {
  mean: number;
  /** Sample standard deviation over judge runs (0 with one run). */
  sd: number;
  /** Judge runs the mean is over. */
  runs: number;
  /** Questions behind each run's value. */
  n: number;
}

export function meanSd(values: readonly number[]): { mean: number; sd: number } {
  if (values.length === 0) return { mean: NaN, sd: NaN };
  const mean = values.reduce((s, v) => s + v, 0) / values.length;
  if (values.length === 1) return { mean, sd: 0 };
  const variance = values.reduce((s, v) => s + (v - mean) ** 2, 0) / (values.length - 1);
  return { mean, sd: Math.sqrt(variance) };
}

/** Accuracy over `items`, once per judge run, as mean ± sd; undefined when there are no items. */
function accuracyStat(items: readonly { correct: readonly boolean[] }[]): Stat | undefined {
  if (items.length === 0) return undefined;
  const runs = Math.max(...items.map((i) => i.correct.length));
  const perRun: number[] = [];
  for (let r = 0; r < runs; r++) {
    const verdicts = items.map((i) => i.correct[r]).filter((v): v is boolean => v !== undefined);
    if (verdicts.length > 0) perRun.push(mean(verdicts.map((v) => (v ? 1 : 0))));
  }
  return { ...meanSd(perRun), runs: perRun.length, n: items.length };
}

export interface LongMemEvalJudged {
  questionId: string;
  nativeType: string;
  /** One verdict per judge run. */
  correct: readonly boolean[];
}

export interface LongMemEvalSummary {
  perType: Record<string, Stat>;
  /** Mean of the per-type accuracies over the types present (all six in a full run); per judge run, then mean ± sd. */
  taskAveraged: Stat & { types: number };
  overall: Stat;
  abstention?: Stat;
}

export function summarizeLongMemEval(items: readonly LongMemEvalJudged[]): LongMemEvalSummary | undefined {
  const overall = accuracyStat(items);
  if (!overall) return undefined;
  const byType = new Map<string, LongMemEvalJudged[]>();
  for (const item of items) byType.set(item.nativeType, [...(byType.get(item.nativeType) ?? []), item]);
  const perType: Record<string, Stat> = {};
  for (const [type, group] of [...byType].sort(([a], [b]) => a.localeCompare(b))) perType[type] = accuracyStat(group)!;

  const types = LONGMEMEVAL_TYPES.filter((t) => byType.has(t));
  const perRunTaskAvg: number[] = [];
  for (let r = 0; r < overall.runs; r++) {
    const accs = types
      .map((t) =>
        byType
          .get(t)!
          .map((i) => i.correct[r])
          .filter((v): v is boolean => v !== undefined),
      )
      .filter((v) => v.length > 0)
      .map((v) => mean(v.map((x) => (x ? 1 : 0))));
    if (accs.length > 0) perRunTaskAvg.push(mean(accs));
  }
  const summary: LongMemEvalSummary = {
    perType,
    taskAveraged: {
      ...meanSd(perRunTaskAvg),
      runs: perRunTaskAvg.length,
      n: items.filter((i) => types.includes(i.nativeType as (typeof types)[number])).length,
      types: types.length,
    },
    overall,
  };
  const abstention = accuracyStat(items.filter((i) => i.questionId.includes('_abs')));
  if (abstention) summary.abstention = abstention;
  return summary;
}

export interface LocomoScored {
  /** LoCoMo's raw category number (1–5). */
  category: number;
  /** LLM-judge verdicts per run (absent when the question was not judged, e.g. category 5 as in Mem0). */
  judge?: readonly boolean[];
  f1: number;
  bleu1: number;
}

export interface LocomoGroupSummary {
  n: number;
  judge?: Stat;
  f1: number;
  bleu1: number;
}

export interface LocomoSummary {
  /** Categories 1–4. */
  headline?: LocomoGroupSummary;
  /** Category 5, reported apart. */
  adversarial?: LocomoGroupSummary;
  perCategory: Record<string, LocomoGroupSummary>;
}

function locomoGroup(items: readonly LocomoScored[]): LocomoGroupSummary | undefined {
  if (items.length === 0) return undefined;
  const out: LocomoGroupSummary = {
    n: items.length,
    f1: mean(items.map((i) => i.f1)),
    bleu1: mean(items.map((i) => i.bleu1)),
  };
  const judge = accuracyStat(
    items.filter((i) => i.judge !== undefined && i.judge.length > 0).map((i) => ({ correct: i.judge! })),
  );
  if (judge) out.judge = judge;
  return out;
}

export function summarizeLocomo(items: readonly LocomoScored[]): LocomoSummary {
  const perCategory: Record<string, LocomoGroupSummary> = {};
  for (const c of [...new Set(items.map((i) => i.category))].sort((a, b) => a - b)) {
    perCategory[String(c)] = locomoGroup(items.filter((i) => i.category === c))!;
  }
  const summary: LocomoSummary = { perCategory };
  const headline = locomoGroup(items.filter((i) => i.category >= 1 && i.category <= 4));
  if (headline) summary.headline = headline;
  const adversarial = locomoGroup(items.filter((i) => i.category === 5));
  if (adversarial) summary.adversarial = adversarial;
  return summary;
}
