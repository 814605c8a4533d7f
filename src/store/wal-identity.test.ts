/**
 * A results file is opened only with its own write-ahead log. Real logs are made by real writers killed with
 * SIGKILL (the results store's kill fixture, and a bare DuckDB writer in the older storage format), then moved
 * beside other files: a copied-over file next to another file's log is refused in one line naming the file and
 * what to do, and is unchanged once the log is moved away; a file's own log is still replayed (a killed run's
 * last questions are kept).
 */
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { userFacingMessage } from '../core/errors.ts';
import { openResultStore } from './open-store.ts';
import { checkOwnWal, databaseIdentity, walIdentity } from './wal-identity.ts';

const WRITER = join(import.meta.dirname, 'kill-writer.fixture.ts');
const dir = mkdtempSync(join(tmpdir(), 'adaptmr-wal-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the store's writer on `file` and SIGKILLs it after `killAfter` committed questions (its log stays). */
function killedWriter(file: string, killAfter: number): Promise<number> {
  const child = spawn(process.execPath, ['--import', 'tsx', WRITER, file, '0', '1000'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let committed = 0;
  return new Promise((resolve) => {
    child.stdout.on('data', (b: Buffer) => {
      committed += b.toString().split('\n').filter(Boolean).length;
      if (committed >= killAfter) child.kill('SIGKILL');
    });
    child.on('close', () => resolve(committed));
  });
}

async function questions(file: string): Promise<number> {
  const store = await openResultStore(file, { readOnly: true });
  try {
    const [row] = await store.query<{ n: number }>(
      "SELECT count(DISTINCT question_id)::INTEGER AS n FROM questions WHERE run_id = 'kill'",
    );
    return row?.n ?? 0;
  } finally {
    await store.close();
  }
}

async function refusal(file: string): Promise<string> {
  const err = await openResultStore(file, { readOnly: true }).then(
    async (s) => {
      await s.close();
      return undefined;
    },
    (e: unknown) => e,
  );
  return userFacingMessage(err) ?? `not refused: ${String(err)}`;
}

/** A bare DuckDB file in the default (older) storage format, killed mid-write so its log (without identity) stays. */
function legacyKilled(file: string): void {
  const script = `
    import { DuckDBInstance } from '@duckdb/node-api';
    const db = await DuckDBInstance.create(process.argv[1]);
    const c = await db.connect();
    await c.run('CREATE TABLE t (x INTEGER)');
    await c.run('CHECKPOINT');
    await c.run('INSERT INTO t SELECT range FROM range(10)');
    process.kill(process.pid, 'SIGKILL');`;
  spawnSync(process.execPath, ['--input-type=module', '-e', script, file], { cwd: import.meta.dirname });
}

describe('a results file and its write-ahead log', () => {
  const a = join(dir, 'a.duckdb');
  const b = join(dir, 'b.duckdb');

  it("replays the file's own log: a killed writer's committed questions are all there", async () => {
    const committed = await killedWriter(a, 5);
    expect(existsSync(`${a}.wal`)).toBe(true);
    const id = databaseIdentity(a);
    expect(Buffer.isBuffer(id) && walIdentity(`${a}.wal`)).toEqual(id);
    // The log holds questions the file itself has not: opened with it, every committed question is there.
    copyFileSync(a, join(dir, 'a-copy.duckdb'));
    copyFileSync(`${a}.wal`, join(dir, 'a-copy.duckdb.wal'));
    expect(await questions(join(dir, 'a-copy.duckdb'))).toBeGreaterThanOrEqual(committed);
  }, 60_000);

  it("refuses another file's log beside a copied-over file, in one line, and leaves the file as it was", async () => {
    // b: a whole results file of the same experiment, closed cleanly (no log of its own).
    const committedB = await killedWriter(b, 3);
    await (await openResultStore(b)).close(); // folds b's own log into b
    expect(existsSync(`${b}.wal`)).toBe(false);
    const inB = await questions(b);
    expect(inB).toBeGreaterThanOrEqual(committedB);
    // A killed run leaves x.duckdb and x.duckdb.wal; then b is copied over x.duckdb.
    const x = join(dir, 'x.duckdb');
    await killedWriter(x, 6);
    expect(existsSync(`${x}.wal`)).toBe(true);
    copyFileSync(b, x);
    const line = await refusal(x);
    expect(line).toMatch(
      /x\.duckdb: .*x\.duckdb\.wal is another database file's write-ahead log .*move .*x\.duckdb\.wal away .*rerun$/u,
    );
    expect(line).not.toMatch(/\n/u);
    // Nothing was replayed: with the log moved away the file holds exactly b's questions.
    renameSync(`${x}.wal`, join(dir, 'x.wal.moved'));
    expect(await questions(x)).toBe(inB);
  }, 90_000);

  it('refuses a log with no file, one without identity beside a file with one, and an unverifiable legacy pair', () => {
    const lonely = join(dir, 'lonely.duckdb');
    copyFileSync(join(dir, 'x.wal.moved'), `${lonely}.wal`);
    expect(() => checkOwnWal(lonely)).toThrow(/lonely\.duckdb: a write-ahead log .* without its database file/u);

    const legacy = join(dir, 'legacy.duckdb');
    legacyKilled(legacy);
    expect(existsSync(`${legacy}.wal`)).toBe(true);
    expect(databaseIdentity(legacy)).toBeUndefined();
    expect(walIdentity(`${legacy}.wal`)).toBeUndefined();
    expect(() => checkOwnWal(legacy)).toThrow(
      /cannot tell whether .*legacy\.duckdb\.wal belongs to this file .*duckdb .*CHECKPOINT/u,
    );

    // An identity-less log beside a file that has an identity was not written for it.
    copyFileSync(`${legacy}.wal`, `${b}.wal`);
    expect(() => checkOwnWal(b)).toThrow(/b\.duckdb\.wal was not written for this file/u);
    rmSync(`${b}.wal`);

    // A log cut before its first entry ends holds no transaction: DuckDB discards it, so it is let through.
    writeFileSync(`${b}.wal`, Buffer.from([0x64, 0x00]));
    expect(() => checkOwnWal(b)).not.toThrow();
    rmSync(`${b}.wal`);
  }, 60_000);
});
