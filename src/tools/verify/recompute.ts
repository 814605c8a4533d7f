/**
 * The value checks of `adaptmr verify`: the bundle's row tables (Parquet) are loaded into a fresh results file in a
 * temporary folder and everything else is recomputed from them with the harness's own code — every instance line
 * and aggregate log (src/tools/bundle), every CI, paired comparison, Holm adjustment, verdict and judge statistic
 * (src/store/stats-tables.ts → src/eval/stats, src/eval/verdicts), the cost table and the manifest's totals — and
 * compared with what the bundle holds, exactly. The instance lines are checked first, so the statistics are
 * recomputed from rows proven equal to the Every Eval Ever instance rows.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openResultStore, type ResultStore } from '../../store/index.ts';
import { refreshStats } from '../../store/stats-tables.ts';
import { rollUp } from '../bundle/content-hash.ts';
import { aggregatePath, EEE_DIR, samplesPath } from '../bundle/ids.ts';
import { keyOf, loadResults } from '../bundle/load-results.ts';
import type { Manifest } from '../bundle/manifest.ts';
import { COST_SQL, DERIVED_TABLES, loadRowTables, readParquet, tableFile } from '../bundle/tables.ts';
import { type DatasetFacts, results } from '../bundle/write-eee.ts';
import { type Checks, firstDifference } from './checks.ts';
import type { Doc, EeeResult } from './eee-check.ts';
import { PLAN_EXPERIMENT_REGISTRY } from '../../plan-experiments/registry.ts';

/** Content hashes as the instance lines give them, per (run, dataset). */
function contentFromLines(eee: EeeResult): Map<string, DatasetFacts> {
  const byKey = new Map<string, Map<string, string>>();
  for (const lines of eee.samples.values()) {
    for (const l of lines) {
      const m = l.metadata as Record<string, string>;
      const k = keyOf(m.run_id ?? '', m.dataset ?? '');
      const hashes = byKey.get(k) ?? new Map<string, string>();
      if (!hashes.has(String(l.sample_id))) hashes.set(String(l.sample_id), m.content_sha256 ?? '');
      byKey.set(k, hashes);
    }
  }
  return new Map([...byKey].map(([k, hashes]) => [k, { hashes, contentSha256: rollUp(hashes) }]));
}

function compareEee(
  eee: EeeResult,
  facts: Map<string, DatasetFacts>,
  r: Awaited<ReturnType<typeof loadResults>>,
): string | undefined {
  const seen = new Set<string>();
  for (const doc of results(r, facts)) {
    const agg = `${EEE_DIR}/${aggregatePath(doc.key)}`;
    const sam = `${EEE_DIR}/${samplesPath(doc.key)}`;
    seen.add(agg);
    const lines = eee.samples.get(sam);
    const log = eee.aggregates.get(agg);
    if (!lines || !log) return `${agg}: the rows give this result, the bundle lacks it`;
    for (let i = 0; i < Math.max(lines.length, doc.lines.length); i++) {
      const d = firstDifference(lines[i], doc.lines[i]);
      if (d) return `${sam} line ${i + 1} (question ${String((doc.lines[i] ?? lines[i])?.sample_id)}) field ${d}`;
    }
    const d = firstDifference(log, doc.log);
    if (d) return `${agg} field ${d}`;
  }
  const extra = [...eee.aggregates.keys()].find((p) => !seen.has(p));
  return extra ? `${extra}: not a result of the bundle's rows` : undefined;
}

async function compareTable(store: ResultStore, dir: string, name: string, sql: string): Promise<string | undefined> {
  const stored = await readParquet(store, join(dir, tableFile(name)));
  const again = await store.query(`${sql} ORDER BY ALL`);
  if (stored.length !== again.length) return `${tableFile(name)}: ${stored.length} rows, recomputed ${again.length}`;
  for (let i = 0; i < stored.length; i++) {
    const d = firstDifference(stored[i], again[i]);
    if (d) return `${tableFile(name)} row ${i + 1} column ${d}`;
  }
  return undefined;
}

function compareManifest(m: Manifest, facts: Map<string, DatasetFacts>): string | undefined {
  for (const run of m.runs) {
    for (const d of run.datasets) {
      const got = facts.get(keyOf(run.run_id, d.name))?.contentSha256;
      if (got !== undefined && got !== d.content_sha256) {
        return `manifest.json runs[${run.run_id}].datasets[${d.name}].content_sha256 ${d.content_sha256.slice(0, 16)}… ≠ ${got.slice(0, 16)}… rolled up from the instance lines`;
      }
    }
  }
  return undefined;
}

export async function recompute(dir: string, m: Manifest, eee: EeeResult, checks: Checks): Promise<void> {
  const tmp = mkdtempSync(join(tmpdir(), 'adaptmr-verify-'));
  const store = await openResultStore(join(tmp, 'rows.duckdb'));
  try {
    await loadRowTables(store, dir);
    const facts = contentFromLines(eee);
    await refreshStats(store, PLAN_EXPERIMENT_REGISTRY, { force: true });
    const lineProblem = compareEee(eee, facts, await loadResults(store));
    const n = [...eee.samples.values()].reduce((a, l) => a + l.length, 0);
    checks.add(
      'instances + aggregates',
      !lineProblem,
      lineProblem ??
        `${n} instance lines and ${eee.aggregates.size} aggregate logs equal what the rows give, CIs recomputed`,
    );
    checks.add(
      'dataset content',
      !compareManifest(m, facts),
      compareManifest(m, facts) ??
        `${facts.size} dataset-content hashes rolled up from the instance lines equal the manifest's`,
    );
    for (const t of DERIVED_TABLES) {
      const p = await compareTable(store, dir, t, `SELECT * FROM ${t}`);
      checks.add(
        `recompute ${t}`,
        !p,
        p ?? `${(await store.query(`SELECT count(*) AS n FROM ${t}`))[0]?.n} rows recomputed, equal`,
      );
    }
    const cost = await compareTable(store, dir, 'cost', COST_SQL);
    checks.add('recompute cost', !cost, cost ?? 'cost per run, dataset, method, stage and model equal');
    const [t] =
      await store.query<Doc>(`SELECT count(*)::BIGINT AS llm_calls, coalesce(sum(prompt_tokens), 0)::BIGINT AS prompt_tokens,
      coalesce(sum(completion_tokens), 0)::BIGINT AS completion_tokens, coalesce(sum(cached_tokens), 0)::BIGINT AS cached_tokens,
      coalesce(sum(cost_usd ORDER BY ALL), 0)::DOUBLE AS cost_usd FROM llm_calls`);
    const tot = firstDifference(m.totals, t);
    checks.add(
      'totals',
      !tot,
      tot
        ? `manifest.json totals.${tot}`
        : `${String(t?.llm_calls)} LLM calls, $${String(t?.cost_usd)}: the manifest's totals`,
    );
  } catch (err) {
    checks.add('recompute', false, `the bundle's tables could not be read: ${(err as Error).message.split('\n')[0]}`);
  } finally {
    await store.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}
