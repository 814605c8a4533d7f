// The row spool (spool.ts): a killed spooling run's questions reach the results file whole at the next open, a live
// writer's spool is refused, a torn tail or header is cut off, a fold is never applied twice, secrets never reach the
// spool, and a second writer or a file that is not a spool is refused with a one-line error.
import { spawn } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { afterAll, describe, expect, it } from 'vitest';
import { registerSecret } from '../core/secrets.ts';
import { FAKE_SCORES_PER_METHOD, fakeBatch } from './testing/fake-batch.ts';
import { openResultStore } from './open-store.ts';
import { SpoolWriter, spoolPathOf, type SpoolRun } from './spool.ts';
import { queryFile } from './testing/query-file.ts';

const FIXTURE = join(import.meta.dirname, 'spool-writer.fixture.ts');
const dir = mkdtempSync(join(tmpdir(), 'adaptmr-spool-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const freshPath = (): string => join(dir, `r${n++}.duckdb`);

const RUN: SpoolRun = {
  run: {
    runId: 'spooled',
    name: 'spooled',
    configJson: '{"k":1}',
    configHash: 'h',
    gitCommit: null,
    gitDirty: null,
    packageVersions: {},
    datasetHashes: {},
    seed: 0,
    startedAt: '2026-01-01T00:00:00Z',
    status: 'running',
  },
  methods: [
    {
      method: 'bm25',
      kind: 'bm25',
      granularity: 'turn',
      k: 10,
      output: 'units',
      upperBound: false,
      degraded: null,
      capabilities: {},
    },
  ],
  checkpoints: [{ method: '(run)', key: 'warmup', value: '{"warmupMs":1}' }],
};

/** Writes questions 0…count-1 to a new spool, one record each, and closes it (as a run killed before folding). */
async function spoolQuestions(file: string, count: number, run: SpoolRun = RUN): Promise<void> {
  const spool = SpoolWriter.create(file, run, 5);
  for (let i = 0; i < count; i++) {
    const written = spool.writeQuestion(fakeBatch(run.run.runId, i, ['bm25']));
    spool.commitQueued();
    await written;
  }
  await spool.close();
}

async function counts(file: string): Promise<{ q: number; r: number; s: number; runs: number; marks: number }> {
  const [c] = await queryFile<{ q: number; r: number; s: number; runs: number; marks: number }>(
    file,
    `select (select count(*) from questions) q, (select count(*) from retrievals) r, (select count(*) from scores) s,
            (select count(*) from runs) runs, (select count(*) from meta where key like 'spool:%') marks`,
  );
  return c!;
}

function startWriter(
  file: string,
  end: number,
  opts: { killAfter?: number; hold?: boolean },
): Promise<{ written: number; pid: number }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', FIXTURE, file, '0', String(end), ...(opts.hold ? ['hold'] : [])],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let written = 0;
  return new Promise((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      written += chunk.split('\n').filter(Boolean).length;
      if (opts.killAfter !== undefined && written >= opts.killAfter) child.kill('SIGKILL');
      if (opts.hold && written >= end) resolve({ written, pid: child.pid! });
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (signal === 'SIGKILL' || code === 0) resolve({ written, pid: child.pid! });
      else reject(new Error(`spool writer exited with ${code}`));
    });
  });
}

describe('row spool', () => {
  it("folds a killed writer's questions into the file at the next open, each one whole", async () => {
    const file = freshPath();
    const { written } = await startWriter(file, 400, { killAfter: 12 });
    expect(written).toBeGreaterThanOrEqual(12);
    expect(existsSync(file)).toBe(false);
    expect(existsSync(spoolPathOf(file))).toBe(true);
    // A read-only open (report, queryFile) folds it too: every acknowledged question, each with all its rows.
    const c = await counts(file);
    expect(c.q).toBeGreaterThanOrEqual(written);
    expect(c.q).toBeLessThan(400);
    expect(c).toEqual({ q: c.q, r: c.q * 2, s: c.q * 2 * FAKE_SCORES_PER_METHOD, runs: 1, marks: 1 });
    expect(existsSync(spoolPathOf(file))).toBe(false);
    const [cp] = await queryFile<{ value: string }>(
      file,
      `select value from checkpoints where run_id = 'spooled' and key = 'warmup'`,
    );
    expect(cp?.value).toBe('{}');
  });

  it("refuses to open the file while the spool's writer is running, naming it, and folds once it is gone", async () => {
    const file = freshPath();
    const child = await startWriter(file, 3, { hold: true });
    try {
      await expect(openResultStore(file, { readOnly: true })).rejects.toThrow(
        new RegExp(`pid ${child.pid}\\) is still writing it`),
      );
    } finally {
      process.kill(child.pid, 'SIGKILL');
    }
    await new Promise((r) => setTimeout(r, 200));
    expect((await counts(file)).q).toBe(3);
  });

  // Process states come from /proc (Linux, as CI); elsewhere a zombie writer is only told apart once it is reaped.
  it.skipIf(!existsSync('/proc/self/stat'))(
    'folds the spool of a writer killed but not yet reaped by its parent (a zombie still answers kill(pid, 0))',
    async () => {
      const file = freshPath();
      // `exec sleep` makes the writer's parent a process that never waits for it.
      const shell = spawn(
        'sh',
        ['-c', `"${process.execPath}" --import tsx "${FIXTURE}" "${file}" 0 3 hold & echo "pid $!"; exec sleep 60`],
        {
          stdio: ['ignore', 'pipe', 'inherit'],
        },
      );
      try {
        const writer = await new Promise<number>((resolve) => {
          let out = '';
          shell.stdout.setEncoding('utf8').on('data', (chunk: string) => {
            out += chunk;
            const pid = /pid (\d+)/.exec(out)?.[1];
            if (pid && (out.match(/^q\d+$/gm) ?? []).length >= 3) resolve(Number(pid));
          });
        });
        process.kill(writer, 'SIGKILL');
        for (let i = 0; i < 50 && !readFileSync(`/proc/${writer}/stat`, 'utf8').includes(') Z '); i++)
          await new Promise((r) => setTimeout(r, 20));
        expect(readFileSync(`/proc/${writer}/stat`, 'utf8')).toContain(') Z ');
        expect((await counts(file)).q).toBe(3);
      } finally {
        shell.kill('SIGKILL');
      }
    },
  );

  it('refuses an open from the process writing the spool until its writer is closed', async () => {
    const file = freshPath();
    const spool = SpoolWriter.create(file, RUN, 5);
    await expect(openResultStore(file)).rejects.toThrow(/this process is still writing it/);
    expect(() => SpoolWriter.create(file, RUN, 5)).toThrow(
      /row spool .* exists: another run is writing this results file/,
    );
    await spool.close();
    expect((await counts(file)).runs).toBe(1);
  });

  it('refuses a spool another host is writing (its process cannot be checked from here) until it has been left for 10 minutes', async () => {
    const file = freshPath();
    await spoolQuestions(file, 2);
    // Rewrite the header record's owner (framing: magic line, then [u32 length][v8 payload][u32 length]).
    const bytes = readFileSync(spoolPathOf(file));
    const magic = bytes.indexOf(10) + 1;
    const len = bytes.readUInt32LE(magic);
    const header = deserialize(bytes.subarray(magic + 4, magic + 4 + len)) as { header: { owner: { host: string } } };
    header.header.owner.host = 'elsewhere.example';
    const payload = serialize(header);
    const frame = Buffer.alloc(payload.length + 8);
    frame.writeUInt32LE(payload.length, 0);
    payload.copy(frame, 4);
    frame.writeUInt32LE(payload.length, payload.length + 4);
    writeFileSync(spoolPathOf(file), Buffer.concat([bytes.subarray(0, magic), frame, bytes.subarray(magic + 8 + len)]));
    await expect(openResultStore(file, { readOnly: true })).rejects.toThrow(
      /host elsewhere\.example .* once the spool has not changed for 10 minutes/,
    );
    // Untouched for 10 minutes: that run is taken as killed, and its questions are folded from here.
    const old = new Date(Date.now() - 11 * 60_000);
    utimesSync(spoolPathOf(file), old, old);
    expect((await counts(file)).q).toBe(2);
  });

  it('cuts a record torn by a kill, and a spool torn inside its header holds nothing', async () => {
    const file = freshPath();
    await spoolQuestions(file, 5);
    truncateSync(spoolPathOf(file), statSync(spoolPathOf(file)).size - 3);
    expect((await counts(file)).q).toBe(4);

    const empty = freshPath();
    await spoolQuestions(empty, 0);
    truncateSync(spoolPathOf(empty), 30);
    expect(await counts(empty)).toEqual({ q: 0, r: 0, s: 0, runs: 0, marks: 0 });
    expect(existsSync(spoolPathOf(empty))).toBe(false);
  });

  it('is not folded twice when a kill came between its commit and its deletion', async () => {
    const file = freshPath();
    await spoolQuestions(file, 6);
    copyFileSync(spoolPathOf(file), join(dir, 'kept.spool'));
    const once = await counts(file);
    copyFileSync(join(dir, 'kept.spool'), spoolPathOf(file));
    expect(await counts(file)).toEqual(once);
    expect(existsSync(spoolPathOf(file))).toBe(false);
  });

  it('never holds a secret: the run, the checkpoints and the rows are redacted before they reach the disk', async () => {
    const secret = 'sk-spool-secret-0123456789';
    registerSecret(secret);
    const file = freshPath();
    const run: SpoolRun = {
      ...RUN,
      run: { ...RUN.run, configJson: `{"apiKey":"${secret}"}` },
      checkpoints: [{ method: 'm', key: 'k', value: secret }],
    };
    const spool = SpoolWriter.create(file, run, 5);
    const batch = fakeBatch('spooled', 0, ['bm25']);
    batch.retrievals[0]!.context = `context with ${secret}`;
    await Promise.all([spool.writeQuestion(batch), spool.commitQueued()]);
    await spool.close();
    expect(readFileSync(spoolPathOf(file)).includes(secret)).toBe(false);
    const [row] = await queryFile<{ config: string; context: string }>(
      file,
      'select (select config_json from runs) config, (select context from retrievals) context',
    );
    expect(row?.config).toContain('[redacted]');
    expect(row?.context).toContain('[redacted]');
  });

  it('refuses a file in the spool’s place that is not a spool, naming it', async () => {
    const file = freshPath();
    writeFileSync(spoolPathOf(file), 'not a spool at all');
    await expect(openResultStore(file)).rejects.toThrow(
      new RegExp(`${spoolPathOf(file).replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: not an AdaptMR row spool`),
    );
  });
});
