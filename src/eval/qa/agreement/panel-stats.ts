/**
 * The statistics of a judge panel over a results file's verdicts (pure functions; src/store/stats-tables.ts loads
 * the rows and stores the results):
 * - `computeJudgeAgreement`: per dataset, for every pair of judges, percent agreement and Cohen's kappa on the answers
 *   both judged, per AdaptMR type and 'all'; with 3 or more judges also Fleiss' kappa (judge_a = judge_b = 'all') on
 *   the answers every judge judged. Each judge's verdict on an answer is the majority of its repeats.
 * - `computeJudgeComparisons`: the run's paired comparisons of judged accuracy (src/eval/stats/results/comparisons.ts,
 *   same test, CI and Holm family) recomputed from each judge's verdicts, so the report can say whether a difference
 *   holds under every judge.
 */
import { computeComparisons, type RunStats, type ScoreInput } from '../../stats/results/index.ts';
import { PlanCache } from '../../stats/resample.ts';
import { cohensKappa, fleissKappa, majorityVerdict } from './kappa.ts';

/** One judge's verdict on one real answer (not a probe), on the run's headline gold version. */
export interface VerdictInput {
  runId: string;
  dataset: string;
  questionId: string;
  method: string;
  granularity: string;
  adaptType: string;
  nativeType: string;
  judge: string;
  correct: readonly boolean[];
  /** Whether the question counts in the official averages (its `accuracy` score row is counted). */
  counted: boolean;
}

/** A row of the `judge_agreement` table (contract columns: dataset, judge_a, judge_b, adapt_type, n, agreement, kappa). */
export interface JudgeAgreementRow {
  dataset: string;
  judgeA: string;
  judgeB: string;
  adaptType: string;
  n: number;
  agreement: number;
  kappa: number | null;
}

export interface JudgeComparisonRow {
  judge: string;
  run: string;
  runB: string;
  dataset: string;
  methodA: string;
  methodB: string;
  adaptType: string;
  nPairs: number;
  meanDiff: number;
  ciLow: number;
  ciHigh: number;
  pValue: number;
  pHolm: number;
  test: string;
}

/** The judge id Fleiss' kappa rows carry in both judge columns (a judge may not be called this). */
export const ALL_JUDGES = 'all';

const answerKey = (v: VerdictInput): string => `${v.runId}\t${v.questionId}\t${v.method}`;

function groupBy<T>(rows: readonly T[], key: (r: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const r of rows) {
    const k = key(r);
    const list = out.get(k);
    if (list) list.push(r);
    else out.set(k, [r]);
  }
  return out;
}

export function computeJudgeAgreement(verdicts: readonly VerdictInput[]): JudgeAgreementRow[] {
  const out: JudgeAgreementRow[] = [];
  for (const [dataset, rows] of [...groupBy(verdicts, (v) => v.dataset)].sort(([a], [b]) => (a < b ? -1 : 1))) {
    // answer → judge → verdict, and each answer's type
    const byAnswer = new Map<string, { type: string; verdicts: Map<string, boolean> }>();
    for (const v of rows) {
      const key = answerKey(v);
      const entry = byAnswer.get(key) ?? { type: v.adaptType, verdicts: new Map<string, boolean>() };
      entry.verdicts.set(v.judge, majorityVerdict(v.correct));
      byAnswer.set(key, entry);
    }
    const judges = [...new Set(rows.map((v) => v.judge))].sort();
    const answers = [...byAnswer.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, e]) => e);
    const types = [...new Set(answers.map((a) => a.type))].sort();
    const groups: [string, typeof answers][] = [
      ...types.map((t) => [t, answers.filter((a) => a.type === t)] as [string, typeof answers]),
      ['all', answers],
    ];
    for (let i = 0; i < judges.length; i++) {
      for (let j = i + 1; j < judges.length; j++) {
        const a = judges[i]!;
        const b = judges[j]!;
        for (const [adaptType, group] of groups) {
          const both = group.filter((e) => e.verdicts.has(a) && e.verdicts.has(b));
          if (both.length === 0) continue;
          const k = cohensKappa(
            both.map((e) => e.verdicts.get(a)!),
            both.map((e) => e.verdicts.get(b)!),
          );
          out.push({ dataset, judgeA: a, judgeB: b, adaptType, n: k.n, agreement: k.agreement, kappa: k.kappa });
        }
      }
    }
    if (judges.length >= 3) {
      for (const [adaptType, group] of groups) {
        const all = group.filter((e) => judges.every((jd) => e.verdicts.has(jd)));
        if (all.length === 0) continue;
        const k = fleissKappa(all.map((e) => judges.map((jd) => e.verdicts.get(jd)!)));
        out.push({
          dataset,
          judgeA: ALL_JUDGES,
          judgeB: ALL_JUDGES,
          adaptType,
          n: k.n,
          agreement: k.agreement,
          kappa: k.kappa,
        });
      }
    }
  }
  return out;
}

/** Each judge's counted verdicts as `accuracy` scores (share of its repeats saying correct), then the run's comparisons. */
export function computeJudgeComparisons(
  verdicts: readonly VerdictInput[],
  runs: ReadonlyMap<string, RunStats>,
  plans = new PlanCache(32),
): JudgeComparisonRow[] {
  const out: JudgeComparisonRow[] = [];
  const judges = [...new Set(verdicts.map((v) => v.judge))].sort();
  // A single judge has nothing to add to the comparisons table itself.
  if (judges.length < 2) return out;
  for (const judge of judges) {
    const rows: ScoreInput[] = verdicts
      .filter((v) => v.judge === judge && v.counted && v.correct.length > 0)
      .map((v) => ({
        runId: v.runId,
        dataset: v.dataset,
        questionId: v.questionId,
        method: v.method,
        granularity: v.granularity,
        level: 'qa',
        metric: 'accuracy',
        k: null,
        value: v.correct.filter(Boolean).length / v.correct.length,
        adaptType: v.adaptType,
        nativeType: v.nativeType,
      }));
    for (const c of computeComparisons(rows, runs, plans)) {
      out.push({
        judge,
        run: c.run,
        runB: c.runB,
        dataset: c.dataset,
        methodA: c.methodA,
        methodB: c.methodB,
        adaptType: c.adaptType,
        nPairs: c.nPairs,
        meanDiff: c.meanDiff,
        ciLow: c.ciLow,
        ciHigh: c.ciHigh,
        pValue: c.pValue,
        pHolm: c.pHolm,
        test: c.test,
      });
    }
  }
  return out;
}
