/**
 * Opens a results file: creates the schema in a new file, and refuses a file of another schema version (or one
 * that is not a results file) with a message naming the file. Read-only opens create nothing, except the file a
 * killed run's row spool is folded into (spool.ts).
 *
 * A new file appears whole or not at all: it is built (schema, and a spool's rows when one is being folded) under a
 * temporary name beside it and linked into place once closed, so a full disk or a kill never leaves a 0-byte or
 * half-made results file that the next command would stumble on. A file is opened only with its own write-ahead
 * log (wal-identity.ts).
 */
import { existsSync, linkSync, rmSync, statSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { InputError, errorMessage, userFacingMessage } from '../core/errors.ts';
import { readRows } from './read-rows.ts';
import { ResultStoreImpl } from './result-store.ts';
import {
  SCHEMA_VERSION,
  UPGRADE_STATS_SQL,
  createSchemaSql,
  migrateV1ToV2Sql,
  migrateV2ToV3Sql,
  migrateV3ToV4Sql,
  migrateV4ToV5Sql,
  migrateV5ToV6Sql,
} from './schema.ts';
import { readSpool, spoolBusy, spoolPathOf, type SpoolContents } from './spool.ts';
import type { ResultStore } from './types.ts';
import { STORAGE_VERSION, checkOwnWal } from './wal-identity.ts';

export interface OpenOptions {
  readOnly?: boolean;
  /**
   * Group commit: how long a first queued question waits for others before its transaction starts (default 25 ms,
   * see result-store.ts). A run with many producers passes more and calls `commitQueued` when they are done.
   */
  lingerMs?: number;
}

async function connect(
  path: string,
  readOnly: boolean,
): Promise<{ instance: DuckDBInstance; connection: DuckDBConnection }> {
  if (readOnly && !existsSync(path)) throw new InputError('results file not found', path);
  checkOwnWal(path);
  try {
    // New files carry a database identity that DuckDB also writes into their log (wal-identity.ts).
    const instance = await DuckDBInstance.create(
      path,
      readOnly ? { access_mode: 'READ_ONLY' } : { storage_compatibility_version: STORAGE_VERSION },
    );
    return { instance, connection: await instance.connect() };
  } catch (err) {
    throw new InputError(`cannot open results file: ${openFailure(err)}`, path);
  }
}

/** DuckDB's reason an open failed, said for a results file (typically another process holds the write lock). */
export function openFailure(err: unknown): string {
  const message = errorMessage(err);
  if (/WAL does not match database file|WAL checkpoint iteration does not match/u.test(message)) {
    return `its write-ahead log (.wal beside it) belongs to another file or to an older copy of this one; move the .wal away and rerun (${message})`;
  }
  if (/Corrupt database file|checksum .* does not match/iu.test(message)) {
    return `the file is damaged (${message}); restore it from a copy, or rerun the experiment into a new file`;
  }
  return message;
}

async function ensureSchema(connection: DuckDBConnection, path: string, readOnly: boolean): Promise<void> {
  const tables = await readRows<{ table_name: string }>(
    connection,
    "SELECT table_name FROM information_schema.tables WHERE table_schema = 'main'",
  );
  if (tables.length === 0 && !readOnly) {
    await connection.run(`BEGIN; ${createSchemaSql()} COMMIT;`);
    return;
  }
  if (!tables.some((t) => t.table_name === 'meta'))
    throw new InputError('not an AdaptMR results file (no meta table)', path);
  const rows = await readRows<{ value: string }>(connection, "SELECT value FROM meta WHERE key = 'schema_version'");
  let found = rows[0]?.value;
  if (found === '1' && !readOnly) {
    await connection.run(`BEGIN; ${migrateV1ToV2Sql()} COMMIT;`);
    found = '2';
  }
  if (found === '2' && !readOnly) {
    await connection.run(`BEGIN; ${migrateV2ToV3Sql()} COMMIT;`);
    found = '3';
  }
  if (found === '3' && !readOnly) {
    await connection.run(`BEGIN; ${migrateV3ToV4Sql()} COMMIT;`);
    found = '4';
  }
  if (found === '4' && !readOnly) {
    await connection.run(`BEGIN; ${migrateV4ToV5Sql()} COMMIT;`);
    found = '5';
  }
  if (found === '5' && !readOnly) {
    await connection.run(`BEGIN; ${migrateV5ToV6Sql()} COMMIT;`);
    found = '6';
  }
  if (found !== String(SCHEMA_VERSION)) {
    throw new InputError(
      `results file has schema version ${found ?? 'none'}, this harness reads version ${SCHEMA_VERSION}; ` +
        'use the harness version that wrote it, or rerun the experiment',
      path,
    );
  }
  // Derived tables added since (statistics, judge agreement, then verdicts and comparisons.family_size, then findings
  // and verdicts.flags): created on a writable open.
  if (
    !readOnly &&
    !['judge_comparisons', 'verdicts', 'findings'].every((t) => tables.some((x) => x.table_name === t))
  ) {
    await connection.run(`BEGIN; ${UPGRADE_STATS_SQL} COMMIT;`);
  }
}

/**
 * Opens (creating if needed and writable) the DuckDB results file at `path`. A row spool left beside it (spool.ts: a
 * run that was killed, or one that has just ended) is folded in first, so every reader sees every question written;
 * one whose writer is still running is refused, as DuckDB refuses a second writer.
 */
export async function openResultStore(path: string, opts: OpenOptions = {}): Promise<ResultStore> {
  const readOnly = opts.readOnly ?? false;
  const spool = spoolPathOf(path);
  let spooled = existsSync(spool) ? readSpool(spool) : undefined;
  if (spooled?.header) {
    const busy = spoolBusy(spool, spooled.header.owner);
    if (busy)
      throw new InputError(`${busy} (its rows are in ${spool}); open the results file once that run has ended`, path);
  }
  // A read-only open folds through a writable one first (creating the file if the killed run had not yet).
  if (spooled && readOnly) await (await openResultStore(path)).close();
  if (!readOnly && !existsSync(path) && (await createWhole(path, spooled, opts.lingerMs))) {
    if (spooled) rmSync(spool, { force: true });
    spooled = undefined;
  }
  const store = await openExisting(path, readOnly, opts.lingerMs);
  if (spooled && !readOnly) {
    try {
      await store.importSpool(spooled);
      rmSync(spool, { force: true });
    } catch (err) {
      await store.close();
      throw err;
    }
  }
  return store;
}

async function openExisting(path: string, readOnly: boolean, lingerMs: number | undefined): Promise<ResultStoreImpl> {
  const { instance, connection } = await connect(path, readOnly);
  try {
    await ensureSchema(connection, path, readOnly);
  } catch (err) {
    connection.closeSync();
    instance.closeSync();
    throw err;
  }
  return new ResultStoreImpl(path, readOnly, instance, connection, lingerMs);
}

/**
 * Makes a new results file at `path` as a whole: schema (and the spool's rows) written to a temporary file beside
 * it, closed (DuckDB checkpoints it), then hard-linked into place — which fails rather than replaces when another
 * process created `path` meanwhile (then false: the caller opens that file as it is). On any failure (a full disk)
 * the temporary file and its log are removed and `path` does not exist; the spool is untouched.
 */
async function createWhole(
  path: string,
  spooled: SpoolContents | undefined,
  lingerMs: number | undefined,
): Promise<boolean> {
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}-${randomBytes(4).toString('hex')}.creating`);
  const cleanup = (): void => {
    for (const f of [tmp, `${tmp}.wal`]) rmSync(f, { force: true });
  };
  let created = false;
  try {
    const store = await openExisting(tmp, false, lingerMs);
    try {
      if (spooled) await store.importSpool(spooled);
      // Everything into the file itself, or an error: closing checkpoints too, but says nothing when that fails
      // (a full disk), and the rows would then be only in the temporary file's log.
      await store.query('CHECKPOINT');
    } finally {
      await store.close();
    }
    if (existsSync(`${tmp}.wal`) && statSync(`${tmp}.wal`).size > 0)
      throw new InputError('the new file could not be checkpointed (is the disk full?)', path);
    try {
      linkSync(tmp, path);
      created = true;
    } catch (err) {
      // Another process made the file first: use it (the spool, if any, is folded by the normal path).
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  } catch (err) {
    cleanup();
    // The temporary name is an implementation detail: errors name the results file.
    const line = userFacingMessage(err);
    throw line === undefined ? err : new InputError(line.replaceAll(tmp, path));
  }
  cleanup();
  return created;
}
