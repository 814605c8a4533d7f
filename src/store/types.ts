/**
 * Row types of the results store and the ResultStore interface the runner, the report and notebooks code against.
 * Field names are camelCase here and snake_case in DuckDB (schema.ts).
 */
import type { CallRecord } from '../core/interfaces.ts';
import type { RetrievalNotes } from '../core/types.ts';
import type { ComparisonRow, ScoreCiRow } from '../eval/stats/results/index.ts';
import type { FindingRow, VerdictRow } from '../eval/verdicts/index.ts';
import type { EvalResult } from './classifier-eval-types.ts';
import type { JudgeAgreementRow, JudgeComparisonRow } from '../eval/qa/agreement/index.ts';

/** `stopped`: ended early by its LLM budget (llm.budgetUsd), to be resumed. */
export type RunStatus = 'running' | 'done' | 'failed' | 'stopped';

/** One experiment run with its provenance (docs/design.md §3: config + hash, git, packages, data hashes, seed, times). */
export interface RunRecord {
  runId: string;
  name: string;
  configJson: string;
  configHash: string;
  gitCommit: string | null;
  gitDirty: boolean | null;
  packageVersions: Record<string, string>;
  datasetHashes: Record<string, unknown>;
  seed: number;
  startedAt: string;
  endedAt?: string;
  status: RunStatus;
}

/** The gold of one question; written once per run + question (rewriting it for another method is a no-op). */
export interface QuestionRow {
  dataset: string;
  questionId: string;
  text: string;
  askedAt: string;
  /** The dataset's own label verbatim (LoCoMo category number as a string). */
  nativeType: string;
  adaptType: string;
  isAbstention: boolean;
  evidenceSessionIds: string[];
  evidenceTurnIds: string[];
  answer: string;
  /** Evidence of a replaced value (src/data/supersession.ts); absent when the dataset marks none. */
  supersededSessionIds?: string[];
  supersededTurnIds?: string[];
  /** The haystack's size at each retrieval level: its sessions and its turns (schema 5; absent = not recorded). */
  haystackSessions?: number;
  haystackTurns?: number;
  /** What a benchmark's judge reads besides the gold answer (LoCoMo-Plus's cue; schema 6); absent where it has none. */
  judgeEvidence?: string;
}

export interface RetrievalRow {
  dataset: string;
  questionId: string;
  method: string;
  granularity: string;
  /** The method's retrieval budget (NULL in files written before schema version 2). */
  k?: number | null;
  unitIds: string[];
  unitSessionIds: string[];
  scores: number[];
  noMemory: boolean;
  context: string | null;
  latencyMs: number;
  predictedType: string | null;
  typeProbs: Record<string, number> | null;
  route: string | null;
  /** The retrieval's notes as the `notes` JSON (its keys at the top level), or null. */
  notes: RetrievalNotes | null;
  error: string | null;
}

export type ScoreLevel = 'session' | 'turn' | 'qa';

export interface ScoreRow {
  dataset: string;
  questionId: string;
  method: string;
  granularity: string;
  level: ScoreLevel;
  /** Never embeds k (`recall_any`, not `recall_any@5`). */
  metric: string;
  /** NULL for QA metrics. */
  k: number | null;
  value: number;
  /** false = kept for inspection, excluded from official averages. */
  counted: boolean;
  excludedWhy: string | null;
}

/** A reader answer and its judge verdicts. */
export interface AnswerRow {
  dataset: string;
  questionId: string;
  method: string;
  answer: string | null;
  /** Stored as JSON text: one entry per judge call (model, verdict, raw reply…). */
  judgeVerdicts: unknown[];
  contextTokens: number | null;
  error: string | null;
  /** o200k tokens of `answer` (null when there is none). */
  answerTokens?: number | null;
}

/**
 * One judge's verdict on one answer against one gold version (table `answer_verdicts`, schema.ts). A probe answer (a
 * known-wrong answer, `probe_answers`) has `method` '' and `probe` its kind; a method's own answer has `probe` ''.
 */
export interface AnswerVerdictRow {
  dataset: string;
  questionId: string;
  method: string;
  probe: string;
  /** The judge's id in the panel. */
  judge: string;
  /** The gold version judged against: `original`, or `errata` (LoCoMo). */
  gold: string;
  model: string;
  /** The prompt kind (`longmemeval`, `locomo`, `strict`). */
  prompt: string;
  /** One entry per judge repeat. */
  correct: boolean[];
  raw: string[];
}

/** A known-wrong answer judged alongside the real ones (leniency probe). */
export interface ProbeAnswerRow {
  dataset: string;
  questionId: string;
  /** `specific` (a plausible wrong value of the right kind) or `vague` (on topic, no answer). */
  probe: string;
  /** Which rule made it, or which file it was imported from. */
  source: string;
  answer: string;
}

/** A question's gold answer under one version, where the versions differ. */
export interface GoldVersionRow {
  dataset: string;
  questionId: string;
  version: string;
  answer: string;
  /** Why the version differs (the erratum's error type). */
  note: string | null;
}

/** The reader's answer over the top `cutoff` units of a method's retrieval (`qa.ks`), and its judge verdicts. */
export interface CutoffAnswerRow extends AnswerRow {
  cutoff: number;
}

/** One LLM/embedding call, attributed to a question and method. */
export interface LlmCallRow extends CallRecord {
  dataset: string;
  questionId: string;
  method: string;
}

/** Everything one question produced, written atomically. */
export interface QuestionBatch {
  runId: string;
  question: QuestionRow;
  retrievals: RetrievalRow[];
  scores: ScoreRow[];
  answers?: AnswerRow[];
  /** Judge verdicts on this question's answers (and probe answers). */
  verdicts?: AnswerVerdictRow[];
  /** The question's gold under each version where they differ; written once per run and question, as the gold. */
  goldVersions?: GoldVersionRow[];
  /** Answers at the `qa.ks` cutoffs (schema version 3). */
  cutoffAnswers?: CutoffAnswerRow[];
  llmCalls?: LlmCallRow[];
  /**
   * Methods whose earlier rows for this question (error rows of a previous attempt) this batch replaces: they are
   * deleted from retrievals, scores and answers in the transaction that writes the new ones.
   */
  replaces?: string[];
}

/** A method of a run: its identity from the config and the capabilities it declared. */
export interface MethodRow {
  method: string;
  kind: string;
  granularity: string;
  k: number;
  /** `units` (retrieval metrics computed) or `text` (no source ids: retrieval metrics n/a). */
  output: 'units' | 'text';
  /** Oracle methods: gold-type routing (they saw the gold type). */
  upperBound: boolean;
  /** Why the method ran degraded (an offline stand-in for an LLM step), or null. */
  degraded: string | null;
  capabilities: Record<string, unknown>;
}

/** Plain JS values a query parameter may take. */
export type QueryParam = string | number | boolean | bigint | null;

/**
 * Where a run's question rows go: the results file itself, or — for a run that starts a new results file — its row
 * spool (spool.ts), folded into the file when the run ends.
 */
export interface QuestionSink {
  /** The results file. */
  readonly path: string;
  /**
   * All rows of one question, durable when this resolves (group-committed with the questions queued meanwhile); an
   * error (naming the question) leaves none of them.
   */
  writeQuestion(batch: QuestionBatch): Promise<void>;
  /** Commits the questions queued so far now, without waiting for more (the producers are done). */
  commitQueued(): void;
}

export interface ResultStore extends QuestionSink {
  readonly readOnly: boolean;
  /** Inserts the run, or updates `endedAt`/`status` of an existing one (other fields are fixed at start). */
  upsertRun(run: RunRecord): Promise<void>;
  /** Records the run's methods (replacing rows of the same run and method). */
  upsertMethods(runId: string, methods: readonly MethodRow[]): Promise<void>;
  /** Durable markers of one run and method (each `put` commits on its own). */
  getCheckpoint(runId: string, method: string, key: string): Promise<string | undefined>;
  putCheckpoint(runId: string, method: string, key: string, value: string): Promise<void>;
  /** Classifier evaluations (classifier_* tables), one transaction each. */
  writeClassifierEvals(results: readonly EvalResult[]): Promise<void>;
  /**
   * `${dataset}\t${questionId}\t${method}` of every retrieval already written for the run; with `retryErrors`, only
   * those whose retrieval and answer rows hold no error (the others are to be computed again).
   */
  completedKeys(runId: string, opts?: { retryErrors?: boolean }): Promise<Set<string>>;
  /** The keys (as `completedKeys`) whose retrieval or answer row holds an error. */
  failedKeys(runId: string): Promise<Set<string>>;
  /** Written in one transaction per group of questions; rolls back and rethrows (naming the question) on any error. */
  writeQuestion(batch: QuestionBatch): Promise<void>;
  /**
   * Judging rows added to questions already written (judge panels, re-judging, leniency probes): probe answers,
   * verdicts and the calls that made them, in one transaction. The rows must be new (the judging pass writes only
   * what is missing); a key already present fails the transaction, which then writes nothing.
   */
  writeJudging(runId: string, rows: JudgingRows): Promise<void>;
  /**
   * Appends llm_calls rows in a transaction of their own, committed before it resolves: the runner records each paid
   * call this way as it returns (durable accounting), apart from the question's other rows. `checkpoint`, when given,
   * is upserted in the same transaction (a folded batch's "rows written" mark).
   */
  writeCalls(
    runId: string,
    calls: readonly LlmCallRow[],
    checkpoint?: { scope: string; key: string; value: string },
  ): Promise<void>;
  /** Rows as plain objects; BIGINT values that fit are returned as numbers, lists as arrays. */
  query<T = Record<string, unknown>>(sql: string, params?: readonly QueryParam[]): Promise<T[]>;
  /** Replaces the statistics tables (score_cis, comparisons) and records the input fingerprint, in one transaction. */
  replaceStats(stats: StatsTables): Promise<void>;
  close(): Promise<void>;
}

/** What `writeJudging` writes. */
export interface JudgingRows {
  verdicts: readonly AnswerVerdictRow[];
  probeAnswers?: readonly ProbeAnswerRow[];
  llmCalls?: readonly LlmCallRow[];
}

/** The key `completedKeys` returns, built the same way by the runner. */
export function completedKey(dataset: string, questionId: string, method: string): string {
  return `${dataset}\t${questionId}\t${method}`;
}

/** Everything `replaceStats` writes: derived rows and the fingerprint of the rows they were computed from. */
export interface StatsTables {
  scoreCis: readonly ScoreCiRow[];
  comparisons: readonly ComparisonRow[];
  judgeAgreement?: readonly JudgeAgreementRow[];
  judgeComparisons?: readonly JudgeComparisonRow[];
  verdicts: readonly VerdictRow[];
  /** What the verdicts show (src/eval/verdicts/findings.ts). */
  findings?: readonly FindingRow[];
  fingerprint: string;
}
