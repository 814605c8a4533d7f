/**
 * The one line a report prints when the `chance` flag (src/eval/verdicts/flags.ts) cannot be computed for some of a
 * file's questions: files written before schema 5 record no haystack sizes, so their verdicts are never flagged
 * `chance` — said once, rather than a flag that silently never fires.
 */
import type { ResultStore } from '../store/index.ts';

/** "chance flag not computable on …", or null when every question records its haystack (or there are no verdicts). */
export async function chanceNote(store: ResultStore): Promise<string | null> {
  const rows = await store.query<{ dataset: string }>(
    `SELECT DISTINCT dataset FROM questions
     WHERE haystack_sessions IS NULL AND EXISTS (SELECT 1 FROM verdicts) ORDER BY dataset`,
  );
  if (rows.length === 0) return null;
  return (
    `chance flag not computable on ${rows.map((r) => r.dataset).join(', ')}: the file records no haystack sizes ` +
    '(written before schema 5), so no verdict there can be flagged `chance`; rerun the experiment to compute it'
  );
}
