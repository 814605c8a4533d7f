/**
 * Route × gold type: for each method whose single router falls back when unsure (router `fallback`,
 * route labels `fallback:…`), how often each gold type was routed by its predicted type and how often it fell back,
 * pooled over the run's datasets. Gold types are read from the stored questions, after the run: nothing here routes.
 */
import Table from 'cli-table3';
import type { ResultStore } from '../../store/index.ts';

export async function routeGoldTable(store: ResultStore, runId: string): Promise<string | null> {
  const rows = await store.query<{ method: string; adapt_type: string; fallback: boolean; n: number }>(
    `SELECT r.method, q.adapt_type, starts_with(r.route, 'fallback:') AS fallback, count(*)::INTEGER AS n
     FROM retrievals r JOIN questions q ON q.run_id = r.run_id AND q.dataset = r.dataset AND q.question_id = r.question_id
     WHERE r.run_id = $1 AND r.route IS NOT NULL AND r.error IS NULL GROUP BY ALL ORDER BY ALL`,
    [runId],
  );
  const methods = [...new Set(rows.filter((r) => r.fallback).map((r) => r.method))];
  if (methods.length === 0) return null;
  const types = [...new Set(rows.map((r) => r.adapt_type))];
  const table = new Table({
    head: ['method ↓ / gold type →', ...types, 'all'],
    style: { head: [], border: [], compact: true },
  });
  for (const m of methods) {
    const cell = (keep: (t: string) => boolean) => {
      const mine = rows.filter((r) => r.method === m && keep(r.adapt_type));
      const all = mine.reduce((a, r) => a + r.n, 0);
      const fb = mine.filter((r) => r.fallback).reduce((a, r) => a + r.n, 0);
      return all > 0 ? `${fb}/${all} (${((100 * fb) / all).toFixed(0)}%)` : '—';
    };
    table.push([m, ...types.map((t) => cell((x) => x === t)), cell(() => true)]);
  }
  return `Route × gold type: questions that fell back (top probability below the router's fitted threshold) / questions routed\n${table.toString()}`;
}
