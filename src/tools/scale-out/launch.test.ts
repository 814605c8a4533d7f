/**
 * `adaptmr launch`'s files: the Kubernetes Jobs are valid `batch/v1` Jobs under the JSON schema generated from the
 * Kubernetes OpenAPI spec (kubernetes-models, tommy351/kubernetes-models-ts), an invalid one is caught by the same
 * check, and the Slurm scripts are an n-task array that resumes and a merge of exactly those n files.
 * `adaptmr status` reads a folder: a missing shard is queued. (Running them: slurm.test.ts, run-shards.test.ts.)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Job } from 'kubernetes-models/batch/v1';
import { afterAll, describe, expect, it } from 'vitest';
import { mergeJob, shardsJob } from './launch-k8s.ts';
import { type LaunchArgs, launchPlan } from './launch-plan.ts';
import { arraySbatch, mergeSbatch, submitSlurm } from './launch-slurm.ts';
import { shardStatuses } from './status.ts';

const base: LaunchArgs = {
  target: 'k8s',
  experiment: 'experiments/quickstart.yaml',
  name: 'quickstart',
  shards: 4,
  results: '/results/quickstart',
  dataDir: '/data',
  retries: 2,
  cpus: 2,
  image: 'registry.example/adaptmr:1.0',
  volume: 'adaptmr-results',
  dataVolume: 'datasets',
  secret: 'llm-keys',
};

describe('adaptmr launch k8s', () => {
  const plan = launchPlan(base);
  it('writes an Indexed Job and a merge Job that are valid batch/v1 Jobs', () => {
    for (const manifest of [shardsJob(plan), mergeJob(plan)]) expect(() => new Job(manifest).validate()).not.toThrow();
    const spec = shardsJob(plan).spec as Record<string, unknown>;
    expect(spec).toMatchObject({ completionMode: 'Indexed', completions: 4, parallelism: 4, backoffLimitPerIndex: 2 });
    expect(JSON.stringify(shardsJob(plan))).toContain('shard-$((JOB_COMPLETION_INDEX + 1)).duckdb');
    expect(JSON.stringify(mergeJob(plan))).toContain("'/results/quickstart'/shard-4.duckdb");
    expect(JSON.stringify(mergeJob(plan))).not.toContain('shard-5.duckdb');
  });
  it('the schema check is not a formality: a Job with completions as a string is refused', () => {
    const bad = shardsJob(plan);
    (bad.spec as Record<string, unknown>).completions = '4';
    expect(() => new Job(bad).validate()).toThrow(/completions/);
  });
  it('needs an image, and says so', () => {
    expect(() => launchPlan({ ...base, image: undefined })).toThrow(/--image/);
  });
});

describe('adaptmr launch slurm', () => {
  const plan = launchPlan({ ...base, target: 'slurm', results: 'res/中文', dataDir: undefined });
  it('an array of n tasks, requeued and retried, each writing its own shard file; a merge of exactly those files', () => {
    const array = arraySbatch(plan);
    expect(array).toContain('#SBATCH --array=1-4\n');
    expect(array).toContain('#SBATCH --requeue');
    expect(array).toMatch(/--shards 4 --out '[^']*\/res\/中文'\/shard-\$\{SLURM_ARRAY_TASK_ID\}\.duckdb/);
    expect(array).toContain('for attempt in $(seq 0 2)');
    const merge = mergeSbatch(plan);
    expect(merge.match(/shard-\d\.duckdb/g)).toEqual([
      'shard-1.duckdb',
      'shard-2.duckdb',
      'shard-3.duckdb',
      'shard-4.duckdb',
    ]);
    expect(merge).toContain('--html');
    expect(submitSlurm(plan)).toContain('--dependency=afterok:"$array"');
  });
});

describe('adaptmr status', () => {
  const dir = mkdtempSync(join(tmpdir(), 'adaptmr-status-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  it('lists every shard of the count given, queued when it has no file yet', async () => {
    const s = await shardStatuses(dir, 3);
    expect(s.map((x) => [x.index, x.state, x.questions])).toEqual([
      [1, 'queued', 0],
      [2, 'queued', 0],
      [3, 'queued', 0],
    ]);
  });
});
