/**
 * Recomputes mrr, recall_frac and stale_above of a results file from its `retrievals` (the stored top-k units) and
 * `questions` (evidence and superseded ids) alone — not through src/eval — and checks each against the stored
 * scores_by_type mean, exactly. Covers the cells that need no index beyond the ranking: turn level of turn units
 * (e.g. a chat's messages) and session level of session units (LongMemEval S; a LongMemEval turn id `<session>_<i>` names its
 * session, which the official gold rule needs: an evidence session counts when it holds an evidence turn).
 *
 *   npx tsx scripts/recompute-rank-metrics.ts results/stale-evidence-offline.duckdb
 *
 * Exits 1 on any mismatch. Questions outside the five types and abstention questions are not averaged (as stored).
 */
import { openResultStore } from '../src/store/index.ts';

interface Row {
  dataset: string;
  question_id: string;
  method: string;
  granularity: string;
  unit_ids: string[];
  adapt_type: string;
  is_abstention: boolean;
  evidence_session_ids: string[];
  evidence_turn_ids: string[];
  superseded_session_ids: string[] | null;
  superseded_turn_ids: string[] | null;
}

const KS = [1, 5, 10];

/** The three metrics of one ranking of ids against gold and superseded ids, at k (hand formulas, docs/design.md §6). */
function metrics(ranked: string[], gold: Set<string>, sup: Set<string>, k: number): Record<string, number | null> {
  const top = ranked.slice(0, k);
  const first = top.findIndex((id) => gold.has(id));
  const current = new Set([...gold].filter((g) => !sup.has(g)));
  const firstCurrent = top.findIndex((id) => current.has(id));
  const firstStale = top.findIndex((id) => sup.has(id) && !current.has(id));
  const stale = firstStale >= 0 && (firstCurrent < 0 || firstStale < firstCurrent) ? 1 : 0;
  return {
    mrr: first >= 0 ? 1 / (first + 1) : 0,
    recall_frac: [...gold].filter((g) => top.includes(g)).length / gold.size,
    stale_above: sup.size > 0 && current.size > 0 ? stale : null,
  };
}

function goldOf(r: Row): { level: string; gold: Set<string>; sup: Set<string> } {
  if (r.granularity === 'session') {
    const withTurn = new Set(r.evidence_turn_ids.map((t) => t.replace(/_\d+$/, '')));
    return {
      level: 'session',
      gold: new Set(r.evidence_session_ids.filter((s) => withTurn.has(s))),
      sup: new Set(r.superseded_session_ids ?? []),
    };
  }
  return { level: 'turn', gold: new Set(r.evidence_turn_ids), sup: new Set(r.superseded_turn_ids ?? []) };
}

async function main(file: string): Promise<number> {
  // Read through the store (the one module that opens results files), not through src/eval's metric code.
  const store = await openResultStore(file, { readOnly: true });
  const read = <T>(sql: string): Promise<T[]> => store.query<T>(sql);
  const rows = await read<Row>(`SELECT r.dataset, r.question_id, r.method, r.granularity, r.unit_ids, q.adapt_type,
      q.is_abstention, q.evidence_session_ids, q.evidence_turn_ids, q.superseded_session_ids, q.superseded_turn_ids
    FROM retrievals r JOIN questions q USING (run_id, dataset, question_id)
    WHERE r.granularity IN ('session', 'turn') AND r.error IS NULL ORDER BY r.question_id`);
  const sums = new Map<string, number[]>();
  for (const r of rows) {
    if (r.is_abstention || r.adapt_type === 'outside' || r.granularity === 'round') continue;
    const { level, gold, sup } = goldOf(r);
    if (gold.size === 0) continue;
    for (const k of KS) {
      for (const [metric, v] of Object.entries(metrics(r.unit_ids, gold, sup, k))) {
        if (v === null) continue;
        for (const t of [r.adapt_type, 'all']) {
          const key = [r.dataset, r.method, level, metric, k, t].join('\t');
          sums.set(key, [...(sums.get(key) ?? []), v]);
        }
      }
    }
  }
  const stored = await read<{ key: string; mean: number; n: bigint }>(`SELECT concat_ws(chr(9), dataset, method, level,
      metric, k::VARCHAR, adapt_type) AS key, mean, n FROM scores_by_type
    WHERE metric IN ('mrr', 'recall_frac', 'stale_above') AND native_type = 'all' AND k IN (${KS.join(',')})`);
  const byKey = new Map(stored.map((s) => [s.key, s]));
  let bad = 0;
  let checked = 0;
  for (const [key, values] of sums) {
    const s = byKey.get(key);
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    checked++;
    if (!s || Number(s.n) !== values.length || s.mean !== mean) {
      bad++;
      console.log(
        `MISMATCH ${key.replaceAll('\t', ' ')}: recomputed ${mean} (n ${values.length}), stored ${s?.mean} (n ${s?.n})`,
      );
    }
  }
  console.log(`${checked} cells recomputed from retrievals and questions; ${bad} differ from scores_by_type`);
  await store.close();
  return bad === 0 && checked > 0 ? 0 : 1;
}

process.exitCode = await main(process.argv[2] ?? 'results/stale-evidence-offline.duckdb');
