/**
 * The generated Slurm files under a real Slurm (the one-node cluster `.ci/slurm-up` starts on 127.0.0.1): `adaptmr
 * launch slurm` for a small LoCoMo experiment in 3 shards, `submit.sh` (sbatch of array.sbatch, then merge.sbatch
 * with --dependency=afterok), and the merged file equals the unsharded run row for row (timing columns aside), with
 * its HTML report written and `adaptmr status` saying every shard is done. Without Slurm on this machine the test is
 * skipped and says why — except in CI (`CI` set), where Slurm is installed and its absence is a failure.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { loadExperiment } from '../../run/config/load-config.ts';
import { REPO_ROOT } from '../../run/record/provenance.ts';
import { runExperiment } from '../../run/runner.ts';
import { openResultStore } from '../../store/index.ts';
import { TEST_DATA_DIR } from '../../../test/data-path.ts';
import { shardStatuses } from './status.ts';

const dir = mkdtempSync(join(tmpdir(), 'adaptmr-slurm-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Why Slurm cannot run jobs here, or undefined when `sinfo` shows a node ready. */
function slurmMissing(): string | undefined {
  const sinfo = spawnSync('sinfo', ['-h', '-o', '%T'], { encoding: 'utf8' });
  if (sinfo.error) return 'no Slurm installed (sinfo not found); `.ci/slurm-up` starts a one-node cluster';
  if (!/idle|mix|alloc/u.test(sinfo.stdout))
    return `Slurm is installed but no node is ready (sinfo: ${sinfo.stdout.trim() || sinfo.stderr.trim()}); run .ci/slurm-up`;
  return undefined;
}

const experiment = {
  name: 'slurm-smoke',
  datasets: [{ name: 'locomo', sample: { perType: 3 }, index: { granularity: 'turn', speakerPrefix: true } }],
  embedder: { name: 'wink-sif' },
  methods: [
    { id: 'bm25', method: 'bm25', index: { granularity: 'session' }, k: 10 },
    { id: 'unified-embedding', method: 'unified-embedding', index: { granularity: 'session' }, k: 10 },
  ],
  metrics: { ks: [1, 5, 10] },
};

/** Waits for the job ids to leave the queue (the test runner's own timeout bounds it). */
async function drained(jobs: string[]): Promise<void> {
  for (;;) {
    const q = spawnSync('squeue', ['-h', '-j', jobs.join(','), '-o', '%i'], { encoding: 'utf8' });
    if (q.stdout.trim() === '') return;
    await new Promise((r) => setTimeout(r, 2000));
  }
}

async function rows(file: string, table: string): Promise<string[]> {
  const store = await openResultStore(file, { readOnly: true });
  try {
    const all = await store.query<Record<string, unknown>>(`SELECT * FROM ${table}`);
    return all
      .map((r) =>
        JSON.stringify(Object.entries(r).filter(([k]) => !['latency_ms', 'started_at', 'ended_at'].includes(k))),
      )
      .sort();
  } finally {
    await store.close();
  }
}

describe('adaptmr launch slurm under a real Slurm', () => {
  it('array.sbatch + merge.sbatch (afterok) give the unsharded run, its report and three done shards', async (ctx) => {
    const missing = slurmMissing();
    if (missing && process.env.CI) expect.fail(`CI must run the Slurm test: ${missing}`);
    if (missing) ctx.skip(missing);
    const yaml = join(dir, 'slurm-smoke.yaml');
    writeFileSync(yaml, stringify(experiment));
    const results = join(dir, 'results');
    const launch = join(dir, 'launch');
    execFileSync(
      process.execPath,
      [
        join(REPO_ROOT, 'bin/adaptmr.js'),
        'launch',
        'slurm',
        yaml,
        '--shards',
        '3',
        '--results',
        results,
        '--out',
        launch,
        '--data-dir',
        TEST_DATA_DIR,
        '--cpus',
        '1',
        '--retries',
        '0',
      ],
      { cwd: REPO_ROOT, encoding: 'utf8' },
    );
    const submitted = execFileSync('bash', [join(launch, 'submit.sh')], { cwd: REPO_ROOT, encoding: 'utf8' });
    const jobs = [...submitted.matchAll(/(?:array|merge) job (\d+)/gu)].map((m) => m[1]!);
    expect(jobs).toHaveLength(2);
    const whole = join(dir, 'whole.duckdb');
    await runExperiment(await loadExperiment(yaml), {
      out: whole,
      dataDir: TEST_DATA_DIR,
      progress: false,
      log: () => {},
    });
    await drained(jobs);
    const merged = join(results, 'slurm-smoke.duckdb');
    expect(existsSync(merged), `no merged file; see ${results}/logs`).toBe(true);
    for (const table of ['questions', 'retrievals', 'scores', 'score_cis', 'comparisons']) {
      const [a, b] = [await rows(whole, table), await rows(merged, table)];
      expect(b.length, table).toBe(a.length);
      a.forEach((row, i) => expect(b[i], `${table} row ${i}`).toBe(row));
    }
    expect(existsSync(join(results, 'slurm-smoke.html'))).toBe(true);
    expect((await shardStatuses(results)).map((s) => s.state)).toEqual(['done', 'done', 'done']);
  }, 600_000);
});
