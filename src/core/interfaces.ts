/**
 * The interfaces components implement (docs/design.md §5): embedders, the memory index a method searches, the context
 * a method runs in, methods and their declared capabilities, strategies, and classifiers. Implementations live in one
 * folder per concern (src/index, src/strategies, src/classify, baselines…); every implementation runs its interface's
 * conformance suite.
 */
import type { CallRecord } from './calls.ts';
import type { IndexSpec } from './index-spec.ts';
import type { LlmProvider, LlmRole } from './llm.ts';
import type { AdaptType, MemoryUnit, MethodOutput, Query, Retrieval, RetrievalNotes, ScoredUnit } from './types.ts';

export type { CallRecord } from './calls.ts';
export type { IndexSpec } from './index-spec.ts';

/** Turns texts into vectors. `id` names model + settings, and keys the embedding cache. */
export interface Embedder {
  readonly id: string;
  readonly dim: number;
  /** Unit-length vectors (so a dot product is the cosine), one per text, in order. */
  embed(texts: string[]): Promise<Float32Array[]>;
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

/**
 * Durable markers in the results file, for work a method must not repeat after a kill (e.g. one marker per memory
 * server namespace and ingestion batch). Keys are namespaced by the runner per run and method.
 */
export interface Checkpoints {
  has(key: string): Promise<boolean>;
  get(key: string): Promise<string | undefined>;
  put(key: string, value: string): Promise<void>;
}

/** What a method gets besides the query and the index. Never the gold. */
export interface Ctx {
  /** Seed for any randomness, derived per question so results do not depend on scheduling. */
  seed: number;
  /** Collects the LLM/embedding/HTTP calls made while answering this question. */
  calls: CallRecord[];
  /** LLM clients by role, when the experiment configures any; offline methods never touch it. */
  llm?: LlmProvider;
  /** Durable markers of this run and method (present when the runner writes a results file). */
  checkpoints?: Checkpoints;
}

/**
 * What a method declares about itself. The runner reads these once and fails before any work when the experiment
 * cannot satisfy them (a missing LLM role, retrieval metrics asked of a method that returns no unit ids).
 */
export interface MethodCapabilities {
  /**
   * `units`: ranked memory units with source unit ids, so retrieval metrics are computed. `text`: memories without
   * provenance (Mem0); retrieval metrics are NULL ("n/a"), never 0, and the method is judged by its answers.
   */
  output: 'units' | 'text';
  /**
   * `false`: the units are the whole history in date order, not a ranking (full context). Retrieval metrics are then
   * n/a — no score rows, as for `text` —, never the recall of whichever units happen to come first; and `qa.ks` reads
   * such a method once, not at each cutoff (the top `c` of its units mean nothing).
   */
  ranks?: boolean;
  /**
   * The one labelled exception to "methods never see gold" (docs/design.md §3): an oracle router declares it, and the
   * runner then passes the gold AdaptMR type as `oracleType`. Results of such a method are gold-type routing, a reference that saw gold.
   */
  oracleType?: boolean;
  /** LLM roles the method calls; each must be configured in the experiment's `llm.roles`. */
  llmRoles?: readonly LlmRole[];
  /** The method answers by itself (the reader is not called; the judge still is). */
  answers?: boolean;
  /** Work done once per haystack before its questions (ingestion, notes, reflections); stages `index:*`/`ingest`. */
  memorises?: boolean;
  /**
   * Why the method runs in a degraded mode (an offline stand-in for one of its LLM steps), e.g. `offline`.
   * Stored with the run and shown next to the method in every report.
   */
  degraded?: string;
}

/**
 * Anything that turns a question into retrieved context and/or an answer: AdaptMR variants and every baseline.
 * Identity (id, registry name, index spec, k) belongs to the runner's method config; a Method is behaviour plus its
 * declared capabilities. Errors thrown by `run` become data on the question's row.
 */
export interface Method {
  readonly capabilities: MethodCapabilities;
  /**
   * Questions this method was fitted on (calibration split, classifier training data). The runner leaves them
   * out of the evaluation for every method of the run, so all methods are compared on the same held-out questions.
   */
  readonly excludedQuestionIds?: ReadonlySet<string>;
  run(query: Query, index: MemoryIndex, ctx: Ctx, oracleType?: AdaptType): Promise<MethodOutput>;
  /**
   * Memory writing: the work the method does from the memories alone, before any question about them (per-unit
   * text keys, A-MEM notes, a memory server's ingestion, the rendered full history). Optional and idempotent per
   * index: `run` does the same work lazily when it was not called, so calling it never changes what `run` returns
   * (methods-conformance.test.ts). The runner calls it before timing a question when `prepareIndex` is on (plan
   * experiment 5 times a question from query to answer), and records it as stage `memorise`.
   */
  memorise?(index: MemoryIndex, ctx: Ctx): Promise<void>;
  /** Called once when the run ends (delete server-side namespaces, close connections). */
  close?(): Promise<void>;
  /**
   * Checks the services the method calls besides the experiment's LLMs (a memory server): reachable, key accepted.
   * `adaptmr doctor` prints the result; a run never calls it (a finished run must rerun from caches with no server).
   */
  checkEndpoints?(): Promise<EndpointCheck[]>;
}

/** One service an experiment depends on, as `adaptmr doctor` reports it. */
export interface EndpointCheck {
  /** What uses it: `llm reader`, `embedder`, `method mem0-oss (mem0:oss)`. */
  user: string;
  url: string;
  ok: boolean;
  /** `HTTP 200`, or what to check (one line, no secrets). */
  detail: string;
}

/** What a method factory receives besides its own (parsed) options. Never gold. */
export interface MethodFactoryContext {
  /** The method's id in the experiment (labels, namespaces). */
  id: string;
  index: IndexSpec;
  /** Units returned (the retrieval budget), the same for every compared method. */
  k: number;
  seed: number;
  /** Stable per config (a prefix of the run's config hash): namespaces server-side state so runs never mix. */
  runKey: string;
  /** LLM roles the experiment configures; a method with optional LLM steps picks its mode from these. */
  llmRoles: readonly LlmRole[];
  /** The replicate number (1…n) of a method run with `replicates: n` (src/run/config/replicates.ts); absent otherwise. */
  replicate?: number;
}

/** A question classifier (src/classify). Probabilities are finite and sum to 1. */
export interface Classifier {
  readonly name: string;
  /** Calls an LLM (role `classifier`) per question. */
  readonly usesLlm?: boolean;
  /** Questions the classifier was fitted or calibrated on; a method using it leaves them out of evaluation. */
  readonly excludedQuestionIds?: ReadonlySet<string>;
  /** The single router's fallback threshold fitted on the classifier's training benchmarks (router `fallback: model`). */
  readonly fallbackThreshold?: number;
  classify(query: Query, ctx: Ctx): Promise<{ type: AdaptType; probs: Record<AdaptType, number> }>;
}

/**
 * One type-specific retrieval procedure (docs/design.md §5, plan §2.3). A strategy sees only the query, the memory index
 * and the context — never the gold — and returns ranked units plus the exact text a reader would be given
 * (`Retrieval.context`) and its notes (window found, events split, clusters merged, hops, abstention decision).
 *
 * Order: `Retrieval.units` is always best first with non-increasing scores, so retrieval metrics at every k read the
 * list the same way for every strategy. Where the plan presents units in another order (temporal: chronological),
 * that order is applied to the rendered `context`, not to `units`; `notes.contextOrder` says which order was used.
 */
export interface Strategy {
  readonly name: string;
  /** `llm` strategies call `ctx.llm` (role `strategy`); `offline` ones never touch it. */
  readonly mode: 'llm' | 'offline';
  retrieve(query: Query, index: MemoryIndex, k: number, ctx: Ctx): Promise<Retrieval>;
  /** Memory writing for this strategy (its per-unit text keys), as `Method.memorise`: never changes `retrieve`. */
  memorise?(index: MemoryIndex): void;
}

/** Per-unit extras a strategy wants shown next to a unit (update annotations) and trailing text (multi-hop
 * reasoning). Kept in `notes` as well so a fusion router can re-render fused lists with them. */
export type RenderExtras = Pick<RetrievalNotes, 'annotations' | 'trailer'>;
