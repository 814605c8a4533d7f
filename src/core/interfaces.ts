/**
 * The interfaces components implement (DESIGN.md §5): embedders, the memory index a method searches, the context
 * a method runs in, and methods themselves. Implementations live in one folder per concern (src/index, baselines…).
 */
import type { LlmProvider } from './llm.ts';
import type { AdaptType, Granularity, MemoryUnit, MethodOutput, Query, Role, ScoredUnit } from './types.ts';

/** Turns texts into vectors. `id` names model + settings, and keys the embedding cache. */
export interface Embedder {
  readonly id: string;
  readonly dim: number;
  /** Unit-length vectors (so a dot product is the cosine), one per text, in order. */
  embed(texts: string[]): Promise<Float32Array[]>;
}

/** How a haystack is cut into memory units; methods with equal specs share one index per haystack. */
export interface IndexSpec {
  granularity: Granularity;
  /** Which roles' turns are indexed (the official LongMemEval retrieval indexes user turns only). */
  roles: Role[];
  /** LoCoMo image turns: append the BLIP caption to the turn text. */
  includeCaptions: boolean;
  /** Keep units with empty text (the official LongMemEval index does). Default false. */
  keepEmpty?: boolean;
  /** Prefix each turn's text with `<speaker>: ` where the dataset names speakers (LoCoMo); off by default so the
   * official LongMemEval index is untouched. Absent means false. */
  speakerPrefix?: boolean;
}

/** The searchable memory of one haystack. Built lazily: BM25 and embeddings are computed on first use. */
export interface MemoryIndex {
  readonly spec: IndexSpec;
  readonly units: readonly MemoryUnit[];
  readonly embedder: Embedder;
  unit(id: string): MemoryUnit | undefined;
  /** Okapi BM25 top-k, best first; units scoring 0 are left out. */
  keyword(text: string, k: number): ScoredUnit[];
  /** BM25 score of every unit, aligned with `units`. */
  keywordScores(text: string): Float64Array;
  /** Cosine top-k, best first. */
  semantic(text: string, k: number): Promise<ScoredUnit[]>;
  /** Cosine of the text against every unit, aligned with `units`. */
  semanticScores(text: string): Promise<Float32Array>;
  /** Unit vectors aligned with `units` (for clustering, MMR…). */
  vectors(): Promise<readonly Float32Array[]>;
}

/** Per-call accounting record; the LLM layer (src/llm) fills these for every call a method makes. */
export interface CallRecord {
  stage: string;
  model: string;
  promptTokens: number;
  completionTokens: number;
  latencyMs: number;
  cached: boolean;
  costUsd: number;
  error?: string;
}

/** What a method gets besides the query and the index. Never the gold. */
export interface Ctx {
  /** Seed for any randomness, derived per question so results do not depend on scheduling. */
  seed: number;
  /** Collects the LLM/embedding calls made while answering this question. */
  calls: CallRecord[];
  /** LLM clients by role, when the experiment configures any; offline methods never touch it. */
  llm?: LlmProvider;
}

/** Anything that turns a question into retrieved context and/or an answer: AdaptMR variants and every baseline. */
export interface Method {
  readonly name: string;
  readonly index: IndexSpec;
  /**
   * The one labelled exception to "methods never see gold" (DESIGN.md §3): an oracle router declares it, and the
   * runner then passes the gold AdaptMR type as `oracleType`. Results of such a method are an upper bound.
   */
  readonly needsOracleType?: boolean;
  /**
   * Questions this method was fitted on (calibration split, classifier training data). The runner leaves them
   * out of the evaluation for every method of the run, so all methods are compared on the same held-out questions.
   */
  readonly excludedQuestionIds?: ReadonlySet<string>;
  run(query: Query, index: MemoryIndex, ctx: Ctx, oracleType?: AdaptType): Promise<MethodOutput>;
}

/** A question classifier (src/classify). */
export interface Classifier {
  readonly name: string;
  classify(query: Query, ctx: Ctx): Promise<{ type: AdaptType; probs: Record<AdaptType, number> }>;
}
