/**
 * Opens a results file: creates the schema in a new file, and refuses a file of another schema version (or one
 * that is not a results file) with a message naming the file. Read-only opens create nothing, except the file a
 * killed run's row spool is folded into (spool.ts).
 */
import { existsSync, rmSync } from 'node:fs';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { InputError, errorMessage } from '../core/errors.ts';
import { readRows } from './read-rows.ts';
import { ResultStoreImpl } from './result-store.ts';
import { SCHEMA_VERSION, UPGRADE_STATS_SQL, createSchemaSql, migrateV1ToV2Sql, migrateV2ToV3Sql } from './schema.ts';
import { readSpool, spoolBusy, spoolPathOf } from './spool.ts';
import type { ResultStore } from './types.ts';

export interface OpenOptions {
  readOnly?: boolean;
  /**
   * Group commit: how long a first queued question waits for others before its transaction starts (default 25 ms,
   * see result-store.ts). A run with many producers passes more and calls `commitQueued` when they are done.
   */
  lingerMs?: number;
}

async function connect(path: string, readOnly: boolean): Promise<{ instance: DuckDBInstance; connection: DuckDBConnection }> {
  if (readOnly && !existsSync(path)) throw new InputError('results file not found', path);
  try {
    const instance = await DuckDBInstance.create(path, readOnly ? { access_mode: 'READ_ONLY' } : {});
    return { instance, connection: await instance.connect() };
  } catch (err) {
    // Typically another process holds the write lock.
    throw new InputError(`cannot open results file: ${errorMessage(err)}`, path);
  }
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
  if (!tables.some((t) => t.table_name === 'meta')) throw new InputError('not an AdaptMR results file (no meta table)', path);
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
  if (found !== String(SCHEMA_VERSION)) {
    throw new InputError(
      `results file has schema version ${found ?? 'none'}, this harness reads version ${SCHEMA_VERSION}; ` +
        'use the harness version that wrote it, or rerun the experiment',
      path,
    );
  }
  if (!readOnly && !tables.some((t) => t.table_name === 'score_cis')) await connection.run(`BEGIN; ${UPGRADE_STATS_SQL} COMMIT;`);
}

/**
 * Opens (creating if needed and writable) the DuckDB results file at `path`. A row spool left beside it (spool.ts: a
 * run that was killed, or one that has just ended) is folded in first, so every reader sees every question written;
 * one whose writer is still running is refused, as DuckDB refuses a second writer.
 */
export async function openResultStore(path: string, opts: OpenOptions = {}): Promise<ResultStore> {
  const readOnly = opts.readOnly ?? false;
  const spool = spoolPathOf(path);
  const spooled = existsSync(spool) ? readSpool(spool) : undefined;
  if (spooled?.header) {
    const busy = spoolBusy(spool, spooled.header.owner);
    if (busy) throw new InputError(`${busy} (its rows are in ${spool}); open the results file once that run has ended`, path);
  }
  // A read-only open folds through a writable one first (creating the file if the killed run had not yet).
  if (spooled && readOnly) await (await openResultStore(path)).close();
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
