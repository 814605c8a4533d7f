/**
 * Everything the runner does for one question: run each method not yet done (the query only — gold stays here,
 * except the gold type handed to an oracle method, labelled gold-type routing), score its retrieval, optionally
 * answer and judge it (QA), and collect the rows — retrieval, scores, answer, LLM calls — into one batch that the
 * store writes atomically. A method or QA failure is recorded on its row; the run goes on.
 */
import { withCallScope, type CallScope } from '../core/call-scope.ts';
import { callCostUsd } from '../llm/cost.ts';
import type { ExperimentConfig } from '../core/config.ts';
import { SetupError, errorMessage, isPostponed, tagStage } from '../core/errors.ts';
import { deriveSeed } from '../core/hash.ts';
import type { CallRecord, Checkpoints, Ctx, MemoryIndex, Method } from '../core/interfaces.ts';
import type { LlmProvider } from '../core/llm.ts';
import { renderUnits } from '../core/render.ts';
import {
  reportedType,
  type Instance,
  type MethodOutput,
  type Query,
  type Retrieval,
  type RetrievalNotes,
} from '../core/types.ts';
import { answerQuestion, type PrimaryJudge, type QaRow } from '../eval/qa/answer-question.ts';
import type { BenchmarkQa } from '../core/benchmark.ts';
import type { DatasetFormat } from '../data/source.ts';
import { perHaystack } from '../index/per-haystack.ts';
import type { AnswerVerdictRow, LlmCallRow, QuestionBatch, ScoreRow } from '../store/types.ts';
import type { ConfiguredMethod } from './methods/create-methods.ts';
import type { IndexCache } from './index-cache.ts';
import { methodFailureStage, type FailedStage } from './record/failures.ts';
import { plainCalls, type PaidCallLedger } from './spend/paid-calls.ts';
import { outsideHeadline, scoreRetrieval } from './score.ts';
import { answerErratum, goldAnswer, primaryJudge, type DatasetJudging } from './judging/judging.ts';
import { promptFor } from '../eval/qa/panel.ts';
import { median } from '../core/averages.ts';

export interface QuestionContext {
  config: ExperimentConfig;
  runId: string;
  indexes: IndexCache;
  llm: LlmProvider | undefined;
  /** The dataset's benchmark (its source format). */
  protocol: DatasetFormat;
  /** Its benchmark's QA protocol (src/run/benchmark-registry.ts), when the experiment has `qa`. */
  qa?: BenchmarkQa | undefined;
  /** Durable markers per method id, when the run writes a results file. */
  checkpoints?: ((methodId: string) => Checkpoints) | undefined;
  /** Records paid calls as they return (paid-calls.ts), when the run writes a results file. */
  ledger?: PaidCallLedger | undefined;
  /** The judge panel and gold versions of this dataset (QA runs with a judge). */
  judging?: DatasetJudging | undefined;
}

/**
 * `prepareIndex: true` (plan experiment 5): build the haystack's BM25 and unit embeddings before the first method is
 * timed, so no method's latency carries the index building (memorising) that would otherwise fall on whichever
 * method touches the lazy index first. Once per index (`perHaystack`): questions of the same haystack arriving while
 * it runs wait for it before their clocks start, and a failure is forgotten, so the next question retries. Recorded
 * once, as a call of stage `index:memorise` of the question that ran it; a failure is that method's error row of
 * stage `memorising`.
 */
const prepareIndex = perHaystack(async (index: MemoryIndex, ctx: Ctx): Promise<void> => {
  const t0 = performance.now();
  index.keywordScores('');
  await index.vectors();
  ctx.calls.push({
    stage: 'index:memorise',
    model: index.embedder.id,
    promptTokens: 0,
    completionTokens: 0,
    latencyMs: performance.now() - t0,
    cached: false,
    costUsd: 0,
  });
});

/** Per method, its memory writing memoised per index (`perHaystack`: shared by concurrent questions, a failure
 * forgotten so the next question retries), recorded as one call of stage `memorise` by the question that ran it. */
const memorisers = new WeakMap<Method, (index: MemoryIndex, ctx: Ctx) => Promise<void>>();

/**
 * `prepareIndex: true`, after the index: the method's own memory writing for this haystack (`Method.memorise`: unit
 * text keys, A-MEM notes, the rendered full history), so the question's latency is the method's work from query to
 * answer and no method carries what another built first (the strategies share per-unit keys). Once per method and
 * index; a question sharing the haystack waits for it outside its timing. An error is tagged `memorise` (a
 * memorising failure in the run summary).
 */
async function memoriseFor(method: ConfiguredMethod, index: MemoryIndex, ctx: Ctx): Promise<void> {
  const impl = method.impl;
  if (!impl.memorise) return;
  let memorise = memorisers.get(impl);
  if (!memorise) {
    memorise = perHaystack(async (ix, c) => {
      const t0 = performance.now();
      await impl.memorise!(ix, c);
      c.calls.push({
        stage: 'memorise',
        model: method.id,
        promptTokens: 0,
        completionTokens: 0,
        latencyMs: performance.now() - t0,
        cached: false,
        costUsd: 0,
      });
    });
    memorisers.set(impl, memorise);
  }
  await memorise(index, ctx).catch((err: unknown) => {
    throw tagStage(err, 'memorise');
  });
}

/**
 * `timingRepeats` (plan experiment 5): runs a pure-computation method `repeats − 1` more times on the same question,
 * each timed alone. The question's latency is the median run's, and so are its per-stage times (`stageMs` of the
 * AdaptMR notes), so stages and latency describe the same run; `timingMs` lists every time (the first is
 * `firstMs`). Undefined when there is nothing to repeat. The repeats' outputs and calls are otherwise discarded: the
 * first run's are the question's.
 */
async function timingRepeats(
  method: ConfiguredMethod,
  repeats: number,
  firstMs: number,
  firstNotes: RetrievalNotes | undefined,
  again: () => Promise<MethodOutput>,
): Promise<{ latencyMs: number; notes: RetrievalNotes } | undefined> {
  const c = method.impl.capabilities;
  if (repeats < 2 || (c.llmRoles?.length ?? 0) > 0 || c.memorises || c.answers) return undefined;
  const runs = [{ ms: firstMs, stageMs: firstNotes?.stageMs }];
  for (let i = 1; i < repeats; i++) {
    const t = performance.now();
    const out = await again();
    runs.push({ ms: performance.now() - t, stageMs: out.retrieval.notes?.stageMs });
  }
  const timingMs = runs.map((r) => r.ms);
  const mid = [...runs].sort((a, b) => a.ms - b.ms)[(runs.length - 1) >> 1]!;
  const latencyMs = median(timingMs);
  return { latencyMs, notes: { timingMs, ...(mid.stageMs !== undefined ? { stageMs: mid.stageMs } : {}) } };
}

/** What a method may see of a question: a fresh frozen object with exactly the query fields, never the gold. */
function methodQuery(q: Query): Query {
  return Object.freeze({ id: q.id, text: q.text, askedAt: q.askedAt });
}

export function emptyBatch(instance: Instance, runId: string): QuestionBatch {
  const g = instance.gold;
  return {
    runId,
    question: {
      dataset: instance.dataset,
      questionId: instance.query.id,
      text: instance.query.text,
      askedAt: instance.query.askedAt,
      nativeType: g.nativeType,
      adaptType: reportedType(g),
      isAbstention: g.isAbstention,
      evidenceSessionIds: g.evidenceSessionIds,
      evidenceTurnIds: g.evidenceTurnIds,
      answer: g.answer,
      ...(g.supersededTurnIds
        ? { supersededSessionIds: g.supersededSessionIds ?? [], supersededTurnIds: g.supersededTurnIds }
        : {}),
      haystackSessions: instance.haystack.length,
      haystackTurns: instance.haystack.reduce((n, s) => n + s.turns.length, 0),
      ...(g.evidenceText !== undefined ? { judgeEvidence: g.evidenceText } : {}),
    },
    retrievals: [],
    scores: [],
    answers: [],
    llmCalls: [],
  };
}

/** What one method's run on one question uses: its index, its call records and its context. */
interface MethodRun {
  index: MemoryIndex;
  calls: CallRecord[];
  batchRows: () => LlmCallRow[];
  ctx: Ctx;
  /** Paid requests of shared clients (the embedder) made for this method are accounted to it (core/call-scope.ts). */
  scope: CallScope;
  base: Pick<ScoreRow, 'dataset' | 'questionId' | 'method' | 'granularity'>;
}

function methodRun(instance: Instance, method: ConfiguredMethod, c: QuestionContext): MethodRun {
  const index = c.indexes.get(instance, method.index);
  const key = { dataset: instance.dataset, questionId: instance.query.id, method: method.id };
  const { calls, batchRows } = c.ledger ? c.ledger.open(key) : plainCalls(key);
  const checkpoints = c.checkpoints?.(method.id);
  const ctx: Ctx = {
    seed: deriveSeed(c.config.seed, instance.query.id),
    calls,
    ...(c.llm ? { llm: c.llm } : {}),
    ...(checkpoints ? { checkpoints } : {}),
  };
  const scope: CallScope = { calls, costUsd: (model, p, q) => callCostUsd(c.config.llm?.prices ?? {}, model, p, q) };
  return { index, calls, batchRows, ctx, scope, base: { ...key, granularity: method.index.granularity } };
}

/**
 * Runs `method` on `instance` and appends its rows to `batch`; returns the stage that failed (the method's retrieval,
 * its classifier or memorising, or QA's reader or judge), or undefined when the result is whole.
 */
export async function runMethod(
  instance: Instance,
  method: ConfiguredMethod,
  batch: QuestionBatch,
  c: QuestionContext,
): Promise<FailedStage | undefined> {
  const r = methodRun(instance, method, c);
  let t0 = performance.now();
  let failed: FailedStage | undefined;
  try {
    if (c.config.prepareIndex) {
      await memoriseBeforeTiming(method, r);
      t0 = performance.now();
    }
    failed = await retrieveAndScore(instance, method, batch, c, r, t0);
  } catch (err) {
    // An unusable endpoint or cache folder fails every question alike: stop the run with its one line instead of N
    // error rows. A postponed call (Batch API, budget) is no failure: the caller leaves the method unwritten.
    if (err instanceof SetupError || isPostponed(err)) throw err;
    failed = methodFailureStage(err, r.calls);
    batch.retrievals.push({
      ...r.base,
      k: method.k,
      unitIds: [],
      unitSessionIds: [],
      scores: [],
      noMemory: false,
      context: null,
      latencyMs: performance.now() - t0,
      predictedType: null,
      typeProbs: null,
      route: null,
      notes: null,
      error: errorMessage(err),
    });
  }
  batch.llmCalls!.push(...r.batchRows());
  return failed;
}

/** `prepareIndex: true`: the haystack's index and the method's own memory writing, before its clock starts. */
async function memoriseBeforeTiming(method: ConfiguredMethod, r: MethodRun): Promise<void> {
  await withCallScope(r.scope, () =>
    prepareIndex(r.index, r.ctx).catch((err: unknown) => {
      throw tagStage(err, 'index:memorise');
    }),
  );
  if (method.impl.memorise) await withCallScope(r.scope, () => memoriseFor(method, r.index, r.ctx));
}

/** The method's retrieval (timed from `t0`), its row and retrieval scores, then QA; the stage that failed, if any. */
async function retrieveAndScore(
  instance: Instance,
  method: ConfiguredMethod,
  batch: QuestionBatch,
  c: QuestionContext,
  r: MethodRun,
  t0: number,
): Promise<FailedStage | undefined> {
  const capabilities = method.impl.capabilities;
  const oracleType = capabilities.oracleType ? instance.gold.type : undefined;
  const out = await withCallScope(r.scope, () =>
    method.impl.run(methodQuery(instance.query), r.index, r.ctx, oracleType),
  );
  let latencyMs = performance.now() - t0;
  const timed = await timingRepeats(method, c.config.timingRepeats ?? 1, latencyMs, out.retrieval.notes, () =>
    method.impl.run(methodQuery(instance.query), r.index, { ...r.ctx, calls: [] }, oracleType),
  );
  if (timed) latencyMs = timed.latencyMs;
  const units = out.retrieval.units;
  batch.retrievals.push({
    ...r.base,
    k: method.k,
    unitIds: units.map((u) => u.unit.id),
    unitSessionIds: units.map((u) => u.unit.sessionId),
    scores: units.map((u) => u.score),
    noMemory: out.retrieval.noMemory,
    context: c.config.storeContext || c.config.qa ? out.retrieval.context : null,
    latencyMs,
    predictedType: out.predictedType ?? null,
    typeProbs: out.typeProbs ?? null,
    route: out.route ?? null,
    notes: timed ? { ...(out.retrieval.notes ?? {}), ...timed.notes } : (out.retrieval.notes ?? null),
    error: null,
  });
  // A method without source unit ids, or one that does not rank (the whole history), has no retrieval metrics: no
  // score rows (NULL, "n/a"), never 0 nor the recall of the first k units of a list in date order.
  const ranked = capabilities.output === 'units' && capabilities.ranks !== false;
  if (ranked) {
    for (const s of scoreRetrieval(instance, r.index, out.retrieval, c.config.metrics.ks, c.config.metrics.gold))
      batch.scores.push({ ...r.base, ...s });
  }
  if (c.config.qa && c.llm)
    return answerAndScore(instance, out.retrieval, out.answer, batch, r.base, r.calls, c, ranked);
  return undefined;
}

/** How one question's answers are judged: the protocol, the headline gold answer, the panel's first judge. */
interface QaSetup {
  instance: Instance;
  base: Pick<ScoreRow, 'dataset' | 'questionId' | 'method' | 'granularity'>;
  calls: CallRecord[];
  c: QuestionContext;
  gold: string;
  primary: PrimaryJudge | undefined;
}

/**
 * QA for one method: reader (unless the method answered), judge, F1/BLEU-1. Score rows have level `qa`, k NULL.
 * A question the benchmark's protocol excludes (`BenchmarkQa.excluded`: LoCoMo's adversarial category) is kept but
 * not counted in the averages, and reported separately (docs/design.md §6).
 */
async function answerAndScore(
  instance: Instance,
  retrieval: Retrieval,
  methodAnswer: string | undefined,
  batch: QuestionBatch,
  base: Pick<ScoreRow, 'dataset' | 'questionId' | 'method' | 'granularity'>,
  calls: CallRecord[],
  c: QuestionContext,
  /** The method returns ranked units (read at each `qa.ks` cutoff). */
  ranked: boolean,
): Promise<FailedStage | undefined> {
  // The panel's first judge scores the answer against the headline gold version; the other judges and versions are
  // judged after the questions (src/run/judging/judge-pass.ts).
  const judging = c.judging;
  const first = judging?.panel[0];
  // A benchmark without a panel protocol keeps its own judge (BenchmarkQa.panel); panel prompts apply to the others,
  // and the judging pass asks the other judges on those only.
  const panelProtocol = c.qa!.panel;
  const headline = judging?.headline ?? 'original';
  const gold = goldAnswer(instance, headline, answerErratum(judging, instance));
  const primary =
    judging && first ? primaryJudge(c.config, c.llm!, judging.panel, panelProtocol ?? 'longmemeval') : undefined;
  const setup: QaSetup = { instance, base, calls, c, gold, primary };
  const qa = await answerQuestion(
    { qa: c.qa!, instance, retrieval, ...(methodAnswer !== undefined ? { methodAnswer } : {}), gold },
    c.llm!,
    c.config.qa!,
    calls,
    primary,
  );
  batch.answers!.push({
    dataset: base.dataset,
    questionId: base.questionId,
    method: base.method,
    answer: qa.answer,
    judgeVerdicts: qa.judge ? [qa.judge] : [],
    contextTokens: qa.contextTokens,
    error: qa.error ?? null,
    answerTokens: qa.answer === null ? null : qa.answerTokens,
  });
  if (qa.judge && first) {
    const prompt = panelProtocol ? promptFor(first, panelProtocol) : `${c.protocol} (benchmark judge)`;
    (batch.verdicts ??= []).push(firstJudgeVerdict(base, first, headline, prompt, qa.judge));
  }
  if (qa.error) return qa.failedStage ?? 'reader';
  pushQaScores(batch, setup, qa, null);
  // `qa.ks`: the same retrieval read again at each cutoff (a method that answers itself, returns text, or does not rank
  // its units is read once), judged by the same primary judge against the same gold version.
  const ks = c.config.qa!.ks;
  if (ks && methodAnswer === undefined && ranked) return answerAtCutoffs(batch, setup, retrieval, ks);
  return undefined;
}

/** The panel's first judge's verdict on an answer, as the row the judging pass would write for it. */
function firstJudgeVerdict(
  base: Pick<ScoreRow, 'dataset' | 'questionId' | 'method'>,
  judge: { id: string; model: string },
  gold: AnswerVerdictRow['gold'],
  prompt: string,
  verdict: { correct: boolean[]; raw: string[] },
): AnswerVerdictRow {
  const { dataset, questionId, method } = base;
  return { dataset, questionId, method, probe: '', judge: judge.id, gold, model: judge.model, prompt, ...verdict };
}

/** The retrieval read and judged again at each of `ks` (ascending); the stage that failed first, if any. */
async function answerAtCutoffs(
  batch: QuestionBatch,
  q: QaSetup,
  retrieval: Retrieval,
  ks: readonly number[],
): Promise<FailedStage | undefined> {
  const { c, base } = q;
  batch.cutoffAnswers ??= [];
  for (const k of [...ks].sort((a, b) => a - b)) {
    const cut = await answerQuestion(
      {
        qa: c.qa!,
        instance: q.instance,
        retrieval: cutoffRetrieval(retrieval, k),
        gold: q.gold,
        stages: { reader: `reader:k${k}`, judge: `${q.primary?.stage ?? 'judge'}:k${k}` },
      },
      c.llm!,
      c.config.qa!,
      q.calls,
      q.primary,
    );
    batch.cutoffAnswers.push({
      dataset: base.dataset,
      questionId: base.questionId,
      method: base.method,
      cutoff: k,
      answer: cut.answer,
      judgeVerdicts: cut.judge ? [cut.judge] : [],
      contextTokens: cut.contextTokens,
      error: cut.error ?? null,
    });
    if (cut.error) return cut.failedStage ?? 'reader';
    pushQaScores(batch, q, cut, k);
  }
  return undefined;
}

/** The `qa` score rows of one answer (k: its cutoff, or null for the method's own reading). */
function pushQaScores(batch: QuestionBatch, q: QaSetup, row: QaRow, k: number | null): void {
  const excluded = q.c.qa!.excluded(q.instance.gold.nativeType);
  const outside = outsideHeadline(q.instance);
  const flag = { counted: excluded === null && outside === null, excludedWhy: excluded ?? outside };
  const push = (metric: string, value: number) =>
    batch.scores.push({ ...q.base, level: 'qa', metric, k, value, ...flag });
  if (row.judge?.scores && row.judge.scores.length > 0) {
    // A graded judge (a rubric's items, LoCoMo-Plus's points): the mean score over judge runs.
    push('accuracy', row.judge.scores.reduce((a, b) => a + b, 0) / row.judge.scores.length);
  } else if (row.judge && row.judge.correct.length > 0) {
    push('accuracy', row.judge.correct.filter(Boolean).length / row.judge.correct.length);
  }
  for (const [metric, value] of Object.entries(row.metrics ?? {})) push(metric, value);
  if (row.f1 !== undefined) push('f1', row.f1);
  if (row.bleu1 !== undefined) push('bleu1', row.bleu1);
}

/**
 * The top `k` units of a retrieval as the reader sees them at a cutoff: rendered by the renderer every baseline shares
 * (src/core/render.ts), so all cutoffs of all methods are read alike (a strategy's own annotations and ordering are
 * part of the method's own answer only).
 */
function cutoffRetrieval(retrieval: Retrieval, k: number): Retrieval {
  const units = retrieval.units.slice(0, k);
  return { units, noMemory: retrieval.noMemory, context: renderUnits(units) };
}
