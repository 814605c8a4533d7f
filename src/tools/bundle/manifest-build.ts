/**
 * Assembles a manifest's description of the runs (everything but the file list and the signature, which
 * bundle.ts adds last): per run its experiment file (the committed `experiments/*.yaml` whose `name` is the run's,
 * with its sha256 now), the command that reruns it, models, prices, datasets with pinned revisions and content
 * hashes, and the comparability key a board groups on.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { cpus, platform, arch, totalmem, release } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { PACKAGE_ROOT } from '../../core/package-root.ts';
import { type Config, datasetEntry, judgePanel, modelsOf, pricesOf, roleModel } from './config-facts.ts';
import { keyOf, type Results, type RunFacts } from './load-results.ts';
import { type ManifestDataset, type ManifestRun, sha256Bytes } from './manifest.ts';

export interface ContentFacts {
  hashes: ReadonlyMap<string, string>;
  contentSha256: string;
  pinned: unknown;
}

/** The committed experiment file whose `name` is the run's, if one is. */
export function experimentFile(name: string): { path: string; sha256: string } | null {
  const dir = join(PACKAGE_ROOT, 'experiments');
  if (!existsSync(dir)) return null;
  for (const f of readdirSync(dir)
    .filter((x) => /\.ya?ml$/u.test(x))
    .sort()) {
    const bytes = readFileSync(join(dir, f));
    let doc: unknown;
    try {
      doc = parse(bytes.toString('utf8'));
    } catch {
      continue;
    }
    if ((doc as { name?: unknown } | null)?.name === name)
      return { path: `experiments/${f}`, sha256: sha256Bytes(bytes) };
  }
  return null;
}

function datasetFacts(r: Results, run: RunFacts, config: Config, name: string, c: ContentFacts): ManifestDataset {
  const questions = r.questions.filter((q) => q.run_id === run.run_id && q.dataset === name).length;
  const ks = [...new Set(r.methods.filter((m) => m.run_id === run.run_id).map((m) => m.k))].sort((a, b) => a - b);
  const hashes = JSON.parse(run.dataset_hashes) as Record<string, unknown>;
  return {
    name,
    pinned: c.pinned,
    files: hashes[name] ?? null,
    questions,
    content_sha256: c.contentSha256,
    comparability: {
      dataset: name,
      content_sha256: c.contentSha256,
      questions,
      sample: datasetEntry(config, name).sample ?? null,
      k: ks,
      reader: roleModel(config, 'reader'),
      judges: judgePanel(config).map((j) => `${j.id}:${j.model}:${j.prompt ?? 'default'}`),
    },
  };
}

export function manifestRun(r: Results, run: RunFacts, content: ReadonlyMap<string, ContentFacts>): ManifestRun {
  const config = JSON.parse(run.config_json) as Config;
  const file = experimentFile(run.name);
  const datasets = [...new Set(r.questions.filter((q) => q.run_id === run.run_id).map((q) => q.dataset))];
  return {
    run_id: run.run_id,
    name: run.name,
    status: run.status,
    config_hash: run.config_hash,
    experiment_file: file,
    command: file ? `adaptmr run ${file.path}` : `adaptmr run <the experiment file named ${run.name}>`,
    seed: run.seed,
    started_at: run.started_at,
    ended_at: run.ended_at,
    git_commit: run.git_commit,
    clean_tree: run.git_dirty === null ? null : !run.git_dirty,
    package_versions: JSON.parse(run.package_versions) as Record<string, string>,
    models: modelsOf(config),
    prices: pricesOf(config),
    datasets: datasets.map((d) => datasetFacts(r, run, config, d, content.get(keyOf(run.run_id, d))!)),
    methods: r.methods
      .filter((m) => m.run_id === run.run_id)
      .map((m) => ({
        method: m.method,
        kind: m.kind,
        granularity: m.granularity,
        k: m.k,
        degraded: m.degraded,
        upper_bound: m.upper_bound,
      })),
  };
}

export function machine(): Record<string, unknown> {
  return {
    note: 'the machine that wrote the bundle (a results file records no machine)',
    platform: platform(),
    release: release(),
    arch: arch(),
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    memory_bytes: totalmem(),
    node: process.version,
  };
}
