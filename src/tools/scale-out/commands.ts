/**
 * CLI commands for running one experiment past one machine (docs/scale-out.md): `adaptmr launch slurm|k8s` writes
 * the scheduler's files, `adaptmr status <results dir>` reads each shard's state from its files.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CommandModule } from 'yargs';
import { stringify } from 'yaml';
import { intFlag } from '../../core/cli-options.ts';

interface StatusArgs {
  dir: string;
  shards: number | undefined;
  json: boolean;
}

export const statusCommand: CommandModule<object, StatusArgs> = {
  command: 'status <dir>',
  describe: "Each shard's state (queued, running, done, stopped, failed), questions written and cost so far",
  builder: (y) =>
    y
      .positional('dir', {
        type: 'string',
        demandOption: true,
        describe: 'results folder of the shards (shard-<i>.duckdb)',
      })
      .option('shards', intFlag('shards', 1, { describe: 'how many shards the run has (default: as its files say)' }))
      .option('json', { type: 'boolean', default: false, describe: 'one JSON object per shard' }),
  handler: async (argv) => {
    const { formatStatuses, shardStatuses } = await import('./status.ts');
    const statuses = await shardStatuses(argv.dir, argv.shards);
    if (statuses.length === 0) {
      console.log(`no shard files in ${argv.dir} (shard-<i>.duckdb); pass --shards n to list queued shards`);
      return;
    }
    if (argv.json) for (const s of statuses) console.log(JSON.stringify(s));
    else console.log(formatStatuses(statuses));
  },
};

interface LaunchArgv {
  target: 'slurm' | 'k8s';
  experiment: string;
  shards: number;
  results: string;
  out: string;
  'cache-dir': string | undefined;
  'data-dir': string | undefined;
  adaptmr: string | undefined;
  retries: number;
  partition: string | undefined;
  time: string | undefined;
  mem: string | undefined;
  cpus: number;
  image: string | undefined;
  volume: string;
  'data-volume': string | undefined;
  secret: string | undefined;
  namespace: string | undefined;
}

export const launchCommand: CommandModule<object, LaunchArgv> = {
  command: 'launch <target> <experiment>',
  describe: 'Write the Slurm array + merge scripts, or the Kubernetes Indexed Job + merge Job, of a sharded run',
  builder: (y) =>
    y
      .positional('target', { choices: ['slurm', 'k8s'] as const, demandOption: true })
      .positional('experiment', { type: 'string', demandOption: true, describe: 'experiment YAML' })
      .option('shards', {
        ...intFlag('shards', 1, { describe: 'number of shards (array tasks, Job completions)' }),
        demandOption: true,
      })
      .option('results', {
        type: 'string',
        demandOption: true,
        describe: 'shared folder for shard-<i>.duckdb and the merged file',
      })
      .option('out', { type: 'string', demandOption: true, describe: 'folder for the generated files' })
      .option('cache-dir', { type: 'string', describe: 'shared LLM/embedding cache (default <results>/.cache)' })
      .option('data-dir', { type: 'string', describe: 'dataset folder on the nodes (ADAPTMR_DATA_DIR)' })
      .option('adaptmr', {
        type: 'string',
        describe: 'command that starts adaptmr on a node (default: this checkout; k8s: adaptmr)',
      })
      .option('retries', intFlag('retries', 0, { default: 2, describe: 'retries of a failed shard (each resumes)' }))
      .option('cpus', intFlag('cpus', 1, { default: 2, describe: 'CPUs per shard' }))
      .option('partition', { type: 'string', describe: 'Slurm: partition' })
      .option('time', { type: 'string', describe: 'Slurm: time limit per task, e.g. 04:00:00' })
      .option('mem', { type: 'string', describe: 'Slurm: memory per task, e.g. 8G' })
      .option('image', { type: 'string', describe: 'k8s: container image with adaptmr and the experiment' })
      .option('volume', {
        type: 'string',
        default: 'adaptmr-results',
        describe: 'k8s: PersistentVolumeClaim mounted at /results',
      })
      .option('data-volume', {
        type: 'string',
        describe: 'k8s: PersistentVolumeClaim of the datasets, mounted at /data',
      })
      .option('secret', { type: 'string', describe: 'k8s: Secret whose keys become environment variables (API keys)' })
      .option('namespace', { type: 'string', describe: 'k8s: namespace' }),
  handler: async (argv) => {
    const { loadExperiment } = await import('../../run/config/load-config.ts');
    const { launchPlan } = await import('./launch-plan.ts');
    const exp = await loadExperiment(argv.experiment);
    const plan = launchPlan({
      ...argv,
      name: exp.config.name,
      cacheDir: argv['cache-dir'],
      dataDir: argv['data-dir'],
      dataVolume: argv['data-volume'],
    });
    mkdirSync(argv.out, { recursive: true });
    const files = argv.target === 'slurm' ? await slurmFiles(plan) : await k8sFiles(plan);
    for (const [name, text] of files)
      writeFileSync(join(argv.out, name), text, { mode: name.endsWith('.sh') ? 0o755 : 0o644 });
    console.log(
      `${files.map(([n]) => join(argv.out, n)).join(', ')}\nnext: ${join(argv.out, 'submit.sh')}   then: adaptmr status ${plan.results}`,
    );
  },
};

async function slurmFiles(plan: import('./launch-plan.ts').LaunchPlan): Promise<[string, string][]> {
  const { arraySbatch, mergeSbatch, submitSlurm } = await import('./launch-slurm.ts');
  return [
    ['array.sbatch', arraySbatch(plan)],
    ['merge.sbatch', mergeSbatch(plan)],
    ['submit.sh', submitSlurm(plan)],
  ];
}

async function k8sFiles(plan: import('./launch-plan.ts').LaunchPlan): Promise<[string, string][]> {
  const { mergeJob, shardsJob, submitK8s } = await import('./launch-k8s.ts');
  return [
    ['shards-job.yaml', stringify(shardsJob(plan))],
    ['merge-job.yaml', stringify(mergeJob(plan))],
    ['submit.sh', submitK8s(plan)],
  ];
}
