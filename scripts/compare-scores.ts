/**
 * Compares the `scores_by_type` view of two results files cell by cell (bit-identical means: the same rows, and every
 * mean equal as a float64). Used to show that a refactor changes no stored number:
 *   npx tsx scripts/compare-scores.ts before.duckdb after.duckdb
 * Exit 0 and "identical: N rows" when equal; otherwise the first differences and exit 1.
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openResultStore } from '../src/store/index.ts';

const COLUMNS = 'run_id, dataset, method, granularity, level, metric, k, adapt_type, native_type, n, mean';

async function rows(path: string): Promise<Map<string, number>> {
  // A copy, opened writable, so a file of an older schema version is migrated without touching the original.
  const dir = mkdtempSync(join(tmpdir(), 'compare-scores-'));
  const copy = join(dir, 'results.duckdb');
  copyFileSync(path, copy);
  const store = await openResultStore(copy);
  try {
    const out = new Map<string, number>();
    for (const r of await store.query<Record<string, unknown>>(`SELECT ${COLUMNS} FROM scores_by_type`)) {
      const { mean, ...key } = r;
      out.set(JSON.stringify(key), Number(mean));
    }
    return out;
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const [a, b] = process.argv.slice(2);
if (!a || !b) {
  console.error('usage: compare-scores.ts <before.duckdb> <after.duckdb>');
  process.exit(2);
}
const [ra, rb] = await Promise.all([rows(a), rows(b)]);
const diffs: string[] = [];
for (const [key, v] of ra) {
  const w = rb.get(key);
  if (w === undefined) diffs.push(`only in ${a}: ${key}`);
  else if (!Object.is(v, w)) diffs.push(`${key}: ${v} vs ${w}`);
}
for (const key of rb.keys()) if (!ra.has(key)) diffs.push(`only in ${b}: ${key}`);
if (diffs.length === 0) {
  console.log(`identical: ${ra.size} rows`);
} else {
  console.log(`${diffs.length} differences (of ${ra.size} / ${rb.size} rows):`);
  for (const d of diffs.slice(0, 20)) console.log(`  ${d}`);
  process.exit(1);
}
