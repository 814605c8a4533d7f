/**
 * A tiny channel for long work inside a method that the run's progress bar should show (a memory server ingesting
 * a haystack: "ingest mem0:oss 120/300"). Methods report; src/run/record/progress.ts listens. Kept in core so components
 * report without importing the runner.
 */
export interface WorkProgress {
  /** What is being done, e.g. `ingest mem0:oss`. */
  label: string;
  done: number;
  total: number;
}

type Listener = (p: WorkProgress) => void;
const listeners = new Set<Listener>();

export function reportWorkProgress(p: WorkProgress): void {
  for (const l of listeners) l(p);
}

/** Subscribes; returns the unsubscribe function. */
export function onWorkProgress(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
