/**
 * One run split over processes (`adaptmr run --shard i/n`) and merged (`adaptmr merge`): the quick-start experiment
 * (its committed file, on a smaller sample of the same seeded draw) run as three shards in parallel — the index
 * given by `--shard`, by a Slurm array task and by a Kubernetes completion index, one shared cache folder — merges
 * into a file whose questions, retrievals, scores, statistics and verdicts equal the unsharded run's row for row
 * (timing columns aside). Merge refuses a missing shard (naming it) and a mix of a shard and a whole run.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { mergeResults } from '../../store/merge.ts';
import { openResultStore, refreshStats } from '../../store/index.ts';
import { loadExperiment } from '../config/load-config.ts';
import { REPO_ROOT } from '../record/provenance.ts';
import { runExperiment } from '../runner.ts';
import { TEST_DATA_DIR } from '../../../test/data-path.ts';
import { shardStatuses } from '../../tools/scale-out/status.ts';
import { refuseShardFile } from '../../report/shard-guard.ts';
import { PLAN_EXPERIMENT_REGISTRY } from '../../plan-experiments/registry.ts';

const dir = mkdtempSync(join(tmpdir(), 'adaptmr-run-shards-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** experiments/quickstart.yaml with 8 questions per type instead of 20 (the same seeded, stratified draw). */
function smallQuickstart(): string {
  const value = parse(readFileSync(join(REPO_ROOT, 'experiments', 'quickstart.yaml'), 'utf8')) as {
    datasets: { sample: { perType: number } }[];
  };
  for (const d of value.datasets) d.sample = { perType: 8 };
  const file = join(dir, 'quickstart.yaml');
  writeFileSync(file, stringify(value));
  return file;
}

const SCHEDULER_VARS = [
  'SLURM_ARRAY_TASK_ID',
  'SLURM_ARRAY_TASK_COUNT',
  'SLURM_ARRAY_TASK_MIN',
  'JOB_COMPLETION_INDEX',
];

/** `adaptmr run` in a child process; resolves with its stdout, rejects with its stderr. */
function runChild(yaml: string, out: string, args: string[], env: Record<string, string>): Promise<string> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ADAPTMR_CACHE_DIR: join(dir, 'cache'), ...env };
  for (const name of SCHEDULER_VARS) if (!(name in env)) delete childEnv[name];
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        join(REPO_ROOT, 'bin/adaptmr.js'),
        'run',
        yaml,
        '--out',
        out,
        '--data-dir',
        TEST_DATA_DIR,
        '--no-progress',
        ...args,
      ],
      { cwd: REPO_ROOT, env: childEnv },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    child.on('close', (code) => (code === 0 ? resolve(stdout) : reject(new Error(`exit ${code}: ${stderr}`))));
  });
}

/** A retrieval's notes without the strategies' stage timings (`stageMs`), a measurement like latency_ms. */
function untimed([key, value]: [string, unknown]): [string, unknown] {
  if (key !== 'notes' || typeof value !== 'string') return [key, value];
  const { stageMs: _stageMs, ...notes } = JSON.parse(value) as Record<string, unknown>;
  return [key, notes];
}

/** The rows of the tables a reader compares, timing columns and the warm-up measurement dropped, sorted. */
async function dump(file: string): Promise<Record<string, string[]>> {
  const store = await openResultStore(file, { readOnly: true });
  const timing = new Set(['started_at', 'ended_at', 'latency_ms']);
  try {
    const out: Record<string, string[]> = {};
    for (const table of ['questions', 'retrievals', 'scores', 'answers', 'score_cis', 'comparisons', 'verdicts']) {
      const rows = await store.query<Record<string, unknown>>(`SELECT * FROM ${table}`);
      out[table] = rows
        .map((r) =>
          JSON.stringify(
            Object.entries(r)
              .filter(([k]) => !timing.has(k))
              .map(untimed),
          ),
        )
        .sort();
    }
    return out;
  } finally {
    await store.close();
  }
}

describe('a run split into shards and merged', () => {
  const yaml = smallQuickstart();
  const shard = (i: number): string => join(dir, `shard-${i}.duckdb`);

  it('three parallel shards (--shard, SLURM_ARRAY_TASK_ID, JOB_COMPLETION_INDEX) merge into the unsharded run', async () => {
    const whole = join(dir, 'whole.duckdb');
    const [printed] = await Promise.all([
      Promise.all([
        runChild(yaml, shard(1), ['--shard', '1/3'], { SLURM_ARRAY_TASK_ID: '3', SLURM_ARRAY_TASK_COUNT: '3' }),
        runChild(yaml, shard(2), [], {
          SLURM_ARRAY_TASK_ID: '2',
          SLURM_ARRAY_TASK_COUNT: '3',
          SLURM_ARRAY_TASK_MIN: '1',
        }),
        runChild(yaml, shard(3), ['--shards', '3'], { JOB_COMPLETION_INDEX: '2' }),
      ]),
      runExperiment(await loadExperiment(yaml), { out: whole, dataDir: TEST_DATA_DIR, progress: false, log: () => {} }),
    ]);
    expect(printed[0]).toContain('shard 1/3 (from --shard 1/3)');
    expect(printed[1]).toContain(
      'shard 2/3 (from SLURM_ARRAY_TASK_ID=2, SLURM_ARRAY_TASK_MIN=1, SLURM_ARRAY_TASK_COUNT=3)',
    );
    expect(printed[2]).toContain('shard 3/3 (from JOB_COMPLETION_INDEX=2, --shards 3)');
    // `adaptmr status` of the folder: three shards done, their questions those of the whole run.
    const statuses = await shardStatuses(dir);
    expect(statuses.map((s) => s.state)).toEqual(['done', 'done', 'done']);
    const merged = join(dir, 'merged.duckdb');
    await mergeResults([1, 2, 3].map(shard), merged, {
      recompute: async (store) => void (await refreshStats(store, PLAN_EXPERIMENT_REGISTRY, { force: true })),
    });
    const [a, b] = [await dump(whole), await dump(merged)];
    expect(a.questions!.length).toBeGreaterThan(0);
    expect(statuses.reduce((n, s) => n + s.questions, 0)).toBe(a.questions!.length);
    expect(a.verdicts!.length).toBeGreaterThan(0);
    for (const table of Object.keys(a)) {
      expect(b[table]!.length, table).toBe(a[table]!.length);
      // Row by row, so a difference prints two rows, not two tables.
      a[table]!.forEach((row, i) => expect(b[table]![i], `${table} row ${i}`).toBe(row));
    }
    const store = await openResultStore(merged, { readOnly: true });
    try {
      expect(await store.query("SELECT * FROM meta WHERE key = 'shard'")).toEqual([]);
    } finally {
      await store.close();
    }
  }, 600_000);

  it('adaptmr report refuses a shard (partial) and takes the merged file', async () => {
    await expect(refuseShardFile(shard(2))).rejects.toThrow(/shard 2\/3 of a run \(partial\)/);
    await expect(refuseShardFile(join(dir, 'merged.duckdb'))).resolves.toBeUndefined();
  });

  it('refuses a missing shard, naming it, and a shard merged with a whole run', async () => {
    await expect(mergeResults([shard(1), shard(3)], join(dir, 'm2.duckdb'))).rejects.toThrow(/shard 2\/3 missing/);
    await expect(mergeResults([shard(1), join(dir, 'whole.duckdb')], join(dir, 'm3.duckdb'))).rejects.toThrow(
      /is not a shard/,
    );
  });
});
