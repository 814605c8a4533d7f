/**
 * The analyses on a hand-built results file (real DuckDB in a temp dir): the seeded split is pinned for seed 42 and
 * stratified by type; best-strategy means are the hand-computed ones below; the abstention golden case
 * (TP 2, FP 1, FN 3, TN 4 → P 2/3, R 2/5, F1 1/2); both tables are stored in the file and re-read.
 */
import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { openResultStore } from '../../store/index.ts';
import { holdDuckDbLock } from '../../store/testing/lock-holder.ts';
import type { QuestionBatch, RetrievalRow, ScoreRow } from '../../store/types.ts';
import { abstentionScores } from './abstention.ts';
import { bestStrategyPerType, UPPER_BOUND_LABEL, type BestStrategyRow } from '../../eval/analysis/best-strategy.ts';
import { analyzeAbstention, analyzeBestStrategy } from './run-analysis.ts';
import { splitQuestions } from '../../eval/analysis/split.ts';

const RUN = 'hand-run';
const TYPES: Record<string, string> = {
  f1: 'factual',
  f2: 'factual',
  f3: 'factual',
  f4: 'factual',
  t1: 'temporal',
  t2: 'temporal',
  t3: 'temporal',
  t4: 'temporal',
  x1: 'abstention',
};
// recall_any@10 (session) per question: seed 42 puts f3 f4 t1 t3 in the selection half (pinned below).
//            selection        report
// factual    A 1 1  B 0 0     A 1 0  B 1 1  U 0 0   → A chosen (1.0), bound 0.5
// temporal   A 0 0  B 1 0     A 1 1  B 0 0  U 1 0   → B chosen (0.5), bound 0.0
const VALUES: Record<string, Record<string, number>> = {
  'strategy-a': { f1: 1, f2: 0, f3: 1, f4: 1, t1: 0, t2: 1, t3: 0, t4: 1 },
  'strategy-b': { f1: 1, f2: 1, f3: 0, f4: 0, t1: 1, t2: 0, t3: 0, t4: 0 },
  unified: { f1: 0, f2: 0, f3: 1, f4: 0, t1: 0, t2: 1, t3: 0, t4: 0 },
};
// no_memory decisions of "strategy-b" vs gold abstention: TP f1 f2, FP f3, FN f4 t1 t2, TN t3 t4 x1 + one more TN.
const GOLD_ABS = new Set(['f1', 'f2', 'f4', 't1', 't2']);
const FLAGGED_B = new Set(['f1', 'f2', 'f3']);

function batch(q: string): QuestionBatch {
  const question = {
    dataset: 'd',
    questionId: q,
    text: `question ${q}?`,
    askedAt: '2023-05-20T00:00:00Z',
    nativeType: TYPES[q]!,
    adaptType: TYPES[q]!,
    isAbstention: GOLD_ABS.has(q),
    evidenceSessionIds: ['s1'],
    evidenceTurnIds: [],
    answer: 'a',
  };
  const retrievals: RetrievalRow[] = [];
  const scores: ScoreRow[] = [];
  for (const method of Object.keys(VALUES)) {
    retrievals.push({
      dataset: 'd',
      questionId: q,
      method,
      granularity: 'session',
      unitIds: [],
      unitSessionIds: [],
      scores: [],
      noMemory: method === 'strategy-b' && FLAGGED_B.has(q),
      context: null,
      latencyMs: 1,
      predictedType: null,
      typeProbs: null,
      route: null,
      notes: null,
      error: null,
    });
    const base = {
      dataset: 'd',
      questionId: q,
      method,
      granularity: 'session',
      level: 'session' as const,
      excludedWhy: null,
    };
    const v = VALUES[method]![q];
    if (v !== undefined) scores.push({ ...base, metric: 'recall_any', k: 10, value: v, counted: true });
    // Rows the analysis must ignore: another metric, another k, and an uncounted row.
    scores.push({ ...base, metric: 'ndcg_any', k: 10, value: 0.123, counted: true });
    scores.push({ ...base, metric: 'recall_any', k: 5, value: 0.456, counted: true });
    scores.push({ ...base, metric: 'recall_any', k: 10, value: 0.789, counted: false, level: 'turn' as const });
  }
  return { runId: RUN, question, retrievals, scores };
}

let file: string;

beforeAll(async () => {
  file = join(mkdtempSync(join(tmpdir(), 'analysis-')), 'hand.duckdb');
  const store = await openResultStore(file);
  const config = {
    methods: [
      { id: 'strategy-a', method: 'strategy' },
      { id: 'strategy-b', method: 'strategy' },
      { id: 'unified', method: 'unified-embedding' },
    ],
  };
  await store.upsertRun({
    runId: RUN,
    name: 'hand',
    configJson: JSON.stringify(config),
    configHash: 'h',
    gitCommit: null,
    gitDirty: null,
    packageVersions: {},
    datasetHashes: {},
    seed: 42,
    startedAt: '2026-01-01T00:00:00Z',
    status: 'done',
  });
  for (const q of Object.keys(TYPES)) await store.writeQuestion(batch(q));
  await store.close();
});

const pick = (rows: BestStrategyRow[], series: string, type: string): BestStrategyRow => {
  const r = rows.find((x) => x.series === series && x.adaptType === type);
  if (!r) throw new Error(`no row ${series} / ${type}`);
  return r;
};

describe('splitQuestions', () => {
  const qs = Object.entries(TYPES).map(([questionId, adaptType]) => ({ dataset: 'd', questionId, adaptType }));
  const selection = (seed: number) =>
    [...splitQuestions(qs, 0.5, seed)]
      .filter(([, h]) => h === 'selection')
      .map(([k]) => k.split('\t')[1])
      .sort();

  it('is pinned for a seed, stratified by type, and independent of input order', () => {
    expect(selection(42)).toEqual(['f3', 'f4', 't1', 't3']);
    expect(
      [...splitQuestions([...qs].reverse(), 0.5, 42)]
        .filter(([, h]) => h === 'selection')
        .map(([k]) => k.split('\t')[1])
        .sort(),
    ).toEqual(['f3', 'f4', 't1', 't3']);
    expect(selection(7)).toEqual(['f1', 'f2', 't2', 't3']);
    // A one-question stratum is reported, never used for selection.
    expect(splitQuestions(qs, 0.5, 42).get('d\tx1')).toBe('report');
  });

  it('refuses a fraction outside (0, 1)', () => {
    expect(() => splitQuestions(qs, 1, 42)).toThrow(/between 0 and 1/);
  });
});

describe('best strategy per type (hand-computed)', () => {
  it('chooses on the selection half and reports on the other, next to every series', async () => {
    const { rows, text } = await analyzeBestStrategy(file, {
      metric: 'recall_any',
      level: 'session',
      k: 10,
      split: 0.5,
      seed: 42,
    });
    const fb = pick(rows, UPPER_BOUND_LABEL, 'factual');
    expect(fb).toMatchObject({ chosen: 'strategy-a', selectionMean: 1, nSelection: 2, reportMean: 0.5, nReport: 2 });
    const tb = pick(rows, UPPER_BOUND_LABEL, 'temporal');
    expect(tb).toMatchObject({ chosen: 'strategy-b', selectionMean: 0.5, reportMean: 0, nReport: 2 });
    expect(pick(rows, UPPER_BOUND_LABEL, 'all')).toMatchObject({
      reportMean: 0.25,
      nReport: 4,
      chosen: 'factual=strategy-a temporal=strategy-b',
    });
    expect(pick(rows, 'strategy-a', 'factual').reportMean).toBe(0.5);
    expect(pick(rows, 'strategy-b', 'factual').reportMean).toBe(1);
    expect(pick(rows, 'unified', 'temporal')).toMatchObject({ kind: 'baseline', reportMean: 0.5, nReport: 2 });
    expect(pick(rows, 'strategy-a', 'all').reportMean).toBe(0.75);
    expect(pick(rows, 'strategy-b', 'all').reportMean).toBe(0.5);
    expect(pick(rows, 'unified', 'all').reportMean).toBe(0.25);
    // The abstention question has no counted score: no row for its type.
    expect(rows.some((r) => r.adaptType === 'abstention')).toBe(false);
    expect(text).toContain('oracle strategy (held-out, gold type)');

    const store = await openResultStore(file, { readOnly: true });
    try {
      const stored = await store.query<{
        series: string;
        adapt_type: string;
        report_mean: number;
        n_report: number;
        seed: number;
      }>(
        "SELECT series, adapt_type, report_mean, n_report, seed FROM analysis_best_strategy WHERE adapt_type = 'all' ORDER BY series",
      );
      // ORDER BY series: the oracle's label sorts before the strategy ids.
      expect(stored.map((r) => [r.series, r.report_mean, r.n_report])).toEqual([
        [UPPER_BOUND_LABEL, 0.25, 4],
        ['strategy-a', 0.75, 4],
        ['strategy-b', 0.5, 4],
        ['unified', 0.25, 4],
      ]);
    } finally {
      await store.close();
    }
  });

  it('keeps only questions every candidate strategy scored, and breaks ties by method id', () => {
    const questions = [
      { dataset: 'd', questionId: 'a', adaptType: 'update' },
      { dataset: 'd', questionId: 'b', adaptType: 'update' },
      { dataset: 'd', questionId: 'c', adaptType: 'update' },
    ];
    const s = (questionId: string, method: string, value: number) => ({
      dataset: 'd',
      questionId,
      adaptType: 'update',
      method,
      value,
    });
    const half = splitQuestions(questions, 0.5, 1);
    const sel = questions.find((q) => half.get(`d\t${q.questionId}`) === 'selection')!.questionId;
    const rep = questions.filter((q) => q.questionId !== sel).map((q) => q.questionId);
    const rows = bestStrategyPerType({
      questions,
      // Equal selection means → "x" (sorted first) is chosen; the second report question lacks "y" → dropped.
      scores: [s(sel, 'x', 1), s(sel, 'y', 1), s(rep[0]!, 'x', 0.2), s(rep[0]!, 'y', 0.9), s(rep[1]!, 'x', 1)],
      strategies: ['y', 'x'],
      baselines: [],
      fraction: 0.5,
      seed: 1,
    });
    expect(pick(rows, UPPER_BOUND_LABEL, 'update')).toMatchObject({ chosen: 'x', reportMean: 0.2, nReport: 1 });
  });
});

describe('abstention precision / recall', () => {
  it('golden case: TP 2, FP 1, FN 3 → P 2/3, R 2/5, F1 1/2; undefined ratios are null', () => {
    const rows = [
      ...['tp', 'tp'].map(() => ({ flagged: true, isAbstention: true })),
      { flagged: true, isAbstention: false },
      ...[1, 2, 3].map(() => ({ flagged: false, isAbstention: true })),
      ...[1, 2, 3, 4].map(() => ({ flagged: false, isAbstention: false })),
    ].map((r) => ({ dataset: 'd', method: 'm', ...r }));
    const never = rows.map((r) => ({ ...r, method: 'never', flagged: false }));
    const [m, n] = [...abstentionScores([...rows, ...never])].sort((a, b) =>
      a.method === 'm' ? -1 : b.method === 'm' ? 1 : 0,
    );
    expect(m).toMatchObject({ n: 10, nFlagged: 3, nAbstention: 5, truePositives: 2 });
    expect(m!.precision).toBeCloseTo(2 / 3, 12);
    expect(m!.recall).toBeCloseTo(2 / 5, 12);
    expect(m!.f1).toBeCloseTo(0.5, 12);
    expect(n).toMatchObject({ method: 'never', nFlagged: 0, precision: null, recall: 0, f1: null });
  });

  it('reads no_memory against is_abstention from the file and stores the table', async () => {
    const { rows } = await analyzeAbstention(file);
    const b = rows.find((r) => r.method === 'strategy-b')!;
    expect(b).toMatchObject({ n: 9, nFlagged: 3, nAbstention: 5, truePositives: 2 });
    expect(b.f1).toBeCloseTo(0.5, 12);
    expect(rows.find((r) => r.method === 'unified')).toMatchObject({ nFlagged: 0, precision: null, recall: 0 });
    const store = await openResultStore(file, { readOnly: true });
    try {
      const stored = await store.query<{ method: string; precision: number | null }>(
        'SELECT method, precision FROM analysis_abstention ORDER BY method',
      );
      expect(stored.map((r) => r.method)).toEqual(['strategy-a', 'strategy-b', 'unified']);
      expect(stored[1]!.precision).toBeCloseTo(2 / 3, 12);
    } finally {
      await store.close();
    }
  });

  it('fails clearly when a running job holds the file', async () => {
    const locked = join(mkdtempSync(join(tmpdir(), 'analysis-lock-')), 'locked.duckdb');
    copyFileSync(file, locked);
    const holder = await holdDuckDbLock(locked);
    try {
      await expect(analyzeAbstention(locked)).rejects.toThrow(/locked, probably by a running `adaptmr run` job/);
    } finally {
      holder.kill();
    }
  });

  it('fails clearly on a missing file', async () => {
    await expect(analyzeAbstention(join(tmpdir(), 'no-such-results.duckdb'))).rejects.toThrow(/results file not found/);
  });
});
