/**
 * Opens a results file: creates the schema in a new file, and refuses a file of another schema version (or one
 * that is not a results file) with a message naming the file. Read-only opens never create anything.
 */
import { existsSync } from 'node:fs';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { InputError, errorMessage } from '../core/errors.ts';
import { readRows } from './read-rows.ts';
import { ResultStoreImpl } from './result-store.ts';
import { SCHEMA_VERSION, UPGRADE_STATS_SQL, createSchemaSql, migrateV1ToV2Sql } from './schema.ts';
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
  if (found !== String(SCHEMA_VERSION)) {
    throw new InputError(
      `results file has schema version ${found ?? 'none'}, this harness reads version ${SCHEMA_VERSION}; ` +
        'use the harness version that wrote it, or rerun the experiment',
      path,
    );
  }
  if (!readOnly && !tables.some((t) => t.table_name === 'score_cis')) await connection.run(`BEGIN; ${UPGRADE_STATS_SQL} COMMIT;`);
}

/** Opens (creating if needed and writable) the DuckDB results file at `path`. */
export async function openResultStore(path: string, opts: OpenOptions = {}): Promise<ResultStore> {
  const readOnly = opts.readOnly ?? false;
  const { instance, connection } = await connect(path, readOnly);
  try {
    await ensureSchema(connection, path, readOnly);
  } catch (err) {
    connection.closeSync();
    instance.closeSync();
    throw err;
  }
  return new ResultStoreImpl(path, readOnly, instance, connection, opts.lingerMs);
}
