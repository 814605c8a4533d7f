/**
 * `adaptmr data pull`: downloads a named dataset into the data directory, pinned and checked.
 * - LongMemEval from the Hugging Face dataset `xiaowu0162/longmemeval-cleaned` through `@huggingface/hub`: the asked
 *   revision (default `main`) is resolved to its 40-hex commit (`datasetInfo`, field `sha`) and the file is fetched
 *   at that commit. The library ignores `HF_ENDPOINT`; the endpoint comes from `hubUrl` / ADAPTMR_HF_ENDPOINT. Plain
 *   HTTP (`xet: false`) is used so any hub mirror that serves `resolve/` URLs works.
 * - LoCoMo from GitHub raw `snap-research/locomo` at a pinned commit, checked against its pinned sha256
 *   (docs/datasets.md §1); a mismatch deletes the download.
 * - A dataset whose benchmark pins GitHub files (`BenchmarkDataset.pin`, benchmarks/<name>/) from GitHub raw at the
 *   pinned commit, every file checked against its pinned sha256 and size (base from `githubBaseUrl` /
 *   ADAPTMR_GITHUB_RAW_URL). A dataset stitched into another's file (`companion`) pulls that one too when the data
 *   directory lacks it.
 * Each pull streams to a temp file, renames it, and records repo, revisions, sha256 and size in the lock file
 * (a many-file dataset: its folder, every file's digest, and the sha256 of that listing).
 * A file already present whose lock entry matches the asked revision and whose sha256 verifies is skipped.
 */
import { existsSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import type { BenchmarkDataset } from '../core/benchmark.ts';
import { datasetEntry, datasetNames } from '../core/benchmarks-installed.ts';
import { unknownName } from '../core/registry.ts';
import { readSecret, registerSecret } from '../core/secrets.ts';
import { describeNetworkError, errorMessage, InputError, oneLine, ServiceCallError } from '../core/errors.ts';
import { fetchWithAuthorization, splitUrlCredentials } from '../core/http-url.ts';
import { cappedFetch } from '../core/reply-limit.ts';
import { downloadTo, type Downloaded } from './download.ts';
import { sha256File } from './hash.ts';
import { listingSha256, readLock, verifyLockedFiles, writeLockEntry, type LockEntry, type LockedFile } from './lock.ts';
import { dataDirs, primaryDataDir } from './source.ts';

export const LONGMEMEVAL_REPO = 'xiaowu0162/longmemeval-cleaned';
type LongMemEvalName = 'longmemeval-oracle' | 'longmemeval-s' | 'longmemeval-m';
export const LONGMEMEVAL_FILES: Record<LongMemEvalName, string> = {
  'longmemeval-oracle': 'longmemeval_oracle.json',
  'longmemeval-s': 'longmemeval_s_cleaned.json',
  'longmemeval-m': 'longmemeval_m_cleaned.json',
};
export const LOCOMO_REPO = 'snap-research/locomo';
export const LOCOMO_COMMIT = '3eb6f2c585f5e1699204e3c3bdf7adc5c28cb376';
export const LOCOMO_PATH = 'data/locomo10.json';
export const LOCOMO_SHA256 = '79fa87e90f04081343b8c8debecb80a9a6842b76a7aa537dc9fdf651ea698ff4';
/** Largest hub API (JSON) reply read. */
const HUB_API_MAX_BYTES = 1024 * 1024;
/** Size of the file with that sha256: a longer body is stopped while it streams. */
export const LOCOMO_BYTES = 2_805_274;

export interface PullOptions {
  dataDir: string;
  /** LongMemEval revision (branch, tag or commit); default `main`. LoCoMo is always the pinned commit. */
  revision?: string | undefined;
  /** Hub endpoint; default ADAPTMR_HF_ENDPOINT, then https://huggingface.co. */
  hubUrl?: string | undefined;
  /** Base of the LoCoMo raw URL; default ADAPTMR_LOCOMO_URL, then https://raw.githubusercontent.com. */
  locomoBaseUrl?: string | undefined;
  /** Base of the GitHub raw URLs of pinned files; default ADAPTMR_GITHUB_RAW_URL, then https://raw.githubusercontent.com. */
  githubBaseUrl?: string | undefined;
  /** Download even when a verified copy is present. */
  force?: boolean | undefined;
  /** HF token for gated/private mirrors; default HF_TOKEN if set. */
  accessToken?: string | undefined;
  log?: ((line: string) => void) | undefined;
}

export interface PullResult {
  dataset: string;
  status: 'downloaded' | 'present';
  path: string;
  entry: LockEntry;
}

const HEX40 = /^[0-9a-f]{40}$/;

function unquoteEtag(etag: string): string {
  return etag.replace(/^W\//, '').replace(/^"|"$/g, '');
}

async function presentAndVerified(
  dataDir: string,
  name: string,
  dest: string,
  revision: string,
  force: boolean,
): Promise<LockEntry | undefined> {
  const entry = (await readLock(dataDir)).datasets[name];
  if (!entry || !existsSync(dest) || resolve(dataDir, entry.path) !== dest) return undefined;
  const { sha256 } = await sha256File(dest);
  if (sha256 !== entry.sha256) {
    if (force) return undefined;
    throw new InputError(
      `sha256 ${sha256} differs from ${entry.sha256} in the lock file; the file changed or is damaged. ` +
        `Delete it or run \`adaptmr data pull ${name} --force\`.`,
      dest,
    );
  }
  if (force || (entry.revision !== revision && entry.commit !== revision)) return undefined;
  return entry;
}

/**
 * The hub endpoint and the credentials of every request to it: the token (HF_TOKEN), and for a mirror behind basic
 * auth (`https://user:pass@mirror`) — fetch refuses a URL with credentials — the Authorization header of every
 * request to the mirror (src/core/http-url.ts), so the credentials appear nowhere else.
 */
function hubAccess(opts: PullOptions) {
  const hub = splitUrlCredentials(
    (opts.hubUrl ?? process.env.ADAPTMR_HF_ENDPOINT ?? 'https://huggingface.co').replace(/\/+$/, ''),
  );
  const hubUrl = hub.url;
  const accessToken = opts.accessToken ?? readSecret('HF_TOKEN');
  registerSecret(accessToken);
  const creds = {
    ...(accessToken ? { accessToken } : {}),
    ...(hub.authorization !== undefined
      ? { fetch: fetchWithAuthorization(hub.authorization, new URL(hubUrl).origin) }
      : {}),
  };
  return { hubUrl, creds };
}

async function pullLongMemEval(name: LongMemEvalName, opts: PullOptions): Promise<PullResult> {
  const dataDir = primaryDataDir(opts.dataDir);
  const log = opts.log ?? (() => undefined);
  const file = LONGMEMEVAL_FILES[name];
  const dest = join(dataDir, 'longmemeval', file);
  const revision = opts.revision ?? 'main';
  const present = await presentAndVerified(dataDir, name, dest, revision, opts.force === true);
  if (present) {
    log(`${name}: already present and verified (${present.repo}@${present.commit}, sha256 ${present.sha256}); skipped`);
    return { dataset: name, status: 'present', path: dest, entry: present };
  }
  const { hubUrl, creds } = hubAccess(opts);
  const repo = { type: 'dataset' as const, name: LONGMEMEVAL_REPO };
  const where = `${hubUrl} ${LONGMEMEVAL_REPO}@${revision}`;
  // The hub client loads only when something is downloaded.
  const { datasetInfo, downloadFile, fileDownloadInfo } = await import('@huggingface/hub');
  let commit: string;
  try {
    // The hub's JSON answer is read through the reply cap (src/core/reply-limit.ts); the file itself is capped below.
    const info = await datasetInfo({
      name: LONGMEMEVAL_REPO,
      revision,
      hubUrl,
      additionalFields: ['sha'],
      ...creds,
      fetch: cappedFetch(HUB_API_MAX_BYTES, 'hub API reply', creds.fetch),
    });
    commit = String(info.sha);
  } catch (err) {
    throw new InputError(`cannot resolve revision (${oneLine(errorMessage(err))})`, where);
  }
  if (!HEX40.test(commit)) throw new InputError(`hub returned "${commit}" as the commit id`, where);
  log(`${name}: ${LONGMEMEVAL_REPO}@${revision} → commit ${commit}`);
  const info = await fileDownloadInfo({ repo, path: file, revision: commit, hubUrl, ...creds });
  if (!info) throw new InputError(`file ${file} not found at commit ${commit}`, where);
  const blob = await downloadFile({
    repo,
    path: file,
    revision: commit,
    hubUrl,
    xet: false,
    downloadInfo: info,
    ...creds,
  });
  if (!blob) throw new InputError(`file ${file} not found at commit ${commit}`, where);
  log(`${name}: downloading ${file} (${info.size} bytes) to ${dest}`);
  const etag = unquoteEtag(info.etag);
  const got = await downloadTo(
    blob.stream(),
    dest,
    (d: Downloaded) => {
      if (d.bytes !== info.size)
        throw new InputError(`got ${d.bytes} bytes, the hub announced ${info.size}`, `${where} ${file}`);
      // For LFS/xet files the hub's ETag is the file's sha256: check it when it has that shape.
      if (/^[0-9a-f]{64}$/.test(etag) && etag !== d.sha256) {
        throw new InputError(`sha256 ${d.sha256} differs from the hub's ETag ${etag}`, `${where} ${file}`);
      }
    },
    { source: `${where} ${file}`, maxBytes: info.size },
  );
  const entry: LockEntry = {
    dataset: name,
    repo: `hf-dataset:${LONGMEMEVAL_REPO}`,
    revision,
    commit,
    path: relative(dataDir, dest),
    sha256: got.sha256,
    bytes: got.bytes,
    url: `${hubUrl}/datasets/${LONGMEMEVAL_REPO}/resolve/${commit}/${file}`,
    fetchedAt: new Date().toISOString(),
  };
  await writeLockEntry(dataDir, entry);
  log(`${name}: done, sha256 ${got.sha256}`);
  return { dataset: name, status: 'downloaded', path: dest, entry };
}

async function pullLocomo(opts: PullOptions): Promise<PullResult> {
  const dataDir = primaryDataDir(opts.dataDir);
  const log = opts.log ?? (() => undefined);
  const dest = join(dataDir, 'locomo', 'locomo10.json');
  if (opts.revision !== undefined && opts.revision !== LOCOMO_COMMIT) {
    throw new InputError(
      `LoCoMo is pinned to commit ${LOCOMO_COMMIT} (its sha256 is checked); --revision does not apply`,
    );
  }
  const present = await presentAndVerified(dataDir, 'locomo', dest, LOCOMO_COMMIT, opts.force === true);
  if (present) {
    log(`locomo: already present and verified (sha256 ${present.sha256}); skipped`);
    return { dataset: 'locomo', status: 'present', path: dest, entry: present };
  }
  const base = (opts.locomoBaseUrl ?? process.env.ADAPTMR_LOCOMO_URL ?? 'https://raw.githubusercontent.com').replace(
    /\/+$/,
    '',
  );
  const url = `${base}/${LOCOMO_REPO}/${LOCOMO_COMMIT}/${LOCOMO_PATH}`;
  log(`locomo: downloading ${url}`);
  const res = await fetch(url).catch((err: unknown) => {
    throw new ServiceCallError(`${url}: cannot download: ${describeNetworkError(err)}`, { cause: err });
  });
  if (!res.ok || !res.body) throw new InputError(`HTTP ${res.status} ${res.statusText}`, url);
  const got = await downloadTo(
    res.body,
    dest,
    (d) => {
      if (d.sha256 !== LOCOMO_SHA256) {
        throw new InputError(
          `sha256 ${d.sha256} differs from the pinned ${LOCOMO_SHA256}; the download was discarded`,
          url,
        );
      }
    },
    { source: url, maxBytes: LOCOMO_BYTES },
  );
  const entry: LockEntry = {
    dataset: 'locomo',
    repo: `github:${LOCOMO_REPO}`,
    revision: LOCOMO_COMMIT,
    commit: LOCOMO_COMMIT,
    path: relative(dataDir, dest),
    sha256: got.sha256,
    bytes: got.bytes,
    url,
    fetchedAt: new Date().toISOString(),
  };
  await writeLockEntry(dataDir, entry);
  log(`locomo: done, sha256 ${got.sha256}`);
  return { dataset: 'locomo', status: 'downloaded', path: dest, entry };
}

async function fetchBody(url: string): Promise<ReadableStream<Uint8Array>> {
  const res = await fetch(url).catch((err: unknown) => {
    throw new ServiceCallError(`${url}: cannot download: ${describeNetworkError(err)}`, { cause: err });
  });
  if (!res.ok || !res.body) throw new InputError(`HTTP ${res.status} ${res.statusText}`, url);
  return res.body;
}

/**
 * A dataset of several pinned GitHub files (`BenchmarkDataset.pin`): each file already present with its pinned sha256 is kept, each
 * other one downloaded and checked (size and sha256; a mismatch discards the download and fails the pull); the
 * lock entry lists every file.
 */
async function pullPinned(dataset: BenchmarkDataset, opts: PullOptions): Promise<PullResult> {
  const { name, pin, companion } = dataset;
  if (!pin) throw new Error(`${name} has no pinned files`);
  const dataDir = primaryDataDir(opts.dataDir);
  const log = opts.log ?? (() => undefined);
  const root = join(dataDir, pin.localRoot);
  if (opts.revision !== undefined && opts.revision !== pin.commit) {
    throw new InputError(
      `${name} is pinned to ${pin.repo}@${pin.commit} (every file's sha256 is checked); --revision does not apply`,
    );
  }
  const files: LockedFile[] = pin.files.map(([path, sha256, bytes]) => ({ path, sha256, bytes }));
  const base = (
    opts.githubBaseUrl ??
    process.env.ADAPTMR_GITHUB_RAW_URL ??
    'https://raw.githubusercontent.com'
  ).replace(/\/+$/, '');
  const urlRoot = `${base}/${pin.repo}/${pin.commit}/${pin.upstreamRoot}`;
  const entry: LockEntry = {
    dataset: name,
    repo: `github:${pin.repo}`,
    revision: pin.commit,
    commit: pin.commit,
    path: pin.localRoot,
    sha256: listingSha256(files),
    bytes: files.reduce((s, f) => s + f.bytes, 0),
    url: urlRoot,
    fetchedAt: new Date().toISOString(),
    files,
  };
  if (companion && !dataDirs(opts.dataDir).some((d) => existsSync(join(d, companion.rel)))) {
    log(`${name}: it is stitched into ${companion.dataset}, which is missing; pulling ${companion.dataset} first`);
    await pullDataset(companion.dataset, opts);
  }
  const locked = (await readLock(dataDir)).datasets[name];
  if (
    !opts.force &&
    locked?.commit === pin.commit &&
    locked.files &&
    (await verifyLockedFiles(dataDir, locked)).length === 0
  ) {
    log(`${name}: already present and verified (${pin.repo}@${pin.commit}, ${files.length} files); skipped`);
    return { dataset: name, status: 'present', path: root, entry: locked };
  }
  let fetched = 0;
  for (const f of files) {
    const dest = join(root, f.path);
    if (!opts.force && existsSync(dest)) {
      const have = await sha256File(dest);
      if (have.sha256 === f.sha256) continue;
      log(`${name}: ${f.path} differs from the pinned sha256; downloading it again`);
    }
    const url = `${urlRoot}/${f.path}`;
    log(`${name}: downloading ${url}`);
    await downloadTo(await fetchBody(url), dest, (d) => {
      if (d.bytes !== f.bytes || d.sha256 !== f.sha256) {
        throw new InputError(
          `got ${d.bytes} bytes with sha256 ${d.sha256}; pinned ${f.bytes} bytes, ${f.sha256}; the download was discarded`,
          url,
        );
      }
    });
    fetched++;
  }
  await writeLockEntry(dataDir, entry);
  log(`${name}: done, ${fetched} of ${files.length} files downloaded, all verified`);
  return { dataset: name, status: fetched > 0 ? 'downloaded' : 'present', path: root, entry };
}

export async function pullDataset(name: string, opts: PullOptions): Promise<PullResult> {
  if (name === 'locomo') return pullLocomo(opts);
  const pinned = datasetEntry(name)?.dataset;
  if (pinned?.pin) return pullPinned(pinned, opts);
  if (!(name in LONGMEMEVAL_FILES)) throw new InputError(unknownName('dataset', name, datasetNames()));
  return pullLongMemEval(name as LongMemEvalName, opts);
}
