/**
 * For tests: another process that opens a DuckDB file read-write and keeps it open (so its lock held), as a running
 * `adaptmr run` does, until killed. The child keeps its instance and connection reachable — a collected instance
 * closes the file and releases the lock, which once made such a test pass or fail by chance — and runs a garbage
 * collection before it says it is ready, so a dropped reference would fail every time instead of now and then.
 */
import { spawn, type ChildProcess } from 'node:child_process';

const HOLDER = `
  const { DuckDBInstance } = require('@duckdb/node-api');
  DuckDBInstance.create(process.argv[1]).then(async (db) => {
    globalThis.held = { db, conn: await db.connect() };
    setTimeout(() => { gc(); console.log('ready'); }, 0);
    setInterval(() => {}, 1000);
  });`;

/** Starts the holder on `path` and resolves once the file is open; the caller kills it. */
export async function holdDuckDbLock(path: string): Promise<ChildProcess> {
  const holder = spawn(process.execPath, ['--expose-gc', '-e', HOLDER, path], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    await new Promise<void>((resolve, reject) => {
      holder.stdout!.on('data', (d: Buffer) => (String(d).includes('ready') ? resolve() : undefined));
      holder.on('exit', (code) => reject(new Error(`lock holder exited with ${code}`)));
    });
  } catch (err) {
    holder.kill();
    throw err;
  }
  return holder;
}
