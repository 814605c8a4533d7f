/**
 * What `adaptmr launch` generates from: the experiment (its name, for the merged file), the shard count, where the
 * shards write (a folder every node sees), the shared cache (default `<results>/.cache`: one LLM and embedding cache
 * for all shards, docs/scale-out.md), and each scheduler's own parameters. Paths are made absolute for Slurm (a job
 * runs wherever the scheduler puts it); for Kubernetes they are paths inside the container, as given.
 */
import { isAbsolute, resolve } from 'node:path';
import { InputError } from '../../core/errors.ts';
import { REPO_ROOT } from '../../run/record/provenance.ts';

export interface LaunchPlan {
  name: string;
  experiment: string;
  shards: number;
  results: string;
  /** `<results>/<name>.duckdb` and its HTML report. */
  merged: string;
  report: string;
  /** The command line that starts adaptmr on a node. */
  adaptmr: string;
  workdir: string;
  /** Environment every task gets (the cache folder, the data folder). */
  env: [string, string][];
  retries: number;
  retryDelaySeconds: number;
  slurm: { partition?: string; time?: string; mem?: string; cpus: number };
  k8s: { image: string; resultsClaim: string; dataClaim?: string; secret?: string; namespace?: string; cpus: number };
}

export interface LaunchArgs {
  target: 'slurm' | 'k8s';
  experiment: string;
  name: string;
  shards: number;
  results: string;
  cacheDir?: string | undefined;
  dataDir?: string | undefined;
  adaptmr?: string | undefined;
  retries: number;
  partition?: string | undefined;
  time?: string | undefined;
  mem?: string | undefined;
  cpus: number;
  image?: string | undefined;
  volume: string;
  dataVolume?: string | undefined;
  secret?: string | undefined;
  namespace?: string | undefined;
}

const NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/u;

export function launchPlan(a: LaunchArgs): LaunchPlan {
  const slurm = a.target === 'slurm';
  if (!slurm && !a.image)
    throw new InputError('a Kubernetes launch needs the container image: --image <image>', '--image');
  const path = (p: string): string => (slurm && !isAbsolute(p) ? resolve(p) : p);
  const results = path(a.results).replace(/\/+$/u, '');
  const cache = path(a.cacheDir ?? `${results}/.cache`);
  const env: [string, string][] = [['ADAPTMR_CACHE_DIR', cache]];
  if (a.dataDir) env.push(['ADAPTMR_DATA_DIR', path(a.dataDir)]);
  // Kubernetes object names are DNS labels; an experiment name usually is one already.
  const k8sName = a.name
    .toLowerCase()
    .replace(/[^a-z0-9-]+/gu, '-')
    .replace(/^-+|-+$/gu, '')
    .slice(0, 40);
  if (!slurm && !NAME.test(k8sName)) throw new InputError(`"${a.name}" gives no Kubernetes object name`, 'name');
  return {
    name: slurm ? a.name : k8sName,
    experiment: path(a.experiment),
    shards: a.shards,
    results,
    merged: `${results}/${a.name}.duckdb`,
    report: `${results}/${a.name}.html`,
    adaptmr: a.adaptmr ?? (slurm ? `node ${resolve(REPO_ROOT, 'bin/adaptmr.js')}` : 'adaptmr'),
    // Slurm tasks start where the launch was made, as `adaptmr run` would (relative paths in the config resolve alike).
    workdir: slurm ? process.cwd() : '',
    env,
    retries: a.retries,
    retryDelaySeconds: 30,
    slurm: {
      cpus: a.cpus,
      ...(a.partition ? { partition: a.partition } : {}),
      ...(a.time ? { time: a.time } : {}),
      ...(a.mem ? { mem: a.mem } : {}),
    },
    k8s: {
      image: a.image ?? '',
      resultsClaim: a.volume,
      cpus: a.cpus,
      ...(a.dataVolume ? { dataClaim: a.dataVolume } : {}),
      ...(a.secret ? { secret: a.secret } : {}),
      ...(a.namespace ? { namespace: a.namespace } : {}),
    },
  };
}
