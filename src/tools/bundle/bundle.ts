/**
 * `adaptmr bundle <results.duckdb> --out <dir>`: writes a results bundle — the Every Eval Ever files (eee/), the
 * project's tables as Parquet (tables/), manifest.json and, with a key, manifest.sig. The results file's statistics
 * are brought up to date first (as `adaptmr report` does), so the bundle's derived tables are what its rows give.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KeyObject } from 'node:crypto';
import { InputError } from '../../core/errors.ts';
import { PACKAGE_ROOT, packageVersion } from '../../core/package-root.ts';
import { gitState } from '../../run/record/provenance.ts';
import { openResultStore, type ResultStore } from '../../store/index.ts';
import { refreshStats, statsFingerprint } from '../../store/stats-tables.ts';
import { instanceHashes, rollUp } from './content-hash.ts';
import { EEE_COMMIT, EEE_REPO, EEE_SCHEMA_VERSION } from './eee-schema.ts';
import { checkPinned, imageRecords, type ImageRecord } from './images.ts';
import { keyOf, loadResults, type Results } from './load-results.ts';
import { type ContentFacts, machine, manifestRun } from './manifest-build.ts';
import {
  type Manifest,
  MANIFEST,
  SIGNATURE,
  BUNDLE_FORMAT,
  BUNDLE_FORMAT_VERSION,
  fileEntry,
  manifestBytes,
  sha256Bytes,
} from './manifest.ts';
import { publicKeyInfo, signManifest } from './sign.ts';
import { writeTables } from './tables.ts';
import { writeEee } from './write-eee.ts';
import type { Config } from './config-facts.ts';
import { PLAN_EXPERIMENT_REGISTRY } from '../../plan-experiments/registry.ts';

export interface BundleOptions {
  out: string;
  key?: KeyObject | undefined;
  dataDir?: string | undefined;
  images?: ReadonlyMap<string, string>;
  allowUnpinned?: boolean;
  /** The command line as typed (recorded in the manifest). */
  command: string;
}

function emptyOut(out: string): void {
  if (existsSync(out) && readdirSync(out).length > 0) {
    throw new InputError('the bundle folder is not empty; choose a new --out (a bundle is written whole)', out);
  }
  mkdirSync(out, { recursive: true });
}

async function contentFacts(r: Results, dataDir: string | undefined): Promise<Map<string, ContentFacts>> {
  const out = new Map<string, ContentFacts>();
  for (const run of r.runs) {
    const config = JSON.parse(run.config_json) as Config;
    const byDataset = new Map<string, Set<string>>();
    for (const q of r.questions.filter((x) => x.run_id === run.run_id)) {
      byDataset.set(q.dataset, (byDataset.get(q.dataset) ?? new Set()).add(q.question_id));
    }
    for (const [dataset, ids] of byDataset) {
      const { hashes, pinned } = await instanceHashes(config, dataset, ids, dataDir);
      const missing = [...ids].find((id) => !hashes.has(id));
      if (missing !== undefined) {
        throw new InputError(
          `question ${missing} of run ${run.run_id} is not in the dataset ${dataset} found now; the data changed since the run`,
          dataset,
        );
      }
      out.set(keyOf(run.run_id, dataset), { hashes, contentSha256: rollUp(hashes), pinned });
    }
  }
  return out;
}

async function totals(store: ResultStore): Promise<Manifest['totals']> {
  const [t] = await store.query<Manifest['totals']>(`SELECT count(*)::BIGINT AS llm_calls,
    coalesce(sum(prompt_tokens), 0)::BIGINT AS prompt_tokens, coalesce(sum(completion_tokens), 0)::BIGINT AS completion_tokens,
    coalesce(sum(cached_tokens), 0)::BIGINT AS cached_tokens, coalesce(sum(cost_usd ORDER BY ALL), 0)::DOUBLE AS cost_usd FROM llm_calls`);
  return t!;
}

async function reportedDigests(store: ResultStore): Promise<Map<string, string>> {
  // baselines/memory-server keeps it as the method's checkpoint `server-image` (SERVER_IMAGE_KEY).
  const rows = await store.query<{ run_id: string; method: string; value: string }>(
    `SELECT run_id, method, value FROM checkpoints WHERE key = 'server-image'`,
  );
  return new Map(rows.map((r) => [`${r.run_id}\t${r.method}`, r.value]));
}

function lockFile(): Manifest['lock_file'] {
  const path = join(PACKAGE_ROOT, 'package-lock.json');
  return existsSync(path) ? { path: 'package-lock.json', sha256: sha256Bytes(readFileSync(path)) } : null;
}

type Head = Omit<Manifest, 'files' | 'signature'>;

async function describe(
  store: ResultStore,
  r: Results,
  opts: BundleOptions,
  images: ImageRecord[],
  content: Map<string, ContentFacts>,
): Promise<Head> {
  const first = r.runs[0];
  const git = await gitState();
  return {
    format: BUNDLE_FORMAT,
    format_version: BUNDLE_FORMAT_VERSION,
    created_at: new Date().toISOString(),
    command: opts.command,
    harness: {
      name: 'adaptmr-bench',
      version: String(
        (JSON.parse(first?.package_versions ?? '{}') as Record<string, unknown>)['adaptmr-bench'] ?? 'unknown',
      ),
      commit: first?.git_commit ?? null,
      clean_tree: first?.git_dirty === null || first === undefined ? null : !first.git_dirty,
    },
    bundler: { version: packageVersion(), commit: git.commit, clean_tree: git.dirty === null ? null : !git.dirty },
    lock_file: lockFile(),
    eee: { schema_version: EEE_SCHEMA_VERSION, repo: EEE_REPO, commit: EEE_COMMIT },
    machine: machine(),
    runs: r.runs.map((run) => manifestRun(r, run, content)),
    images,
    allow_unpinned: opts.allowUnpinned === true,
    totals: await totals(store),
  };
}

/** Every file under the bundle folder but the manifest and its signature, as bundle paths in code-point order. */
export function bundleFiles(dir: string, rel = ''): string[] {
  const out: string[] = [];
  for (const e of readdirSync(join(dir, rel), { withFileTypes: true })) {
    const path = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...bundleFiles(dir, path));
    else if (path !== MANIFEST && path !== SIGNATURE) out.push(path);
  }
  return out.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * The results file opened read-only when its statistics are up to date (the common case: every run and report
 * refreshes them), else opened for writing and refreshed, as `adaptmr report` does.
 */
async function openFresh(results: string): Promise<ResultStore> {
  const ro = await openResultStore(results, { readOnly: true });
  const [stored] = await ro.query<{ value: string }>(`SELECT value FROM meta WHERE key = 'stats_fingerprint'`);
  if (stored?.value === (await statsFingerprint(ro))) return ro;
  await ro.close();
  const store = await openResultStore(results);
  try {
    await refreshStats(store, PLAN_EXPERIMENT_REGISTRY);
  } catch (err) {
    await store.close();
    throw err;
  }
  return store;
}

/** Writes the bundle; returns its manifest. */
export async function writeBundle(results: string, opts: BundleOptions): Promise<Manifest> {
  emptyOut(opts.out);
  const store = await openFresh(results);
  try {
    const r = await loadResults(store);
    if (r.runs.length === 0) throw new InputError('the results file holds no run', results);
    const configs = new Map(r.runs.map((run) => [run.run_id, JSON.parse(run.config_json) as Config]));
    const images = imageRecords(r.methods, configs, opts.images ?? new Map(), await reportedDigests(store));
    checkPinned(images, opts.allowUnpinned === true);
    const content = await contentFacts(r, opts.dataDir);
    const head = await describe(store, r, opts, images, content);
    writeEee(opts.out, r, content);
    await writeTables(store, opts.out);
    const signature = opts.key ? { ...publicKeyInfo(opts.key), file: SIGNATURE } : null;
    const manifest: Manifest = { ...head, signature, files: bundleFiles(opts.out).map((p) => fileEntry(opts.out, p)) };
    const bytes = manifestBytes(manifest);
    writeFileSync(join(opts.out, MANIFEST), bytes);
    if (opts.key) writeFileSync(join(opts.out, SIGNATURE), signManifest(bytes, opts.key));
    return manifest;
  } finally {
    await store.close();
  }
}
