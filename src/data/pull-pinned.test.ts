// `data pull` of the datasets pinned to GitHub commits (MemDaily, LoCoMo-Plus; BEAM the same way) against a loopback
// GitHub-raw server that serves the real files from ADAPTMR_DATA_DIR at their upstream paths — so the pinned sha256s
// verify — or a corrupted copy: every file checked, the lock lists them all, a re-pull is skipped without a request,
// a file changed on disk fails the next load, LoCoMo-Plus brings LoCoMo along.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadDataset, readLock } from './index.ts';
import { listingSha256 } from './lock.ts';
import { datasetEntry, installedBenchmarks } from '../core/benchmarks-installed.ts';
import { LOCOMO_COMMIT, pullDataset } from './pull.ts';
import { findDataPath } from '../../test/data-path.ts';

let server: Server;
let base: string;
let requests: string[] = [];
let corrupt: string | undefined;
let dir: string;

/** The local copy of an upstream path, per the pins (or LoCoMo's raw path). */
function localFile(urlPath: string): string | undefined {
  if (urlPath === `/snap-research/locomo/${LOCOMO_COMMIT}/data/locomo10.json`)
    return findDataPath('locomo/locomo10.json');
  const pins = installedBenchmarks().flatMap((b) => b.datasets.flatMap((d) => (d.pin ? [d.pin] : [])));
  for (const pin of pins) {
    const prefix = `/${pin.repo}/${pin.commit}/${pin.upstreamRoot}/`;
    if (urlPath.startsWith(prefix))
      return findDataPath(join(pin.localRoot, decodeURIComponent(urlPath.slice(prefix.length))));
  }
  return undefined;
}

beforeAll(async () => {
  server = createServer((req, res) => {
    requests.push(req.url ?? '');
    const file = localFile(req.url ?? '');
    if (!file || !existsSync(file)) {
      res.writeHead(404);
      res.end();
      return;
    }
    let body = readFileSync(file);
    if (corrupt && req.url?.endsWith(corrupt))
      body = Buffer.concat([body.subarray(0, 100), Buffer.from('x'), body.subarray(101)]);
    res.writeHead(200, { 'content-length': body.length });
    res.end(body);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => server.close());
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'adaptmr-pull-pinned-'));
  requests = [];
  corrupt = undefined;
  return () => rmSync(dir, { recursive: true, force: true });
});

const pull = (name: 'memdaily' | 'locomo-plus', extra: { force?: boolean; revision?: string } = {}) =>
  pullDataset(name, { dataDir: dir, githubBaseUrl: base, locomoBaseUrl: base, ...extra });

describe('pull of pinned GitHub datasets', () => {
  it('MemDaily: 26 files fetched at the pinned commit and checked; the lock lists each; a re-pull asks for nothing', async () => {
    const r = await pull('memdaily');
    expect(r.status).toBe('downloaded');
    expect(requests).toHaveLength(26);
    expect(
      requests.every((u) =>
        u.startsWith(
          '/nuster1128/MemSim/db9d5d552d6cb1d859f692eb7e6c0fd6d61d3815/data_generation/final_dataset/messages_and_QAs/',
        ),
      ),
    ).toBe(true);
    const entry = (await readLock(dir)).datasets.memdaily!;
    expect(entry).toMatchObject({
      repo: 'github:nuster1128/MemSim',
      commit: datasetEntry('memdaily')!.dataset.pin!.commit,
      path: 'memdaily/messages_and_QAs',
    });
    expect(entry.files).toHaveLength(26);
    expect(entry.sha256).toBe(listingSha256(entry.files!));
    requests = [];
    expect((await pull('memdaily')).status).toBe('present');
    expect(requests).toEqual([]);
    const { instances } = await loadDataset({ name: 'memdaily', questionIds: ['01_simple_events:t0'] }, dir);
    expect(instances).toHaveLength(1);
  }, 30_000);

  it('a corrupted download is discarded and fails the pull naming the URL; nothing is left under the real name', async () => {
    corrupt = '03_comparative_roles.json';
    await expect(pull('memdaily')).rejects.toThrow(
      /sha256 .* pinned .*the download was discarded.*03_comparative_roles\.json|03_comparative_roles\.json.*sha256/s,
    );
    const folder = join(dir, 'memdaily', 'messages_and_QAs');
    expect(existsSync(join(folder, '03_comparative_roles.json'))).toBe(false);
    expect(readdirSync(folder).filter((f) => f.endsWith('.part'))).toEqual([]);
    expect((await readLock(dir)).datasets.memdaily).toBeUndefined();
  }, 30_000);

  it('a file changed after the pull fails the next load with one line naming the command; --force repairs it', async () => {
    await pull('memdaily');
    const file = join(dir, 'memdaily', 'messages_and_QAs', '01_simple_items.json');
    writeFileSync(file, readFileSync(file, 'utf8').replace('我', '你'));
    await expect(loadDataset({ name: 'memdaily' }, dir)).rejects.toThrow(
      /1 of 26 files differ .*01_simple_items\.json \(sha256 differs\).*adaptmr data pull memdaily --force/s,
    );
    requests = [];
    await pull('memdaily', { force: true });
    expect(requests.length).toBeGreaterThan(0);
    await expect(loadDataset({ name: 'memdaily', limit: 1 }, dir)).resolves.toBeDefined();
  }, 30_000);

  it('LoCoMo-Plus brings LoCoMo along when the data directory lacks it; only the pinned commit is accepted', async () => {
    await expect(pull('locomo-plus', { revision: 'main' })).rejects.toThrow(/pinned to xjtuleeyf\/Locomo-Plus@059f4e3/);
    await pull('locomo-plus');
    expect(requests).toEqual([
      `/snap-research/locomo/${LOCOMO_COMMIT}/data/locomo10.json`,
      '/xjtuleeyf/Locomo-Plus/059f4e3d38f7f1f96765e8e2cb7de3097551bffb/data/locomo_plus.json',
    ]);
    const { instances } = await loadDataset({ name: 'locomo-plus', limit: 3 }, dir);
    expect(instances.map((i) => i.query.id)).toEqual(['plus:0', 'plus:1', 'plus:2']);
  }, 30_000);
});
