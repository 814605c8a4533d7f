/**
 * `adaptmr score-answers --format locomo-audit <eval_results.json …>`: another system's LoCoMo answers with their judge
 * verdicts, in the format of dial481/locomo-audit (`fc-baseline/results/<run>/eval_results.json`, also the probe files
 * `ap-baseline/v1|v2/ap_eval_results_scored.json`): benchmarks/locomo/audit.ts reads them, reached as the installed
 * benchmarks' answer format of that name (`BenchmarkQa.answerFormats`); here
 * - the published numbers are recomputed as the audit computes them (dial481/locomo-audit@9493fb4b4af4256ed17a18e8fd0b3cfdeec29539
 *   fc-baseline/README.md "Per-Category Accuracy (Per-Run Mean)"): run r's accuracy is the share of `judgment_r`
 *   true, the per-run mean over the runs, "±" the population standard deviation of the runs, majority vote ≥ half+1;
 * - every record is checked against LoCoMo (question text, gold answer, category), keyed by `locomo_<i>_qa<j>`;
 * - the answers can go into a results file (`--out`) as one imported run, one method per file, the imported verdicts
 *   as judge `audit` (one repeat per judge run, so the `accuracy` score of an answer is its share of true runs and
 *   the mean over questions is the per-run mean), answer token counts and F1 / BLEU-1 with the harness's own metrics;
 * - with a judge (`--judge --judge-model m [--judge-prompt p]`), the answers are re-judged by the judging pass
 *   (src/run/judging/judge-pass.ts) and kappa against the imported verdicts (their majority vote) is reported.
 */
import { basename, dirname } from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InputError } from '../../core/errors.ts';
import { stableHash } from '../../core/hash.ts';
import type { JudgePromptKind } from '../../core/qa-config.ts';
import { loadQuestions, sha256File } from '../../data/index.ts';
import type { AnswerFormat, PublishedAnswer as AuditAnswer, PublishedAnswersMeta } from '../../core/benchmark.ts';
import { answerFormat } from '../../core/benchmarks-installed.ts';
import { cohensKappa, majorityVerdict } from '../../eval/qa/agreement/index.ts';
import { bleu1, locomoAnswerScore } from '../../eval/qa/answer-metrics.ts';
import { createLlmProvider } from '../../llm/provider.ts';
import { countTokens } from '../../llm/tokens.ts';
import { judgePass } from '../../run/judging/judge-pass.ts';
import { openResultStore, refreshStats, type QuestionBatch, type ResultStore } from '../../store/index.ts';
import { median } from '../../core/averages.ts';
import { PLAN_EXPERIMENT_REGISTRY } from '../../plan-experiments/registry.ts';

/** LoCoMo's category names as its data uses them, in the order the audit's tables list them. */
export const AUDIT_CATEGORIES: readonly { category: string; name: string }[] = [
  { category: '4', name: 'single-hop' },
  { category: '1', name: 'multi-hop' },
  { category: '2', name: 'temporal' },
  { category: '3', name: 'open-domain' },
];

export interface RunStat {
  n: number;
  /** Accuracy of each judge run, in run order (fractions). */
  runs: number[];
  mean: number;
  /** Population standard deviation over the runs (Python `statistics.pstdev`). */
  sd: number;
  /** Share of answers with more than half of the runs true. */
  majority: number;
  /** LoCoMo's token F1 (category-aware, src/eval/qa/answer-metrics.ts) and BLEU-1 of the answers against the gold, means. */
  f1: number;
  bleu1: number;
}

export interface AuditSummary {
  file: string;
  /** `owner/repo@commit path` when the file is a pinned audit file (sha256 equal), else null. */
  pinned: string | null;
  answerModel: string | null;
  answerPrompt: string | null;
  judgeModel: string | null;
  categories: Record<string, RunStat>;
  overall: RunStat;
  words: { mean: number; median: number };
  /** With a judge: its accuracy and its agreement with the imported verdicts (majority vote). */
  judge?: { id: string; model: string; accuracy: number; n: number; agreement: number; kappa: number | null };
}

export function runStat(answers: readonly AuditAnswer[]): RunStat {
  const n = answers.length;
  const runsCount = answers[0]?.judgments.length ?? 0;
  const runs = Array.from({ length: runsCount }, (_, r) => answers.filter((a) => a.judgments[r]).length / n);
  const mean = runs.reduce((s, x) => s + x, 0) / runs.length;
  const sd = Math.sqrt(runs.reduce((s, x) => s + (x - mean) ** 2, 0) / runs.length);
  const f1 = answers.reduce((t, a) => t + locomoAnswerScore(a.answer, a.gold, Number(a.category)), 0) / n;
  const b1 = answers.reduce((t, a) => t + bleu1(a.answer, a.gold), 0) / n;
  return { n, runs, mean, sd, majority: answers.filter((a) => majorityVerdict(a.judgments)).length / n, f1, bleu1: b1 };
}

async function pinnedName(format: AnswerFormat, path: string): Promise<string | null> {
  return format.pinnedName((await sha256File(path)).sha256);
}

export function summarise(
  file: string,
  meta: PublishedAnswersMeta,
  answers: readonly AuditAnswer[],
  pinned: string | null,
): AuditSummary {
  const categories: Record<string, RunStat> = {};
  for (const { category } of AUDIT_CATEGORIES) {
    const of = answers.filter((a) => a.category === category);
    if (of.length > 0) categories[category] = runStat(of);
  }
  const words = answers.map((a) => a.answer.split(/\s+/u).filter(Boolean).length);
  return {
    file,
    pinned,
    answerModel: meta.answerModel,
    answerPrompt: meta.answerPrompt,
    judgeModel: meta.judgeModel,
    categories,
    overall: runStat(answers),
    words: { mean: words.reduce((s, w) => s + w, 0) / words.length, median: median(words) },
  };
}

const p2 = (x: number): string => (x * 100).toFixed(2);

/** The audit's table layout: per category and overall, per-run mean ± pstdev, each run, majority vote (2 decimals). */
export function formatSummary(s: AuditSummary): string {
  const lines = [
    `${s.file}${s.pinned ? `  (verified: ${s.pinned})` : '  (not a pinned audit file)'}`,
    `answers: ${s.answerModel ?? '?'} with ${s.answerPrompt ?? '?'}; imported judge: ${s.judgeModel ?? '?'} × ${s.overall.runs.length} runs; answer words mean ${s.words.mean.toFixed(1)} / median ${s.words.median}`,
    ['category', 'n', 'per-run mean ± sd', 'runs', 'majority vote', 'F1', 'BLEU-1'].join('\t'),
  ];
  const row = (name: string, r: RunStat) =>
    [name, r.n, `${p2(r.mean)} ± ${p2(r.sd)}`, r.runs.map(p2).join(' / '), p2(r.majority), p2(r.f1), p2(r.bleu1)].join(
      '\t',
    );
  for (const { category, name } of AUDIT_CATEGORIES) {
    const r = s.categories[category];
    if (r) lines.push(row(`${name} (${category})`, r));
  }
  lines.push(row('overall', s.overall));
  if (s.judge) {
    lines.push(
      `judge ${s.judge.id} (${s.judge.model}): accuracy ${p2(s.judge.accuracy)} on ${s.judge.n} answers; agreement with the imported verdicts (majority vote) ${p2(s.judge.agreement)}%, Cohen's kappa ${s.judge.kappa === null ? 'n/a' : s.judge.kappa.toFixed(3)}`,
    );
  }
  return lines.join('\n');
}

export interface AuditImportOptions {
  dataDir: string;
  /** The format the files are in (default: `locomo-audit` of the installed benchmarks). */
  format?: AnswerFormat | undefined;
  /** Results file to write (default: none, or a temporary one when a judge is asked). */
  out?: string | undefined;
  judge?: { model: string; prompt?: JudgePromptKind | undefined; baseUrl?: string | undefined } | undefined;
  log?: (line: string) => void;
}

/** The method id of an audit file: its folder (`gpt-4o-mini-memos`), else the file name. */
export function methodIdOf(file: string): string {
  const folder = basename(dirname(file));
  const id = (folder && folder !== '.' ? folder : basename(file, '.json')).replace(/[^A-Za-z0-9_.:-]/gu, '-');
  return id || 'imported';
}

export async function scoreAuditFiles(files: readonly string[], o: AuditImportOptions): Promise<AuditSummary[]> {
  const format = o.format ?? (await answerFormat('locomo-audit'));
  const loaded = await Promise.all(
    files.map(async (file) => ({ file, ...format.read(file), pinned: await pinnedName(format, file) })),
  );
  const ids = loaded.map((l) => methodIdOf(l.file));
  const dup = ids.find((id, i) => ids.indexOf(id) !== i);
  if (dup)
    throw new InputError(`two files would both be method "${dup}"; give them distinct folders`, files.join(', '));
  // Every record against LoCoMo (locomo_<i>_qa<j> → <sample_id>:q<j>): question, gold answer and category.
  const wanted = [...new Set(loaded.flatMap((l) => l.answers.map((a) => a.questionId)))];
  const { questions } = await loadQuestions({ name: 'locomo', questionIds: wanted }, o.dataDir);
  const locomo = new Map(questions.map((q) => [q.query.id, q]));
  for (const l of loaded) {
    for (const a of l.answers) {
      const q = locomo.get(a.questionId);
      const why = !q
        ? 'is not in LoCoMo'
        : q.query.text !== a.question
          ? `asks "${a.question}", LoCoMo "${q.query.text}"`
          : q.gold.answer !== a.gold
            ? `has gold "${a.gold}", LoCoMo "${q.gold.answer}"`
            : q.gold.nativeType !== a.category
              ? `has category ${a.category}, LoCoMo ${q.gold.nativeType}`
              : null;
      if (why) throw new InputError(`${a.auditId} (${a.questionId}) ${why}`, l.file);
    }
  }
  const summaries = loaded.map((l) => summarise(l.file, l.meta, l.answers, l.pinned));
  if (!o.out && !o.judge) return summaries;
  const tmp = o.out ? undefined : mkdtempSync(join(tmpdir(), 'adaptmr-audit-'));
  const store = await openResultStore(o.out ?? join(tmp!, 'import.duckdb'));
  try {
    const runId = `locomo-audit-import-${stableHash(loaded.map((l) => [methodIdOf(l.file), l.pinned ?? l.file])).slice(0, 12)}`;
    await writeImport(store, runId, loaded, locomo);
    if (o.judge) {
      const llm = createLlmProvider({
        roles: { judge: { model: o.judge.model, ...(o.judge.baseUrl ? { baseURL: o.judge.baseUrl } : {}) } },
      });
      const panel = [{ id: 'judge', model: o.judge.model, ...(o.judge.prompt ? { prompt: o.judge.prompt } : {}) }];
      const pass = await judgePass(store, {
        runId,
        panel,
        llm,
        stageOf: () => 'judge:judge',
        repeats: 1,
        judgeAdversarial: false,
        ...(o.log ? { log: o.log } : {}),
      });
      if (pass.failed > 0)
        throw new InputError(
          `${pass.failed} judge call(s) failed (first: ${pass.firstError}); run again to retry (answers judged so far are cached)`,
        );
      for (const [i, l] of loaded.entries())
        summaries[i]!.judge = await judgeAgainstImported(store, runId, methodIdOf(l.file), o.judge.model);
    }
    await refreshStats(store, PLAN_EXPERIMENT_REGISTRY);
  } finally {
    await store.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  }
  return summaries;
}

async function judgeAgainstImported(
  store: ResultStore,
  runId: string,
  method: string,
  model: string,
): Promise<NonNullable<AuditSummary['judge']>> {
  const rows = await store.query<{ question_id: string; judge: string; correct: boolean[] }>(
    `SELECT question_id, judge, correct FROM answer_verdicts WHERE run_id = $1 AND method = $2 AND probe = '' ORDER BY question_id`,
    [runId, method],
  );
  const audit = new Map(
    rows.filter((r) => r.judge === 'audit').map((r) => [r.question_id, majorityVerdict(r.correct)]),
  );
  const mine = rows.filter((r) => r.judge === 'judge' && audit.has(r.question_id));
  const ours = mine.map((r) => majorityVerdict(r.correct));
  const k = cohensKappa(
    mine.map((r) => audit.get(r.question_id)!),
    ours,
  );
  return {
    id: 'judge',
    model,
    accuracy: ours.filter(Boolean).length / ours.length,
    n: ours.length,
    agreement: k.agreement,
    kappa: k.kappa,
  };
}

type Loaded = { file: string; meta: PublishedAnswersMeta; answers: AuditAnswer[]; pinned: string | null };

/** One imported run: its questions, answers, the imported verdicts (judge `audit`) and QA scores; resumable by question. */
type LocomoQuestion = Awaited<ReturnType<typeof loadQuestions>>['questions'][number];

/** One question's imported rows: each method's answer, its audit verdicts, and its accuracy, F1 and BLEU-1. */
function importedQuestion(
  runId: string,
  questionId: string,
  inst: LocomoQuestion,
  list: readonly { method: string; answer: AuditAnswer; judgeModel: string }[],
): QuestionBatch {
  const g = inst.gold;
  const batch: QuestionBatch = {
    runId,
    question: {
      dataset: 'locomo',
      questionId,
      text: inst.query.text,
      askedAt: inst.query.askedAt,
      nativeType: g.nativeType,
      adaptType: g.type,
      isAbstention: g.isAbstention,
      evidenceSessionIds: g.evidenceSessionIds,
      evidenceTurnIds: g.evidenceTurnIds,
      answer: g.answer,
    },
    retrievals: [],
    scores: [],
    answers: [],
    verdicts: [],
  };
  for (const { method, answer: a, judgeModel } of list) {
    const base = { dataset: 'locomo', questionId, method };
    batch.answers!.push({
      ...base,
      answer: a.answer,
      judgeVerdicts: [{ correct: a.judgments, raw: a.judgments.map(String) }],
      contextTokens: null,
      error: null,
      answerTokens: countTokens(a.answer),
    });
    batch.verdicts!.push({
      ...base,
      probe: '',
      judge: 'audit',
      gold: 'original',
      model: judgeModel,
      prompt: 'locomo-audit',
      correct: a.judgments,
      raw: a.judgments.map(String),
    });
    const score = (metric: string, value: number) =>
      batch.scores.push({
        ...base,
        granularity: 'session',
        level: 'qa',
        metric,
        k: null,
        value,
        counted: true,
        excludedWhy: null,
      });
    score('accuracy', a.judgments.filter(Boolean).length / a.judgments.length);
    score('f1', locomoAnswerScore(a.answer, g.answer, Number(g.nativeType)));
    score('bleu1', bleu1(a.answer, g.answer));
  }
  return batch;
}

/** Per question, each file's answer not yet imported into the run (a rerun resumes). */
async function answersToImport(
  store: ResultStore,
  runId: string,
  loaded: readonly Loaded[],
): Promise<Map<string, { method: string; answer: AuditAnswer; judgeModel: string }[]>> {
  const done = new Set(
    (
      await store.query<{ question_id: string; method: string }>(
        'SELECT question_id, method FROM answers WHERE run_id = $1',
        [runId],
      )
    ).map((r) => `${r.question_id}\t${r.method}`),
  );
  const byQuestion = new Map<string, { method: string; answer: AuditAnswer; judgeModel: string }[]>();
  for (const l of loaded) {
    for (const a of l.answers) {
      if (done.has(`${a.questionId}\t${methodIdOf(l.file)}`)) continue;
      byQuestion.set(a.questionId, [
        ...(byQuestion.get(a.questionId) ?? []),
        { method: methodIdOf(l.file), answer: a, judgeModel: l.meta.judgeModel ?? 'unknown' },
      ]);
    }
  }
  return byQuestion;
}

async function writeImport(
  store: ResultStore,
  runId: string,
  loaded: readonly Loaded[],
  locomo: Map<string, Awaited<ReturnType<typeof loadQuestions>>['questions'][number]>,
): Promise<void> {
  const methods = loaded.map((l) => ({
    id: methodIdOf(l.file),
    method: 'imported',
    file: l.pinned ?? l.file,
    answerModel: l.meta.answerModel,
    answerPrompt: l.meta.answerPrompt,
  }));
  const config = {
    name: 'locomo-audit-import',
    seed: 0,
    datasets: [{ name: 'locomo' }],
    methods,
    qa: { judges: [{ id: 'audit', model: loaded[0]!.meta.judgeModel ?? 'unknown' }] },
  };
  const configJson = JSON.stringify(config);
  await store.upsertRun({
    runId,
    name: config.name,
    configJson,
    configHash: stableHash(config),
    gitCommit: null,
    gitDirty: null,
    packageVersions: {},
    datasetHashes: Object.fromEntries(loaded.map((l) => [methodIdOf(l.file), l.pinned ?? l.file])),
    seed: 0,
    startedAt: new Date().toISOString(),
    status: 'running',
  });
  await store.upsertMethods(
    runId,
    loaded.map((l) => ({
      method: methodIdOf(l.file),
      kind: 'imported',
      granularity: 'session',
      k: 0,
      output: 'text' as const,
      upperBound: false,
      degraded: null,
      capabilities: {
        output: 'text',
        answers: true,
        imported: 'locomo-audit',
        readerPrompt: l.meta.answerPrompt,
        answerModel: l.meta.answerModel,
      },
    })),
  );
  const byQuestion = await answersToImport(store, runId, loaded);
  const writes: Promise<void>[] = [];
  for (const [questionId, list] of byQuestion)
    writes.push(store.writeQuestion(importedQuestion(runId, questionId, locomo.get(questionId)!, list)));
  await Promise.all(writes);
  await store.upsertRun({
    runId,
    name: config.name,
    configJson,
    configHash: stableHash(config),
    gitCommit: null,
    gitDirty: null,
    packageVersions: {},
    datasetHashes: {},
    seed: 0,
    startedAt: '',
    endedAt: new Date().toISOString(),
    status: 'done',
  });
}
