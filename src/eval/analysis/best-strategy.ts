/**
 * The oracle strategy (held-out), best strategy per type (plan experiment 2 "Oracle-Strategy"): every strategy ran on every
 * question; on the selection half choose, per dataset and gold AdaptMR type, the strategy with the best mean; report
 * that choice's mean on the report half next to each single strategy's and the unified baseline's mean on the same
 * questions. It routes by the gold type, so it is labelled "oracle strategy (held-out, gold type)" — never a deployable method.
 * Pure arithmetic over per-question scores; SQL loading and storing live in store.ts.
 */
import { splitKey, splitQuestions, type SplitHalf, type SplitQuestion } from './split.ts';
import { mean } from '../../core/averages.ts';

export const UPPER_BOUND_LABEL = 'oracle strategy (held-out, gold type)';

/** One counted score of one method on one question (one metric, level, k). */
export interface QuestionScore {
  dataset: string;
  questionId: string;
  adaptType: string;
  method: string;
  value: number;
}

export interface BestStrategyInput {
  /** Every question of the results (the split is drawn over these, stratified by type). */
  questions: readonly SplitQuestion[];
  scores: readonly QuestionScore[];
  /** Candidate strategies (method ids). */
  strategies: readonly string[];
  /** Methods shown next to the bound (e.g. unified-embedding). */
  baselines: readonly string[];
  fraction: number;
  seed: number;
}

export interface BestStrategyRow {
  dataset: string;
  /** An AdaptMR type, or `all` (the bound over every report question, each served by its type's choice). */
  adaptType: string;
  /** `oracle strategy (held-out, gold type)`, or a strategy / baseline method id. */
  series: string;
  kind: 'upper-bound' | 'strategy' | 'baseline';
  /** For the bound: the strategy chosen for this type (for `all`: type=strategy pairs). */
  chosen: string | null;
  /** For the bound: the chosen strategy's mean on the selection half. */
  selectionMean: number | null;
  nSelection: number;
  /** Mean on the report half; null when no report question has a score. */
  reportMean: number | null;
  nReport: number;
}

function meanOrNull(values: readonly number[]): number | null {
  return values.length === 0 ? null : mean(values);
}

type Halves = Record<SplitHalf, Map<string, number>[]>;

/**
 * dataset → type → half → each question's values by method, keeping only the questions every candidate strategy
 * scored (so all series average the same questions).
 */
function groupQuestions(input: BestStrategyInput): Map<string, Map<string, Halves>> {
  const half = splitQuestions(input.questions, input.fraction, input.seed);
  // value by dataset\tquestion → method → value
  const byQuestion = new Map<string, { q: QuestionScore; values: Map<string, number> }>();
  for (const s of input.scores) {
    const key = splitKey(s.dataset, s.questionId);
    const entry = byQuestion.get(key) ?? { q: s, values: new Map<string, number>() };
    entry.values.set(s.method, s.value);
    byQuestion.set(key, entry);
  }
  const groups = new Map<string, Map<string, Halves>>();
  for (const [key, { q, values }] of byQuestion) {
    const h = half.get(key);
    if (!h || !input.strategies.every((m) => values.has(m))) continue;
    const types = groups.get(q.dataset) ?? new Map<string, Halves>();
    const g = types.get(q.adaptType) ?? { selection: [], report: [] };
    g[h].push(values);
    types.set(q.adaptType, g);
    groups.set(q.dataset, types);
  }
  return groups;
}

/** The strategy with the best selection-half mean; ties go to the first id in sorted order (a deterministic choice). */
function bestOnSelection(strategies: readonly string[], g: Halves): { chosen: string | null; best: number } {
  let chosen: string | null = null;
  let best = -Infinity;
  for (const m of [...strategies].sort()) {
    const v = meanOrNull(g.selection.map((vals) => vals.get(m)!));
    if (v !== null && v > best) {
      best = v;
      chosen = m;
    }
  }
  return { chosen, best };
}

/** A strategy's or baseline's row: its report-half mean. */
function seriesRow(
  input: BestStrategyInput,
  dataset: string,
  adaptType: string,
  m: string,
  nSelection: number,
  vals: number[],
): BestStrategyRow {
  return {
    dataset,
    adaptType,
    series: m,
    kind: input.strategies.includes(m) ? 'strategy' : 'baseline',
    chosen: null,
    selectionMean: null,
    nSelection,
    reportMean: meanOrNull(vals),
    nReport: vals.length,
  };
}

/** Only questions where every candidate strategy has a score enter, so all series average the same questions. */
export function bestStrategyPerType(input: BestStrategyInput): BestStrategyRow[] {
  const groups = groupQuestions(input);
  const series = [...input.strategies, ...input.baselines];
  const rows: BestStrategyRow[] = [];
  for (const dataset of [...groups.keys()].sort()) {
    const types = groups.get(dataset)!;
    const overall: number[] = [];
    const overallBySeries = new Map<string, number[]>(series.map((m) => [m, []]));
    const choices: string[] = [];
    let nSelectionAll = 0;
    for (const type of [...types.keys()].sort()) {
      const g = types.get(type)!;
      nSelectionAll += g.selection.length;
      const { chosen, best } = bestOnSelection(input.strategies, g);
      const reportValues = chosen ? g.report.map((vals) => vals.get(chosen)!) : [];
      overall.push(...reportValues);
      if (chosen) choices.push(`${type}=${chosen}`);
      rows.push({
        dataset,
        adaptType: type,
        series: UPPER_BOUND_LABEL,
        kind: 'upper-bound',
        chosen,
        selectionMean: chosen ? best : null,
        nSelection: g.selection.length,
        reportMean: meanOrNull(reportValues),
        nReport: reportValues.length,
      });
      for (const m of series) {
        const vals = g.report.flatMap((v) => (v.has(m) ? [v.get(m)!] : []));
        overallBySeries.get(m)!.push(...vals);
        rows.push(seriesRow(input, dataset, type, m, g.selection.length, vals));
      }
    }
    rows.push({
      dataset,
      adaptType: 'all',
      series: UPPER_BOUND_LABEL,
      kind: 'upper-bound',
      chosen: choices.join(' '),
      selectionMean: null,
      nSelection: nSelectionAll,
      reportMean: meanOrNull(overall),
      nReport: overall.length,
    });
    for (const m of series) rows.push(seriesRow(input, dataset, 'all', m, nSelectionAll, overallBySeries.get(m)!));
  }
  return rows;
}
