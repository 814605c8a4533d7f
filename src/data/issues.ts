/**
 * Data defects found while normalising a dataset (LoCoMo's malformed evidence ids, missing sessions, …): each is
 * repaired, dropped or kept as is, and reported instead of crashing (docs/datasets.md §1 "Pitfalls").
 */
export interface DataIssue {
  file: string;
  questionId?: string;
  /** The JSON field concerned, e.g. `qa[12].evidence[0]` or `conversation.session_20_date_time`. */
  field: string;
  problem: string;
  action: 'repaired' | 'dropped' | 'kept';
}

export function formatIssue(i: DataIssue): string {
  return `${i.action.padEnd(8)} ${i.questionId ?? '-'} ${i.field}: ${i.problem}`;
}
