// The LoCoMo audit files: `data pull locomo-audit` against a loopback GitHub-raw server serving the real files (so the
// pinned sha256 verify) or a corrupted one, the lock entries, the sha256 check on every read, and the errata counts the
// audit publishes (156 errata, 99 score-corrupting: dial481/locomo-audit@9493fb4 AUDIT_REPORT.md).
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLock } from '../../src/data/lock.ts';
import {
  auditFile,
  auditToLocomoId,
  ERRATA_FILE,
  LOCOMO_AUDIT_COMMIT,
  LOCOMO_AUDIT_FILES,
  loadErrata,
  pullLocomoAudit,
} from './audit.ts';
import { dataPath, TEST_DATA_DIR } from '../../test/data-path.ts';

const shared = TEST_DATA_DIR;
const dir = mkdtempSync(join(tmpdir(), 'adaptmr-audit-pull-'));
let server: Server;
let base = '';
const requests: string[] = [];
let corrupt = false;

beforeAll(async () => {
  server = createServer((req, res) => {
    requests.push(req.url ?? '');
    const prefix = `/dial481/locomo-audit/${LOCOMO_AUDIT_COMMIT}/`;
    const path = (req.url ?? '').startsWith(prefix) ? decodeURIComponent((req.url ?? '').slice(prefix.length)) : '';
    if (!(path in LOCOMO_AUDIT_FILES)) {
      res.writeHead(404).end('not found');
      return;
    }
    const body = readFileSync(dataPath(join('locomo-audit', path)));
    res.writeHead(200).end(corrupt ? Buffer.concat([body, Buffer.from(' ')]) : body);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((ok) => server.close(ok));
  rmSync(dir, { recursive: true, force: true });
});

describe('locomo-audit files', () => {
  it('pulls every pinned file, locks it, and skips verified copies the next time', async () => {
    const dataDir = join(dir, 'data');
    const got = await pullLocomoAudit({ dataDir, baseUrl: base });
    expect(got.downloaded.sort()).toEqual(Object.keys(LOCOMO_AUDIT_FILES).sort());
    const lock = await readLock(dataDir);
    const entry = lock.datasets['locomo-audit/errors.json'];
    expect(entry).toMatchObject({
      repo: 'github:dial481/locomo-audit',
      commit: LOCOMO_AUDIT_COMMIT,
      path: 'locomo-audit/errors.json',
      sha256: LOCOMO_AUDIT_FILES['errors.json']!.sha256,
    });
    const before = requests.length;
    const again = await pullLocomoAudit({ dataDir, baseUrl: base });
    expect(again.downloaded).toEqual([]);
    expect(requests.length).toBe(before);
    // A file changed after the pull is refused on read, naming the way out.
    appendFileSync(join(dataDir, 'locomo-audit', ERRATA_FILE), ' ');
    await expect(auditFile(dataDir, ERRATA_FILE)).rejects.toThrow(
      /errors\.json: sha256 .* differs from the pinned .*data pull locomo-audit --force/u,
    );
  });

  it('discards a download whose sha256 is not the pinned one', async () => {
    corrupt = true;
    try {
      const dataDir = join(dir, 'bad');
      await expect(pullLocomoAudit({ dataDir, baseUrl: base })).rejects.toThrow(
        /sha256 .* differs from the pinned .*the download was discarded/u,
      );
      expect(existsSync(join(dataDir, 'locomo-audit', 'errors.json'))).toBe(false);
    } finally {
      corrupt = false;
    }
  });

  it('names the pull command when the files are missing', async () => {
    const empty = join(dir, 'empty');
    await expect(loadErrata(empty)).rejects.toThrow(
      /locomo-audit\/errors\.json not found in .*adaptmr data pull locomo-audit/u,
    );
  });

  it('keys the errata to LoCoMo ids: 156 errata, 99 of them change the answer', async () => {
    expect(auditToLocomoId('locomo_0_qa5')).toBe('conv-26:q5');
    expect(auditToLocomoId('locomo_9_qa12')).toBe('conv-50:q12');
    expect(auditToLocomoId('locomo_10_qa1')).toBeUndefined();
    const errata = await loadErrata(shared);
    expect(errata.size).toBe(156);
    expect([...errata.values()].filter((e) => e.scoreCorrupting).length).toBe(99);
    expect(errata.get('conv-26:q5')).toMatchObject({
      errorType: 'TEMPORAL_ERROR',
      originalAnswer: 'The sunday before 25 May 2023',
    });
  });
});
