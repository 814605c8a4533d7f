/**
 * `adaptmr verify --rerun`: runs the bundle's offline runs again from their stored configs — on this checkout,
 * which must be the run's commit, and on datasets whose file hashes must be the run's — into a temporary results
 * file, and compares every method's ranking (unit ids, in order) and every score row with the bundle's, exactly.
 * A run that needs an LLM endpoint or a memory server is skipped with that reason (re-running it costs money and
 * depends on a service; its numbers are checked by the recomputation instead).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadedFromValue } from '../../run/config/load-config.ts';
import { gitState } from '../../run/record/provenance.ts';
import { runExperiment } from '../../run/runner.ts';
import { openResultStore, type ResultStore } from '../../store/index.ts';
import { SERVER_KINDS } from '../bundle/images.ts';
import { readParquet, tableFile } from '../bundle/tables.ts';
import { type Checks, firstDifference } from './checks.ts';

type Row = Record<string, unknown>;

/** Why a run cannot be re-run offline, or undefined. */
function notOffline(config: Row): string | undefined {
  if (config.llm !== undefined || config.qa !== undefined) return 'it calls an LLM (llm/qa in its config)';
  const methods = (config.methods ?? []) as { method: string }[];
  const server = methods.find((m) => SERVER_KINDS.has(m.method));
  return server ? `method ${server.method} needs a memory server` : undefined;
}

const KEY_SCORES = `SELECT dataset, question_id, method, granularity, level, metric, k, value, counted FROM scores WHERE run_id = $1 ORDER BY ALL`;
const KEY_RANKS = `SELECT dataset, question_id, method, unit_ids FROM retrievals WHERE run_id = $1 ORDER BY ALL`;

async function compareRun(
  bundle: ResultStore,
  fresh: ResultStore,
  runId: string,
  freshId: string,
): Promise<string | undefined> {
  for (const [what, sql] of [
    ['retrievals', KEY_RANKS],
    ['scores', KEY_SCORES],
  ] as const) {
    const [a, b] = [await bundle.query<Row>(sql, [runId]), await fresh.query<Row>(sql, [freshId])];
    if (a.length !== b.length) return `run ${runId}: ${a.length} ${what} rows in the bundle, ${b.length} re-run`;
    for (let i = 0; i < a.length; i++) {
      const d = firstDifference(a[i], b[i]);
      if (d)
        return `run ${runId} ${what} (${String(a[i]!.dataset)} ${String(a[i]!.question_id)} ${String(a[i]!.method)}) ${d}`;
    }
  }
  return undefined;
}

async function rerunOne(dir: string, run: Row, dataDir: string | undefined, bundle: ResultStore): Promise<string> {
  const config = JSON.parse(String(run.config_json)) as Row;
  const tmp = mkdtempSync(join(tmpdir(), 'adaptmr-rerun-'));
  try {
    const out = join(tmp, 'rerun.duckdb');
    await runExperiment(loadedFromValue({ ...config, pull: false }, `${dir} run ${String(run.run_id)}`), {
      out,
      dataDir,
      progress: false,
      log: () => {},
    });
    const fresh = await openResultStore(out, { readOnly: true });
    try {
      const [f] = await fresh.query<Row>('SELECT run_id, dataset_hashes FROM runs');
      if (!f || f.dataset_hashes !== run.dataset_hashes)
        return `FAIL:run ${String(run.run_id)}: the datasets found now differ from the run's (file sha256s)`;
      const problem = await compareRun(bundle, fresh, String(run.run_id), String(f.run_id));
      return problem ? `FAIL:${problem}` : `run ${String(run.run_id)}: every ranking and score equal`;
    } finally {
      await fresh.close();
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

export async function rerunBundle(
  dir: string,
  checks: Checks,
  dataDir: string | undefined,
  anyCommit = false,
): Promise<void> {
  const tmp = mkdtempSync(join(tmpdir(), 'adaptmr-rerun-bundle-'));
  const bundle = await openResultStore(join(tmp, 'b.duckdb'));
  try {
    for (const t of ['runs', 'retrievals', 'scores']) {
      await bundle.query(
        `INSERT INTO ${t} SELECT * FROM read_parquet('${join(dir, tableFile(t)).replaceAll("'", "''")}')`,
      );
    }
    const here = await gitState();
    for (const run of await readParquet(bundle, join(dir, tableFile('runs')))) {
      const why = notOffline(JSON.parse(String(run.config_json)) as Row);
      if (why) {
        checks.add('rerun', true, `run ${String(run.run_id)} skipped: ${why}`);
        continue;
      }
      if (run.git_commit !== here.commit && !anyCommit) {
        checks.add(
          'rerun',
          false,
          `run ${String(run.run_id)} was made at commit ${String(run.git_commit)}; this checkout is ${String(here.commit)} (check it out to re-run, or pass --any-commit)`,
        );
        continue;
      }
      const result = await rerunOne(dir, run, dataDir, bundle);
      const other =
        run.git_commit === here.commit
          ? ''
          : ` (re-run at ${String(here.commit)}, not the run's ${String(run.git_commit)})`;
      checks.add('rerun', !result.startsWith('FAIL:'), `${result.replace(/^FAIL:/u, '')}${other}`);
    }
  } finally {
    await bundle.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}
