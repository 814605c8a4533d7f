// `data pull` against loopback servers: a fake Hugging Face hub answering the endpoints @huggingface/hub calls
// (revision → commit via /api/datasets/<repo>/revision/<rev>; /resolve/<commit>/<file> probed with
// `Range: bytes=0-0`, redirected to a CDN URL as the hub does for LFS files, then fetched whole) and a fake
// GitHub raw server serving the real locomo10.json (so its pinned sha256 verifies) or a corrupted copy.
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { InputError, ServiceCallError, userFacingMessage } from '../core/errors.ts';
import { ensureDataset, loadDataset, readLock, summarize } from './index.ts';
import { pullDataset } from './pull.ts';
import { LOCOMO_PIN } from '../../benchmarks/locomo/pins.ts';
import { LONGMEMEVAL_REPO } from '../../benchmarks/longmemeval/pins.ts';

const LOCOMO_COMMIT = LOCOMO_PIN.commit;
import { dataPath, longMemEvalFiles } from '../../test/data-path.ts';

const COMMIT_MAIN = 'a'.repeat(40);
const COMMIT_V1 = '0123456789abcdef0123456789abcdef01234567';
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

// Small generated LongMemEval files: 20 (resp. 5) real oracle items joined into one array.
const items = (await longMemEvalFiles('longmemeval-oracle'))
  .slice(0, 20)
  .map((f) => JSON.parse(readFileSync(f, 'utf8')) as unknown);
const FILES: Record<string, Record<string, Buffer>> = {
  [COMMIT_MAIN]: { 'longmemeval_oracle.json': Buffer.from(JSON.stringify(items)) },
  [COMMIT_V1]: { 'longmemeval_oracle.json': Buffer.from(JSON.stringify(items.slice(0, 5))) },
};
const REVISIONS: Record<string, string> = {
  main: COMMIT_MAIN,
  v1: COMMIT_V1,
  [COMMIT_MAIN]: COMMIT_MAIN,
  [COMMIT_V1]: COMMIT_V1,
};
const locomoReal = readFileSync(dataPath('locomo/locomo10.json'));

let hub: Server;
let raw: Server;
let hubUrl: string;
let rawUrl: string;
let requests: string[] = [];
let badEtag = false;
let corruptLocomo = false;
/** The raw server's misbehaviour: cut the body off midway, or stream it without end. */
let locomoFault: 'cut' | 'endless' | undefined;
/** The hub as a mirror behind basic auth: every request must carry this Authorization header. */
let requireAuth: string | undefined;
let authSeen: string[] = [];
/** The hub's API answers with a JSON body that never ends. */
let hubEndless = false;
let dir: string;

function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<[Server, string]> {
  const server = createServer(handler);
  return new Promise((ok) =>
    server.listen(0, '127.0.0.1', () => ok([server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`])),
  );
}

/** Serves `body` honouring a `Range: bytes=a-b` header as the hub's CDN does. */
function sendBytes(req: IncomingMessage, res: ServerResponse, body: Buffer, etag: string): void {
  const range = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? '');
  const headers = { etag: `"${etag}"`, 'accept-ranges': 'bytes', 'content-type': 'application/octet-stream' };
  if (range) {
    const start = Number(range[1]);
    const end = Math.min(Number(range[2]), body.length - 1);
    res.writeHead(206, {
      ...headers,
      'content-range': `bytes ${start}-${end}/${body.length}`,
      'content-length': end - start + 1,
    });
    res.end(body.subarray(start, end + 1));
  } else {
    res.writeHead(200, { ...headers, 'content-length': body.length });
    res.end(body);
  }
}

function hubHandler(req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://x');
  authSeen.push(req.headers.authorization ?? '');
  if (requireAuth !== undefined && req.headers.authorization !== requireAuth) {
    // A mirror that echoes what it got, as proxies' error pages do.
    res.writeHead(401, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: `unauthorized: ${req.headers.authorization ?? 'no credentials'} for ${req.url}` }));
    return;
  }
  requests.push(`${req.method} ${url.pathname}${req.headers.range ? ` [${req.headers.range}]` : ''}`);
  const api = new RegExp(`^/api/datasets/${LONGMEMEVAL_REPO}/revision/([^/]+)$`).exec(url.pathname);
  if (api && hubEndless) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"sha":"');
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    const pump = (): void => {
      while (!res.destroyed && res.write(chunk));
      if (!res.destroyed) res.once('drain', pump);
    };
    res.on('close', () => res.removeAllListeners('drain'));
    pump();
    return;
  }
  if (api) {
    const commit = REVISIONS[decodeURIComponent(api[1]!)];
    if (!commit) {
      res.writeHead(404, { 'content-type': 'application/json', 'x-error-code': 'RevisionNotFound' });
      res.end(JSON.stringify({ error: 'Invalid rev id' }));
      return;
    }
    // The fields datasetInfo reads, plus `sha` because it is asked for with expand=sha.
    expect(url.searchParams.getAll('expand')).toContain('sha');
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        _id: 'x',
        id: LONGMEMEVAL_REPO,
        private: false,
        downloads: 1,
        likes: 0,
        gated: false,
        lastModified: '2025-09-01T00:00:00.000Z',
        sha: commit,
      }),
    );
    return;
  }
  const resolve = new RegExp(`^/datasets/${LONGMEMEVAL_REPO}/resolve/([^/]+)/(.+)$`).exec(url.pathname);
  if (resolve) {
    const commit = REVISIONS[decodeURIComponent(resolve[1]!)];
    const body = commit ? FILES[commit]?.[resolve[2]!] : undefined;
    if (!commit || !body) {
      res.writeHead(404, { 'x-error-code': 'EntryNotFound', 'content-type': 'text/plain' });
      res.end('Entry not found');
      return;
    }
    // LFS files: the hub answers 302 to the CDN with X-Repo-Commit and X-Linked-* headers.
    res.writeHead(302, {
      location: `/cdn/${commit}/${resolve[2]}`,
      'x-repo-commit': commit,
      'x-linked-etag': `"${sha256(body)}"`,
      'x-linked-size': String(body.length),
    });
    res.end();
    return;
  }
  const cdn = /^\/cdn\/([0-9a-f]{40})\/(.+)$/.exec(url.pathname);
  const body = cdn ? FILES[cdn[1]!]?.[cdn[2]!] : undefined;
  if (body) {
    sendBytes(req, res, body, badEtag ? 'f'.repeat(64) : sha256(body));
    return;
  }
  res.writeHead(404);
  res.end();
}

beforeAll(async () => {
  [hub, hubUrl] = await listen(hubHandler);
  [raw, rawUrl] = await listen((req, res) => {
    requests.push(`GET ${req.url}`);
    if (req.url === `/snap-research/locomo/${LOCOMO_COMMIT}/data/locomo10.json`) {
      const body = corruptLocomo
        ? Buffer.concat([locomoReal.subarray(0, 1000), Buffer.from('x'), locomoReal.subarray(1001)])
        : locomoReal;
      if (locomoFault === 'cut') {
        // The announced length, half the bytes, then the connection drops.
        res.writeHead(200, { 'content-length': body.length });
        res.write(body.subarray(0, body.length >> 1), () => res.destroy());
        return;
      }
      if (locomoFault === 'endless') {
        // Chunked, without end: only the client's limit stops it.
        res.writeHead(200, { 'content-type': 'application/json' });
        const chunk = Buffer.alloc(64 * 1024, 0x20);
        const pump = (): void => {
          while (!res.destroyed && res.write(chunk));
          if (!res.destroyed) res.once('drain', pump);
        };
        res.on('close', () => res.removeAllListeners('drain'));
        pump();
        return;
      }
      res.writeHead(200, { 'content-length': body.length });
      res.end(body);
    } else {
      res.writeHead(404);
      res.end();
    }
  });
});
afterAll(() => {
  hub.close();
  raw.close();
});
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'adaptmr-pull-'));
  requests = [];
  badEtag = false;
  corruptLocomo = false;
  locomoFault = undefined;
  requireAuth = undefined;
  authSeen = [];
  hubEndless = false;
  return () => rmSync(dir, { recursive: true, force: true });
});

const leftovers = (sub: string) =>
  existsSync(join(dir, sub)) ? readdirSync(join(dir, sub)).filter((f) => f.endsWith('.part')) : [];

describe('pull longmemeval from the hub', () => {
  it('resolves main to a commit, downloads at that commit, writes the lock, then skips a verified copy', async () => {
    const r = await pullDataset('longmemeval-oracle', { dataDir: dir, hubUrl });
    expect(r.status).toBe('downloaded');
    const body = FILES[COMMIT_MAIN]!['longmemeval_oracle.json']!;
    expect(readFileSync(join(dir, 'longmemeval', 'longmemeval_oracle.json')).equals(body)).toBe(true);
    expect(requests[0]).toBe(`GET /api/datasets/${LONGMEMEVAL_REPO}/revision/main`);
    // Every file request names the resolved commit, never the moving branch.
    expect(requests.filter((q) => q.includes('/resolve/')).every((q) => q.includes(`/resolve/${COMMIT_MAIN}/`))).toBe(
      true,
    );
    expect(requests).toContain(
      `GET /datasets/${LONGMEMEVAL_REPO}/resolve/${COMMIT_MAIN}/longmemeval_oracle.json [bytes=0-0]`,
    );
    const lock = await readLock(dir);
    expect(lock.datasets['longmemeval-oracle']).toMatchObject({
      dataset: 'longmemeval-oracle',
      repo: `hf-dataset:${LONGMEMEVAL_REPO}`,
      revision: 'main',
      commit: COMMIT_MAIN,
      path: join('longmemeval', 'longmemeval_oracle.json'),
      sha256: sha256(body),
      bytes: body.length,
    });
    const loaded = await loadDataset({ name: 'longmemeval-oracle' }, dir);
    expect(loaded.source.kind).toBe('file');
    expect(summarize('o', loaded.instances).questions).toBe(20);

    requests = [];
    const again = await pullDataset('longmemeval-oracle', { dataDir: dir, hubUrl });
    expect(again.status).toBe('present');
    expect(requests).toEqual([]);
  });

  it('a tampered file fails loadDataset and pull; --force downloads again', async () => {
    await pullDataset('longmemeval-oracle', { dataDir: dir, hubUrl });
    const file = join(dir, 'longmemeval', 'longmemeval_oracle.json');
    appendFileSync(file, ' ');
    await expect(loadDataset({ name: 'longmemeval-oracle' }, dir)).rejects.toThrow(
      /sha256 .* differs .*adaptmr-data\.lock\.json/,
    );
    await expect(pullDataset('longmemeval-oracle', { dataDir: dir, hubUrl })).rejects.toBeInstanceOf(InputError);
    const forced = await pullDataset('longmemeval-oracle', { dataDir: dir, hubUrl, force: true });
    expect(forced.status).toBe('downloaded');
    await expect(loadDataset({ name: 'longmemeval-oracle' }, dir)).resolves.toBeTruthy();
  });

  it('another revision re-downloads and records its commit; the endpoint can come from ADAPTMR_HF_ENDPOINT', async () => {
    await pullDataset('longmemeval-oracle', { dataDir: dir, hubUrl });
    process.env.ADAPTMR_HF_ENDPOINT = hubUrl;
    try {
      const r = await pullDataset('longmemeval-oracle', { dataDir: dir, revision: 'v1' });
      expect(r.status).toBe('downloaded');
      expect(r.entry).toMatchObject({ revision: 'v1', commit: COMMIT_V1 });
    } finally {
      delete process.env.ADAPTMR_HF_ENDPOINT;
    }
    const { instances } = await loadDataset({ name: 'longmemeval-oracle' }, dir);
    expect(instances).toHaveLength(5);
  });

  it('a mirror URL with credentials (ADAPTMR_HF_ENDPOINT) sends them as Basic auth and records them nowhere', async () => {
    const password = 'mirror-Pa55-9e7c1d';
    requireAuth = `Basic ${Buffer.from(`mirror-user:${password}`).toString('base64')}`;
    const withCreds = hubUrl.replace('http://', `http://mirror-user:${password}@`);
    process.env.ADAPTMR_HF_ENDPOINT = withCreds;
    try {
      const r = await pullDataset('longmemeval-oracle', { dataDir: dir });
      expect(r.status).toBe('downloaded');
    } finally {
      delete process.env.ADAPTMR_HF_ENDPOINT;
    }
    // Every request to the mirror carried the credentials; none reached it in the URL.
    expect(authSeen.filter((a) => a === requireAuth).length).toBeGreaterThanOrEqual(2);
    const lockText = readFileSync(join(dir, 'adaptmr-data.lock.json'), 'utf8');
    expect(lockText).not.toContain(password);
    expect(lockText).toContain(`${hubUrl}/datasets/`);
    // A wrong password: the mirror's echo of the header and URL reaches the one-line error redacted.
    requireAuth = 'Basic none';
    const err = await pullDataset('longmemeval-oracle', { dataDir: dir, hubUrl: withCreds, force: true }).catch(
      (e: unknown) => e,
    );
    const line = userFacingMessage(err) ?? '';
    expect(line).toMatch(/cannot resolve revision/u);
    expect(line).not.toContain(password);
    expect(line).not.toContain(Buffer.from(`mirror-user:${password}`).toString('base64'));
  });

  it('a hub API reply without end is cut off at its cap: one line', async () => {
    hubEndless = true;
    await expect(pullDataset('longmemeval-oracle', { dataDir: dir, hubUrl })).rejects.toThrow(
      /cannot resolve revision \(reply body exceeds the 1048576-byte cap \(hub API reply\)/u,
    );
  });

  it('fails clearly on an unknown revision, a missing file, and a body whose sha256 differs from the ETag', async () => {
    await expect(pullDataset('longmemeval-oracle', { dataDir: dir, hubUrl, revision: 'nope' })).rejects.toThrow(
      /cannot resolve revision/,
    );
    await expect(pullDataset('longmemeval-m', { dataDir: dir, hubUrl })).rejects.toThrow(
      /longmemeval_m_cleaned\.json not found at commit/,
    );
    badEtag = true;
    await expect(pullDataset('longmemeval-oracle', { dataDir: dir, hubUrl })).rejects.toThrow(
      /differs from the hub's ETag/,
    );
    expect(existsSync(join(dir, 'longmemeval', 'longmemeval_oracle.json'))).toBe(false);
    expect(leftovers('longmemeval')).toEqual([]);
    expect((await readLock(dir)).datasets).toEqual({});
  });
});

describe('pull locomo from the pinned GitHub raw file', () => {
  it('downloads, verifies the pinned sha256, locks it, and loads', async () => {
    const r = await pullDataset('locomo', { dataDir: dir, fileBaseUrl: rawUrl });
    expect(r.status).toBe('downloaded');
    expect(r.entry).toMatchObject({
      commit: LOCOMO_COMMIT,
      sha256: '79fa87e90f04081343b8c8debecb80a9a6842b76a7aa537dc9fdf651ea698ff4',
      bytes: 2805274,
    });
    expect(summarize('locomo', (await loadDataset({ name: 'locomo' }, dir)).instances).questions).toBe(1986);
    requests = [];
    expect((await pullDataset('locomo', { dataDir: dir, fileBaseUrl: rawUrl })).status).toBe('present');
    expect(requests).toEqual([]);
  });

  it('rejects a corrupted download and keeps no file', async () => {
    corruptLocomo = true;
    process.env.ADAPTMR_LOCOMO_URL = rawUrl;
    try {
      await expect(pullDataset('locomo', { dataDir: dir })).rejects.toThrow(/differs from the pinned 79fa87e9/);
    } finally {
      delete process.env.ADAPTMR_LOCOMO_URL;
    }
    expect(existsSync(join(dir, 'locomo', 'locomo10.json'))).toBe(false);
    expect(leftovers('locomo')).toEqual([]);
    expect((await readLock(dir)).datasets).toEqual({});
  });

  it('a body cut off midway is one line naming the URL and the bytes received, and leaves no file', async () => {
    locomoFault = 'cut';
    const err = await pullDataset('locomo', { dataDir: dir, fileBaseUrl: rawUrl }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServiceCallError);
    expect(userFacingMessage(err)).toMatch(/locomo10\.json: download cut off after \d+ bytes .*run the pull again$/u);
    expect(existsSync(join(dir, 'locomo', 'locomo10.json'))).toBe(false);
    expect(leftovers('locomo')).toEqual([]);
  });

  it('an endless body stops at the pinned size while streaming, with one line, and leaves no file', async () => {
    locomoFault = 'endless';
    const err = await pullDataset('locomo', { dataDir: dir, fileBaseUrl: rawUrl }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServiceCallError);
    expect(userFacingMessage(err)).toMatch(
      /locomo10\.json: download stopped: the body is longer than the 2805274 bytes expected/u,
    );
    expect(leftovers('locomo')).toEqual([]);
  });

  it('an unreachable host is a one-line error naming the URL, and leaves no file', async () => {
    const fresh = mkdtempSync(join(tmpdir(), 'adaptmr-pull-offline-'));
    try {
      const err = await pullDataset('locomo', { dataDir: fresh, fileBaseUrl: 'http://127.0.0.1:1' }).catch(
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(ServiceCallError);
      expect(userFacingMessage(err)).toMatch(
        /^http:\/\/127\.0\.0\.1:1\/snap-research\/locomo\/.*locomo10\.json: cannot download: fetch failed/,
      );
      expect(existsSync(join(fresh, 'locomo', 'locomo10.json'))).toBe(false);
    } finally {
      rmSync(fresh, { recursive: true, force: true });
    }
  });
});

describe('ensureDataset (config pull: true)', () => {
  it('pulls a missing named dataset only when asked', async () => {
    await expect(ensureDataset({ name: 'locomo' }, dir)).rejects.toThrow(/adaptmr data pull locomo/);
    const src = await ensureDataset({ name: 'locomo' }, dir, { pull: true, fileBaseUrl: rawUrl });
    expect(src).toMatchObject({ format: 'locomo', kind: 'file', path: join(dir, 'locomo', 'locomo10.json') });
  });
});
