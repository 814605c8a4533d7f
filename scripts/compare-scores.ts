/**
 * Compares two results files number by number, to show that a change alters no stored number:
 *   npx tsx scripts/compare-scores.ts before.duckdb after.duckdb
 * 1. every per-question score row (`scores`: run, dataset, question, method, granularity, level, metric, k, value,
 *    counted) must be equal as a float64;
 * 2. every cell of `scores_by_type`, computed in both files by the current view definition (which sums in question
 *    order, so the write order of a concurrent run cannot change a mean's last bit), must be equal.
 * 3. with `--stats`, every row of the derived tables `score_cis`, `comparisons`, `verdicts` and `findings` too, as whole
 *    rows (a multiset of rows; numbers compared by their exact decimal text), so a refactor is shown to change no CI,
 *    paired test or verdict. `--ignore-column <table.column>` (repeatable) leaves out a column a change alters on
 *    purpose (e.g. `verdicts.flags` when a new flag lands).
 * Exit 0 and "identical" when equal; otherwise the first differences and exit 1. `--except-method <id>` (repeatable)
 * leaves a method out of both files, e.g. one whose rows a change removes on purpose (full context's retrieval
 * scores, n/a since it does not rank).
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openResultStore, type ResultStore } from '../src/store/index.ts';
import { scoresByTypeViewSql } from '../src/store/schema.ts';

const STATS_TABLES = ['score_cis', 'comparisons', 'verdicts', 'findings'] as const;
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
  ignore: readonly string[],
  stats: boolean,
): Promise<{ scores: Map<string, number>; byType: Map<string, number>; derived: Map<string, Map<string, number>> }> {
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
    const derived = new Map<string, Map<string, number>>();
    if (stats) for (const t of STATS_TABLES) derived.set(t, await rowCounts(store, t, ignore));
    return { scores, byType, derived };
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A derived table as a multiset of whole rows (ignored columns left out): row text → count. */
async function rowCounts(store: ResultStore, table: string, ignore: readonly string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const r of await store.query<Record<string, unknown>>(`SELECT * FROM ${table}`)) {
    for (const c of ignore) if (c.startsWith(`${table}.`)) delete r[c.slice(table.length + 1)];
    const key = JSON.stringify(r, (_k, v) => (typeof v === 'bigint' ? String(v) : v));
    out.set(key, (out.get(key) ?? 0) + 1);
  }
  return out;
}

function takeOption(args: string[], name: string): string[] {
  const out: string[] = [];
  for (let i = args.indexOf(name); i >= 0; i = args.indexOf(name)) out.push(...args.splice(i, 2).slice(1));
  return out;
}

const args = process.argv.slice(2);
const except = takeOption(args, '--except-method');
const ignore = takeOption(args, '--ignore-column');
const stats = args.includes('--stats');
if (stats) args.splice(args.indexOf('--stats'), 1);
const [a, b] = args;
if (!a || !b) {
  console.error(
    'usage: compare-scores.ts <before.duckdb> <after.duckdb> [--stats] [--except-method <id>]… [--ignore-column <table.column>]…',
  );
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

const [ra, rb] = [await rows(a, except, ignore, stats), await rows(b, except, ignore, stats)];
let failed = false;
const tables: [string, Map<string, number>, Map<string, number>][] = [
  ['scores', ra.scores, rb.scores],
  ['scores_by_type', ra.byType, rb.byType],
  ...STATS_TABLES.filter(() => stats).map((t): [string, Map<string, number>, Map<string, number>] => [
    t,
    ra.derived.get(t)!,
    rb.derived.get(t)!,
  ]),
];
for (const [what, x, y] of tables) {
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
