/**
 * The shared data model of the harness (docs/design.md §2 and §5): normalised instances, the gold kept apart from
 * what methods see, memory units, retrieval results and method outputs. Imports nothing else in src.
 */
import { z } from 'zod';

/** AdaptMR types T1–T5 (plan §2.2). */
export const ADAPT_TYPES = ['factual', 'temporal', 'update', 'multi-hop', 'abstention'] as const;
export const AdaptTypeSchema = z.enum(ADAPT_TYPES);
export type AdaptType = z.infer<typeof AdaptTypeSchema>;

export const GRANULARITIES = ['turn', 'round', 'session'] as const;
export const GranularitySchema = z.enum(GRANULARITIES);
/** What a method indexes: one turn, one round (a user turn and the replies that follow it), or a whole session. */
export type Granularity = z.infer<typeof GranularitySchema>;

export type Role = 'user' | 'assistant';

/** One utterance of a haystack. Ids are stable across runs: `<sessionId>#<1-based index>` unless the dataset has its own. */
export interface Turn {
  id: string;
  sessionId: string;
  /** 0-based position inside its session. */
  index: number;
  role: Role;
  /** Speaker name where the dataset has one (LoCoMo); LongMemEval has only roles. */
  speaker?: string;
  text: string;
  /** Caption of an image shared in the turn (LoCoMo `blip_caption`); the index may append it to `text`. */
  caption?: string;
  /** ISO 8601 time of the turn (the session's time; datasets give no per-turn times). */
  at: string;
}

export interface Session {
  id: string;
  /** ISO 8601, no zone designator ambiguity: datasets give local wall-clock times, stored as `…Z` to compare them. */
  at: string;
  turns: Turn[];
}

/** What a method may see of a question. */
export interface Query {
  id: string;
  text: string;
  /** ISO 8601 time the question is asked at. */
  askedAt: string;
  /**
   * Multiple-choice options shown with the question (letter → text). Only the reader sees them: a method gets the
   * question's id, text and time alone (src/run/question.ts `methodQuery`), as the benchmark's own retrieval does.
   */
  choices?: Readonly<Record<string, string>>;
}

/**
 * Labels a question is reported under when none of the five types fits (docs/datasets.md §4.5): `cognitive` is
 * LoCoMo-Plus's own type (implicit recall of a cue; counted, its own column); `outside` marks native types that are
 * not questions about the memory (a new task judged for compliance, a summary of the whole history), which are kept
 * out of every per-type and overall average and reported by their native type only.
 */
export const EXTRA_TYPE_LABELS = ['cognitive', 'outside'] as const;
export type ExtraTypeLabel = (typeof EXTRA_TYPE_LABELS)[number];

/** Labels that methods must never see (docs/design.md §3); only the runner, metrics and the oracle read them. */
export interface Gold {
  /** The dataset's own label, verbatim (`multi-session`, `2`, …). */
  nativeType: string;
  type: AdaptType;
  isAbstention: boolean;
  evidenceSessionIds: string[];
  evidenceTurnIds: string[];
  /**
   * Evidence of an older value the dataset marks as replaced (a knowledge update naming its old value; LongMemEval
   * knowledge update: the evidence sessions before the last one holding the answer). Sessions listed here hold only
   * superseded evidence. Read by the stale-evidence metric (`stale_above`); absent when the dataset marks none.
   */
  supersededSessionIds?: string[];
  supersededTurnIds?: string[];
  answer: string;
  /** LoCoMo category-5 adversarial answer, when present. */
  adversarialAnswer?: string;
  /**
   * Set when the question fits none of the five types: the label written as its type in the results (see
   * `EXTRA_TYPE_LABELS`). `type` then holds the nearest type, which only the oracle router reads (documented per
   * dataset in docs/datasets.md); classifier accuracy leaves such questions out.
   */
  reportAs?: ExtraTypeLabel;
  /** The rubric items the answer is judged against, one judge call each, where the benchmark judges by rubric (the scored gold). */
  rubric?: string[];
  /** The letter of the correct choice, where the question has choices (`Query.choices`). */
  correctChoice?: string;
  /** LoCoMo-Plus: the cue as its judge reads it (`Speaker：text` lines); there is no reference answer. */
  evidenceText?: string;
}

/** The type a question is reported under: its extra label when it has one, else its AdaptMR type. */
export function reportedType(gold: Pick<Gold, 'type' | 'reportAs'>): string {
  return gold.reportAs ?? gold.type;
}

export interface Instance {
  /** Dataset name (`longmemeval-s`, `locomo`, or a user-given name). */
  dataset: string;
  query: Query;
  /** Questions sharing a haystack share this id (LoCoMo: the conversation), so an index is built once per haystack. */
  haystackId: string;
  haystack: Session[];
  gold: Gold;
}

/** A retrievable piece of memory built from one or more turns (docs/design.md §5). */
export interface MemoryUnit {
  id: string;
  sessionId: string;
  turnIds: string[];
  role: Role | 'mixed';
  speaker?: string;
  text: string;
  at: string;
}

export interface ScoredUnit {
  unit: MemoryUnit;
  score: number;
}

export interface Retrieval {
  /** Ranked best first. */
  units: ScoredUnit[];
  /** The method says the memory holds nothing relevant (abstention). */
  noMemory: boolean;
  /** The exact text a reader would be given. */
  context: string;
  /** What the method records about this retrieval (stored as the row's `notes` JSON). */
  notes?: RetrievalNotes;
}

/**
 * What a retrieval records beside its units, stored as is in the `retrievals.notes` JSON object (these keys at its
 * top level, so stored files read the same). The keys the harness itself reads or writes are typed here; a method's
 * other diagnostics (a window found, events, hops, truncation…, shown by `adaptmr explain`, read back by nothing)
 * sit beside them under their own keys.
 */
export interface RetrievalNotes {
  /** Text shown next to a unit in the context (unit id → text: the update strategy's "superseded on …"); a fusion router re-renders the fused list with them. */
  annotations?: Record<string, string>;
  /** Text after the units (multi-hop reasoning, temporal events); a fusion router keeps it. */
  trailer?: string[];
  /** Wall time per stage of one AdaptMR question (classify, retrieve, gate), ms: experiment 5's stage table. */
  stageMs?: Record<string, number>;
  /** Every timed run of the question under `timingRepeats`, ms (the first warms up); written by the runner. */
  timingMs?: number[];
  /** The strategy that retrieved (`unified`, `factual`, …) and the order of its context. */
  strategy?: string;
  contextOrder?: 'rank' | 'chronological';
  /** Why a strategy's LLM step fell back to its offline rule. */
  llmFallback?: string;
  /** A strategy fusion: each strategy's own notes, by AdaptMR type. */
  perStrategy?: Record<string, RetrievalNotes>;
  /** Memory servers: how many memories the provider returned, and whether k cut them or they fell short of k. */
  returned?: number;
  cutToK?: boolean;
  fewerThanK?: boolean;
  /** Memory servers: how many cited unit ids were never ingested (not ranked). */
  unknownUnitIds?: number;
  /** A method's own diagnostics, under their own keys. */
  [diagnostic: string]: unknown;
}

/** What a method returns for one question; errors are data, recorded on the row. */
export interface MethodOutput {
  retrieval: Retrieval;
  answer?: string;
  /** Predicted type and probabilities when the method classifies. */
  predictedType?: AdaptType;
  typeProbs?: Record<AdaptType, number>;
  route?: string;
}

export function uniformProbs(): Record<AdaptType, number> {
  return Object.fromEntries(ADAPT_TYPES.map((t) => [t, 1 / ADAPT_TYPES.length])) as Record<AdaptType, number>;
}

export function oneHot(type: AdaptType): Record<AdaptType, number> {
  return Object.fromEntries(ADAPT_TYPES.map((t) => [t, t === type ? 1 : 0])) as Record<AdaptType, number>;
}

/**
 * Why a classifier's probabilities cannot be used for routing (not finite, outside [0, 1], not summing to 1, a type
 * missing), or undefined when they can. A corrupt model must not silently route every question.
 */
export function invalidTypeProbs(probs: Readonly<Record<string, number>>): string | undefined {
  let sum = 0;
  for (const t of ADAPT_TYPES) {
    const p = probs[t];
    if (p === undefined) return `no probability for ${t}`;
    if (!Number.isFinite(p) || p < 0 || p > 1) return `probability of ${t} is ${p}`;
    sum += p;
  }
  if (Math.abs(sum - 1) > 1e-6) return `probabilities sum to ${sum}`;
  return undefined;
}
