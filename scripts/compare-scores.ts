/**
 * Compares two results files number by number, to show that a change alters no stored number:
 *   npx tsx scripts/compare-scores.ts before.duckdb after.duckdb
 * 1. every per-question score row (`scores`: run, dataset, question, method, granularity, level, metric, k, value,
 *    counted) must be equal as a float64;
 * 2. every cell of `scores_by_type`, computed in both files by the current view definition (which sums in question
 *    order, so the write order of a concurrent run cannot change a mean's last bit), must be equal.
 * Exit 0 and "identical" when equal; otherwise the first differences and exit 1. `--except-method <id>` (repeatable)
 * leaves a method out of both files, e.g. one whose rows a change removes on purpose (full context's retrieval
 * scores, n/a since it does not rank).
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openResultStore, type ResultStore } from '../src/store/index.ts';
import { scoresByTypeViewSql } from '../src/store/schema.ts';

const COLUMNS = 'run_id, dataset, method, granularity, level, metric, k, adapt_type, native_type, n, mean';

async function keyed(store: ResultStore, sql: string, value: string): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const r of await store.query<Record<string, unknown>>(sql)) {
    const { [value]: v, ...key } = r;
    out.set(JSON.stringify(key), Number(v));
  }
  return out;
}

async function rows(
  path: string,
  except: readonly string[],
): Promise<{ scores: Map<string, number>; byType: Map<string, number> }> {
  // A copy, opened writable, so a file of an older schema version is migrated without touching the original.
  const dir = mkdtempSync(join(tmpdir(), 'compare-scores-'));
  const copy = join(dir, 'results.duckdb');
  copyFileSync(path, copy);
  const store = await openResultStore(copy);
  try {
    for (const m of except) await store.query('DELETE FROM scores WHERE method = $1', [m]);
    await store.query(`DROP VIEW scores_by_type; ${scoresByTypeViewSql()}`);
    const scores = await keyed(
      store,
      'SELECT run_id, dataset, question_id, method, granularity, level, metric, k, counted, value FROM scores',
      'value',
    );
    const byType = await keyed(store, `SELECT ${COLUMNS} FROM scores_by_type`, 'mean');
    return { scores, byType };
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const args = process.argv.slice(2);
const except: string[] = [];
for (let i = args.indexOf('--except-method'); i >= 0; i = args.indexOf('--except-method'))
  except.push(...args.splice(i, 2).slice(1));
const [a, b] = args;
if (!a || !b) {
  console.error('usage: compare-scores.ts <before.duckdb> <after.duckdb> [--except-method <id>]…');
  process.exit(2);
}
function differences(ra: Map<string, number>, rb: Map<string, number>): string[] {
  const diffs: string[] = [];
  for (const [key, v] of ra) {
    const w = rb.get(key);
    if (w === undefined) diffs.push(`only in ${a}: ${key}`);
    else if (!Object.is(v, w)) diffs.push(`${key}: ${v} vs ${w}`);
  }
  for (const key of rb.keys()) if (!ra.has(key)) diffs.push(`only in ${b}: ${key}`);
  return diffs;
}

const [ra, rb] = [await rows(a, except), await rows(b, except)];
let failed = false;
for (const [what, x, y] of [
  ['scores', ra.scores, rb.scores],
  ['scores_by_type', ra.byType, rb.byType],
] as const) {
  const diffs = differences(x, y);
  if (diffs.length === 0) {
    console.log(`${what}: identical (${x.size} rows)`);
  } else {
    failed = true;
    console.log(`${what}: ${diffs.length} differences (of ${x.size} / ${y.size} rows):`);
    for (const d of diffs.slice(0, 10)) console.log(`  ${d}`);
  }
}
if (failed) process.exit(1);
