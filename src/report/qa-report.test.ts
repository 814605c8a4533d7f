// QA section of `adaptmr report` on a real results file built in a temp dir through the store API: accuracy by
// AdaptMR type with ± sd over two judge runs, LongMemEval's task-averaged/overall/abstention, LoCoMo's headline and
// adversarial numbers, p50/p95 and cost per stage — all against hand-computed values — and the rendered chart.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openResultStore, type LlmCallRow, type QuestionBatch, type RetrievalRow } from '../store/index.ts';
import { runReport, type ReportOutput } from './report.ts';

const dir = mkdtempSync(join(tmpdir(), 'adaptmr-qa-report-'));
const file = join(dir, 'qa.duckdb');

interface Case {
  dataset: string;
  id: string;
  native: string;
  adapt: string;
  /** Per method: judge verdicts (one per judge run), F1, BLEU-1 (LoCoMo), retrieval latency, context tokens. */
  m: Record<string, { correct: boolean[]; f1?: number; bleu1?: number; ms: number; ctx: number }>;
}

const T = true;
const F = false;
// LongMemEval: `embed` judged twice per question, `full` once. LoCoMo: one judge run, category 5 not judged.
const CASES: Case[] = [
  {
    dataset: 'lme',
    id: 'l1',
    native: 'single-session-user',
    adapt: 'factual',
    m: { embed: { correct: [T, T], ms: 10, ctx: 100 }, full: { correct: [T], ms: 1, ctx: 1000 } },
  },
  {
    dataset: 'lme',
    id: 'l2',
    native: 'single-session-user',
    adapt: 'factual',
    m: { embed: { correct: [T, F], ms: 20, ctx: 200 }, full: { correct: [F], ms: 2, ctx: 1000 } },
  },
  {
    dataset: 'lme',
    id: 'l3',
    native: 'temporal-reasoning',
    adapt: 'temporal',
    m: { embed: { correct: [F, F], ms: 30, ctx: 300 }, full: { correct: [T], ms: 3, ctx: 1000 } },
  },
  {
    dataset: 'lme',
    id: 'l4',
    native: 'knowledge-update',
    adapt: 'update',
    m: { embed: { correct: [T, F], ms: 40, ctx: 400 }, full: { correct: [F], ms: 4, ctx: 1000 } },
  },
  {
    dataset: 'lme',
    id: 'l5_abs',
    native: 'multi-session',
    adapt: 'abstention',
    m: { embed: { correct: [T, T], ms: 100, ctx: 500 }, full: { correct: [F], ms: 5, ctx: 1000 } },
  },
  {
    dataset: 'locomo',
    id: 'c1',
    native: '1',
    adapt: 'multi-hop',
    m: {
      embed: { correct: [T], f1: 0.5, bleu1: 0.4, ms: 1, ctx: 50 },
      full: { correct: [F], f1: 0, bleu1: 0, ms: 1, ctx: 90 },
    },
  },
  {
    dataset: 'locomo',
    id: 'c2',
    native: '2',
    adapt: 'temporal',
    m: {
      embed: { correct: [F], f1: 0.25, bleu1: 0.2, ms: 1, ctx: 50 },
      full: { correct: [T], f1: 1, bleu1: 1, ms: 1, ctx: 90 },
    },
  },
  {
    dataset: 'locomo',
    id: 'c3',
    native: '4',
    adapt: 'factual',
    m: {
      embed: { correct: [T], f1: 1, bleu1: 1, ms: 1, ctx: 50 },
      full: { correct: [T], f1: 0.5, bleu1: 0.5, ms: 1, ctx: 90 },
    },
  },
  {
    dataset: 'locomo',
    id: 'c4',
    native: '5',
    adapt: 'abstention',
    m: {
      embed: { correct: [], f1: 1, bleu1: 0, ms: 1, ctx: 50 },
      full: { correct: [], f1: 0, bleu1: 0, ms: 1, ctx: 90 },
    },
  },
];

function retrieval(dataset: string, questionId: string, method: string, latencyMs: number): RetrievalRow {
  return {
    dataset,
    questionId,
    method,
    granularity: 'session',
    unitIds: [],
    unitSessionIds: [],
    scores: [],
    noMemory: false,
    context: null,
    latencyMs,
    predictedType: null,
    typeProbs: null,
    route: null,
    notes: null,
    error: null,
  };
}

// LLM calls of `embed` on LongMemEval question i (0-based): one reader call (latency 100·(i+1) ms, prompt 1000·(i+1)
// tokens, 10 completion tokens, $0.01, the first two served from the cache) and one judge call per judge run
// ($0.001, 50 ms; the very first one failed).
function calls(c: Case, i: number): LlmCallRow[] {
  if (c.dataset !== 'lme') return [];
  const key = { dataset: c.dataset, questionId: c.id, method: 'embed', model: 'm' };
  const reader = {
    ...key,
    stage: 'reader',
    promptTokens: 1000 * (i + 1),
    completionTokens: 10,
    latencyMs: 100 * (i + 1),
    cached: i < 2,
    costUsd: 0.01,
  };
  const judges = (c.m.embed?.correct ?? []).map((_, r) => ({
    ...key,
    stage: 'judge',
    promptTokens: 300,
    completionTokens: 1,
    latencyMs: 50,
    cached: false,
    costUsd: 0.001,
    ...(i === 0 && r === 0 ? { error: 'HTTP 500' } : {}),
  }));
  return [reader, ...judges];
}

function batch(c: Case, i: number): QuestionBatch {
  const methods = Object.entries(c.m);
  const counted = c.native !== '5';
  const base = {
    dataset: c.dataset,
    questionId: c.id,
    granularity: 'session',
    level: 'qa' as const,
    k: null,
    counted,
    excludedWhy: counted ? null : 'adversarial (reported separately)',
  };
  return {
    runId: 'r1',
    question: {
      dataset: c.dataset,
      questionId: c.id,
      text: '?',
      askedAt: '2023-01-01T00:00:00Z',
      nativeType: c.native,
      adaptType: c.adapt,
      isAbstention: c.adapt === 'abstention',
      evidenceSessionIds: [],
      evidenceTurnIds: [],
      answer: 'gold',
    },
    retrievals: methods.map(([method, m]) => retrieval(c.dataset, c.id, method, m.ms)),
    scores: methods.flatMap(([method, m]) => [
      ...(m.correct.length > 0
        ? [{ ...base, method, metric: 'accuracy', value: m.correct.filter(Boolean).length / m.correct.length }]
        : []),
      ...(m.f1 !== undefined ? [{ ...base, method, metric: 'f1', value: m.f1 }] : []),
      ...(m.bleu1 !== undefined ? [{ ...base, method, metric: 'bleu1', value: m.bleu1 }] : []),
    ]),
    answers: methods.map(([method, m]) => ({
      dataset: c.dataset,
      questionId: c.id,
      method,
      answer: 'a',
      contextTokens: m.ctx,
      error: null,
      judgeVerdicts:
        m.correct.length > 0 ? [{ correct: m.correct, raw: m.correct.map((v) => (v ? 'yes' : 'no')) }] : [],
    })),
    llmCalls: calls(c, i),
  };
}

let out: ReportOutput;
beforeAll(async () => {
  const store = await openResultStore(file);
  for (const [i, c] of CASES.entries()) await store.writeQuestion(batch(c, i));
  await store.close();
  out = await runReport(file, { outDir: join(dir, 'out'), ks: [5] });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The cells of the line of `section` (a title prefix) whose cells start with dataset, method[, stage]. */
function row(section: string, ...keys: string[]): string[] {
  const text = out.text.slice(out.text.indexOf(section));
  const lines = text.slice(0, text.indexOf('\n\n') === -1 ? undefined : text.indexOf('\n\n')).split('\n');
  const cells = lines.map((l) =>
    l
      .split('│')
      .map((c) => c.trim())
      .slice(1, -1),
  );
  const found = cells.find((c) => keys.every((k, j) => c[j] === k));
  if (!found) throw new Error(`no row ${keys.join(' / ')} in section ${section}:\n${lines.join('\n')}`);
  return found.slice(keys.length);
}

describe('QA report', () => {
  it('accuracy by AdaptMR type: mean ± sd over judge runs (n), adversarial uncounted', () => {
    // embed, LongMemEval — per run: factual (l1, l2) 1 and 0.5; overall 4/5 and 2/5 → 60 ± 28.3 (sd = 0.2·√2).
    expect(row('QA accuracy', 'lme', 'embed')).toEqual([
      '75.0% ± 35.4 (2)',
      '0.0% ± 0.0 (1)',
      '50.0% ± 70.7 (1)',
      '—',
      '100.0% ± 0.0 (1)',
      '60.0% ± 28.3 (5)',
    ]);
    expect(row('QA accuracy', 'lme', 'full')).toEqual([
      '50.0% (2)',
      '100.0% (1)',
      '0.0% (1)',
      '—',
      '0.0% (1)',
      '40.0% (5)',
    ]);
    // LoCoMo: category 5 is kept but not counted, so abstention is empty and `all` is categories 1–4.
    expect(row('QA accuracy', 'locomo', 'embed')).toEqual([
      '100.0% (1)',
      '0.0% (1)',
      '—',
      '100.0% (1)',
      '—',
      '66.7% (3)',
    ]);
  });

  it('LongMemEval: task-averaged (mean of native types per judge run), overall, abstention', () => {
    // embed run 0: ssu 1, temporal 0, update 1, multi-session 1 → 0.75; run 1: 0.5, 0, 0, 1 → 0.375.
    expect(row('LongMemEval QA', 'lme', 'embed')).toEqual([
      '56.3% ± 26.5 (5) [4/6 types]',
      '60.0% ± 28.3 (5)',
      '100.0% ± 0.0 (1)',
    ]);
    // full: (0.5 + 1 + 0 + 0) / 4.
    expect(row('LongMemEval QA', 'lme', 'full')).toEqual(['37.5% (5) [4/6 types]', '40.0% (5)', '0.0% (1)']);
    expect(() => row('LongMemEval QA', 'locomo', 'embed')).toThrow(/no row locomo/u);
  });

  it('LoCoMo: headline categories 1–4 (judge, F1, BLEU-1) and adversarial apart', () => {
    // embed: judge 2/3; F1 (0.5 + 0.25 + 1) / 3; BLEU-1 (0.4 + 0.2 + 1) / 3; category 5 not judged, F1 1.
    expect(row('LoCoMo QA', 'locomo', 'embed')).toEqual(['66.7% (3)', '58.3 (3)', '53.3', '—', '100.0 (1)']);
    expect(row('LoCoMo QA', 'locomo', 'full')).toEqual(['66.7% (3)', '50.0 (3)', '50.0', '—', '0.0 (1)']);
  });

  it('latency/tokens/cost per stage with quantile_cont p50/p95 and cost vs spent', () => {
    // Retrieval latencies 10, 20, 30, 40, 100: p50 30; p95 at rank 0.95·4 = 3.8 → 40 + 0.8·60 = 88. Context 300.
    // Columns: calls, errors, p50, p95, prompt, completion, cache hits, prompt-cached, batch, cost, spent, reader ctx.
    expect(row('Latency', 'lme', 'embed', 'retrieval')).toEqual([
      '5',
      '',
      '30.0',
      '88.0',
      '',
      '',
      '',
      '',
      '',
      '',
      '',
      '300',
    ]);
    // Reader: 100…500 ms → p50 300, p95 480; prompt mean 3000; 2 of 5 cached; cost 5 × $0.01, spent 3 × $0.01.
    expect(row('Latency', 'lme', 'embed', 'reader')).toEqual([
      '5',
      '',
      '300.0',
      '480.0',
      '3000',
      '10',
      '40%',
      '0%',
      '0%',
      '$0.0500',
      '$0.0300',
      '',
    ]);
    // Judge: 2 runs × 5 questions, one failed call.
    expect(row('Latency', 'lme', 'embed', 'judge')).toEqual([
      '10',
      '1',
      '50.0',
      '50.0',
      '300',
      '1',
      '0%',
      '0%',
      '0%',
      '$0.0100',
      '$0.0100',
      '',
    ]);
    expect(row('Latency', 'lme', 'full', 'retrieval')).toEqual([
      '5',
      '',
      '3.0',
      '4.8',
      '',
      '',
      '',
      '',
      '',
      '',
      '',
      '1000',
    ]);
    expect(out.text).toContain('$0.0600; spent = uncached calls only (money this file actually cost): $0.0400');
  });

  it('renders the accuracy chart with both methods and both datasets (independent x per dataset)', () => {
    expect(out.qaChart?.pngPath).toBe(join(dir, 'out', 'charts', 'accuracy-by-type.png'));
    const svg = readFileSync(join(dir, 'out', 'charts', 'accuracy-by-type.svg'), 'utf8');
    expect(svg).toContain('>embed</text>');
    expect(svg).toContain('>full</text>');
    expect(svg).toContain('QA accuracy (LLM judge) by AdaptMR type');
    // lme: 4 types (no multi-hop question) + all; locomo: 3 counted types + all → (5 + 4) bars × 2 methods.
    expect(svg.match(/aria-roledescription="bar"/g)).toHaveLength(18);
    // LoCoMo's facet has no `update` slot: the label appears once (LongMemEval's axis) only.
    expect(svg.match(/>update</g)).toHaveLength(1);
    const png = readFileSync(join(dir, 'out', 'charts', 'accuracy-by-type.png'));
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  });

  it('stops on judge verdicts that disagree with the stored accuracy', async () => {
    const bad = join(dir, 'bad.duckdb');
    const store = await openResultStore(bad);
    const b = batch(CASES[0]!, 0);
    await store.writeQuestion({
      ...b,
      answers: b.answers!.map((a) => ({ ...a, judgeVerdicts: [{ correct: [F, F] }] })),
    });
    await store.close();
    await expect(runReport(bad, { outDir: join(dir, 'bad') })).rejects.toThrow(
      /lme \/ l1 \/ embed.*accuracy 1 does not match/su,
    );
  });
});
