/**
 * The run-level warning for judge replies that are no verdict (src/eval/qa/verdict.ts `UnreadableVerdictError`):
 * each such answer is an error row already; when they pass 5 % of the run's answers the judge itself is suspect (a
 * wrong model, a prompt it does not follow, a proxy answering for it), so the run says so in one line.
 */
import { UNREADABLE_VERDICT } from '../../eval/qa/verdict.ts';
import type { ResultStore } from '../../store/types.ts';

/** The share of a run's answers above which unreadable judge replies are warned about. */
export const UNREADABLE_WARN_SHARE = 0.05;

/** The warning line, or undefined when unreadable replies are at most 5 % of the run's answers. */
export async function unreadableVerdictWarning(store: ResultStore, runId: string): Promise<string | undefined> {
  const [row] = await store.query<{ n: number; bad: number; first: string | null }>(
    `SELECT count(*)::INTEGER AS n, count(*) FILTER (WHERE starts_with(error, ?))::INTEGER AS bad,
            min(error) FILTER (WHERE starts_with(error, ?)) AS first
     FROM answers WHERE run_id = ?`,
    [UNREADABLE_VERDICT, UNREADABLE_VERDICT, runId],
  );
  if (!row || row.n === 0 || row.bad / row.n <= UNREADABLE_WARN_SHARE) return undefined;
  return (
    `warning: ${row.bad} of ${row.n} answers (${((100 * row.bad) / row.n).toFixed(1)} %) have a judge reply that is not a verdict ` +
    `(first: ${row.first}); they are error rows, not wrong answers — check the judge model and prompt (llm.roles.judge, qa.judges)`
  );
}
