/**
 * The shapes a benchmark's reader and src/data exchange (src/core/benchmark.ts `BenchmarkReader`): a raw JSON record,
 * the light catalogue entry of one question (for sampling before any haystack is built), a data defect found while
 * normalising, and what a reader may leave undecoded.
 */
import type { AdaptType, ExtraTypeLabel } from './types.ts';

/** One raw JSON record: an element of an array file, a file's one object, or one reading unit of the benchmark's own. */
export interface RawRecord {
  raw: unknown;
  file: string;
  /** Index of the record within its file. */
  index: number;
}

export interface CatalogEntry {
  questionId: string;
  nativeType: string;
  adaptType: AdaptType;
  isAbstention: boolean;
  /** The label the question is reported under when it fits none of the five types (`Gold.reportAs`). */
  reportAs?: ExtraTypeLabel;
  /** The file the question was read from (folder layouts), so a later pass can read only the files it keeps. */
  file?: string;
  /**
   * The haystack group the question is asked of, when several questions share one (a conversation, a chat, a
   * trajectory of messages); absent when the question has a haystack of its own. A sharded run keeps each group in
   * one shard, so a haystack is indexed (and a memory server ingests it) once.
   */
  haystack?: string;
}

/**
 * Data defects found while normalising a dataset (malformed evidence ids, missing sessions, …): each is repaired,
 * dropped or kept as is, and reported instead of crashing (docs/datasets.md §1 "Pitfalls").
 */
export interface DataIssue {
  file: string;
  questionId?: string;
  /** The JSON field concerned, e.g. `qa[12].evidence[0]` or `conversation.session_20_date_time`. */
  field: string;
  problem: string;
  action: 'repaired' | 'dropped' | 'kept';
}

export interface ParseOptions {
  /** Empty the `content` of every turn object with this `role` unread (json-elide.ts): only when nothing reads it. */
  elideContentOfRole?: string | undefined;
}
