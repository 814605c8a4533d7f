/**
 * The contract of a benchmark: what one folder under benchmarks/ gives the harness (docs/architecture.md "Registries
 * and contracts"). A benchmark names its datasets (a config's `datasets[].name`), where each lives in a data
 * directory, how its records become `Instance`s, how its native question types map to the five AdaptMR types
 * (plan §2.2), and its QA protocol: how an answer is read, scored and judged, which questions are kept out of the
 * headline, and its judge prompts. The registry of benchmarks is src/run/benchmark-registry.ts; every entry runs the
 * benchmark conformance suite on its committed fixture.
 */
import type { CallRecord } from './interfaces.ts';
import type { JudgeResult } from './judge.ts';
import type { LlmClient, LlmProvider } from './llm.ts';
import type { JudgePromptKind, QaConfig } from './qa-config.ts';
import type { AdaptType, ExtraTypeLabel, Instance, Retrieval } from './types.ts';

/** One dataset of a benchmark, as a config names it. */
export interface BenchmarkDataset {
  name: string;
  /** Where it lives in a data directory, tried in order (the upstream file first, then a folder per question). */
  layouts: readonly { rel: string; kind: 'file' | 'folder' }[];
}

/** An AdaptMR type for a native type; `reportAs` when none of the five fits (reported apart, never in a headline). */
export interface MappedType {
  type: AdaptType;
  reportAs?: ExtraTypeLabel;
}

/** One answer to score, with the gold the protocol needs. */
export interface AnswerToScore {
  /** The benchmark's protocol id (`BenchmarkQa.protocol`). */
  protocol: string;
  questionId: string;
  nativeType: string;
  question: string;
  /** Gold answer (or rubric / explanation, per protocol). */
  gold: string;
  hypothesis: string;
  /** Rubric items, where the protocol judges against a rubric. */
  rubric?: readonly string[];
  /** The correct letter, when the question was asked as multiple choice (scored exactly, no judge). */
  correctChoice?: string;
  /** The cue a judge checks the reply against, where the protocol has no reference answer. */
  evidenceText?: string;
}

export interface AnswerScores {
  judge?: JudgeResult;
  /** Token F1 (with the protocol's category rules). */
  f1?: number;
  /** BLEU-1. */
  bleu1?: number;
  /** Further per-question metrics the protocol defines (exact `accuracy`, `event_order`, `kendall_tau_b`, …). */
  metrics?: Record<string, number>;
}

export interface ScoreOptions {
  calls: CallRecord[];
  /** Judge runs per question (default 1). */
  repeats?: number;
  /** Judge the questions the protocol leaves unjudged by default (LoCoMo's adversarial category). */
  judgeAdversarial?: boolean;
  /** The judge's prompt where the protocol accepts a panel prompt (default: its official one). */
  prompt?: JudgePromptKind | undefined;
  /** Call-record stage of the judge calls (default `judge`). */
  stage?: string;
}

/** What a protocol's own reader gets: the question, what the method retrieved (or answered), the reader settings. */
export interface ReadInput {
  instance: Instance;
  retrieval: Retrieval;
  /** The method's own answer, when it gave one (a protocol may still need to record how the question was asked). */
  methodAnswer?: string | undefined;
  config: QaConfig;
  llm: LlmProvider;
  calls: CallRecord[];
}

/** A protocol's own reading: the answer, the tokens the reader saw (when not the retrieval's context), scoring extras. */
export interface ProtocolRead {
  answer: string;
  contextTokens?: number;
  score?: Pick<AnswerToScore, 'correctChoice'>;
}

/** How a benchmark's answers are read, scored and judged. */
export interface BenchmarkQa {
  /** Stored with runs and used by reports (`longmemeval`, `locomo`, …). */
  protocol: string;
  /** The panel protocol its answers may be judged under with any panel prompt; undefined: its own judge only. */
  panel?: 'longmemeval' | 'locomo';
  /** The judge prompts the benchmark defines, each `name — source` (owner/repo@commit path). */
  judgePrompts: readonly string[];
  /** Why a question of this native type is kept out of the headline (reported apart), or null. */
  excluded(nativeType: string): string | null;
  /** The protocol's own reader; undefined (or returning undefined): the harness's reader (src/eval/qa/reader.ts). */
  read?(input: ReadInput): Promise<ProtocolRead | undefined>;
  /** Scores one answer; LLM failures propagate (the caller records them on the question's row). */
  score(input: AnswerToScore, judge: LlmClient | undefined, options: ScoreOptions): Promise<AnswerScores>;
  /**
   * The judge reads evidence besides the gold answer (`AnswerToScore.evidenceText`, stored as
   * `questions.judge_evidence`): a results file without it cannot be judged again.
   */
  judgeNeedsEvidence?: boolean;
  /** How leniency probes are made for a benchmark with its own judge (docs/qa-and-judges.md); default: from the gold answer, every rule. */
  probes?: ProbeMaking;
}

/** What a benchmark's leniency probes are made against (src/eval/qa/probes/rules.ts). */
export interface ProbeMaking {
  /** The text a known-wrong answer is made against, from the stored gold; '' when none can be. */
  goldOf(q: { answer: string; judgeEvidence?: string | null | undefined }): string;
  /** `neighbour`: only another question's gold is a specific-wrong answer (editing a value of the gold is not wrong). */
  specific?: 'all' | 'neighbour';
}

/** The committed fixture the conformance suite runs: a few items the project wrote itself, in the upstream format. */
export interface BenchmarkFixture {
  /** Path relative to the benchmark's folder. */
  path: string;
  kind: 'file' | 'folder';
  /** A second file the items are stitched into (relative to the benchmark's folder), where the benchmark needs one. */
  companion?: string;
  /** What a judge of the protocol replies to a right and to a wrong answer (the conformance suite's loopback judge). */
  judgeReplies?: { right: string; wrong: string };
  /**
   * A malformed item: the fixture's file `file` (relative to `path`; '' for a single-file fixture) replaced by `text`
   * must fail with a one-line error naming the file and `item`.
   */
  malformed: { file: string; text: string; item: string };
}

export interface Benchmark {
  /** The benchmark's name: its folder under benchmarks/ and the source format of its datasets. */
  name: string;
  description: string;
  datasets: readonly BenchmarkDataset[];
  /** Native type → AdaptMR type; undefined for a native type the benchmark does not define. */
  mapType(nativeType: string, questionId: string): MappedType | undefined;
  qa: BenchmarkQa;
  fixture: BenchmarkFixture;
}

/** Declares a benchmark (frozen: the registry hands the same object to every caller). */
export function defineBenchmark(b: Benchmark): Benchmark {
  return Object.freeze({ ...b, qa: Object.freeze({ ...b.qa }) });
}
