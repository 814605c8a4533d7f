/**
 * A bundle's manifest.json: everything a reader needs to know what was run and to check it — harness version and
 * commit with the clean-tree flag, each run's experiment file, config hash and command, the datasets with their
 * pinned revisions, file sha256s and dataset-content hash, the lock-file hash, models, prices, judge panel,
 * memory-server images with digests, the machine, dates, total tokens and cost, the comparability key of each
 * (run, dataset), the signing key's public half, and the sha256 of every other file of the bundle. Written as
 * 2-space JSON with a final newline; the signature (manifest.sig) is over exactly these bytes.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { ImageRecord } from './images.ts';
import type { PublicKeyInfo } from './sign.ts';

export const MANIFEST = 'manifest.json';
export const SIGNATURE = 'manifest.sig';
export const BUNDLE_FORMAT = 'adaptmr-results-bundle';
export const BUNDLE_FORMAT_VERSION = 1;

export interface FileEntry {
  path: string;
  sha256: string;
  bytes: number;
}

/** What makes two (run, dataset) results comparable on a board (src/tools/board). */
export interface ComparabilityKey {
  dataset: string;
  content_sha256: string;
  questions: number;
  sample: unknown;
  k: number[];
  reader: string | null;
  judges: string[];
}

export interface ManifestRun {
  run_id: string;
  name: string;
  status: string;
  config_hash: string;
  experiment_file: { path: string; sha256: string } | null;
  command: string;
  seed: number;
  started_at: string;
  ended_at: string | null;
  git_commit: string | null;
  clean_tree: boolean | null;
  package_versions: Record<string, string>;
  models: Record<string, unknown>;
  prices: unknown;
  datasets: ManifestDataset[];
  methods: {
    method: string;
    kind: string;
    granularity: string;
    k: number;
    degraded: string | null;
    upper_bound: boolean;
  }[];
}

export interface ManifestDataset {
  name: string;
  pinned: unknown;
  files: unknown;
  questions: number;
  content_sha256: string;
  comparability: ComparabilityKey;
}

export interface Manifest {
  format: string;
  format_version: number;
  created_at: string;
  command: string;
  harness: { name: string; version: string; commit: string | null; clean_tree: boolean | null };
  bundler: { version: string; commit: string | null; clean_tree: boolean | null };
  lock_file: { path: string; sha256: string } | null;
  eee: { schema_version: string; repo: string; commit: string };
  machine: Record<string, unknown>;
  runs: ManifestRun[];
  images: ImageRecord[];
  allow_unpinned: boolean;
  totals: {
    llm_calls: number;
    prompt_tokens: number;
    completion_tokens: number;
    cached_tokens: number;
    cost_usd: number;
  };
  signature: (PublicKeyInfo & { file: string }) | null;
  files: FileEntry[];
}

export const sha256Bytes = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

export function fileEntry(dir: string, path: string): FileEntry {
  const bytes = readFileSync(`${dir}/${path}`);
  return { path, sha256: sha256Bytes(bytes), bytes: bytes.length };
}

export const manifestBytes = (m: Manifest): Buffer => Buffer.from(`${JSON.stringify(m, null, 2)}\n`, 'utf8');
