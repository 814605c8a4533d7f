/** One line per data defect (src/core/dataset-records.ts `DataIssue`), for `adaptmr data info` and run logs. */
import type { DataIssue } from '../core/dataset-records.ts';

export type { DataIssue };

export function formatIssue(i: DataIssue): string {
  return `${i.action.padEnd(8)} ${i.questionId ?? '-'} ${i.field}: ${i.problem}`;
}
