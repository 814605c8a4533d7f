/**
 * Exports a results file's tables and the scores_by_type view, one file each, for tools outside DuckDB. The file is
 * opened read-only. CSV goes through csv-stringify with list and object cells as JSON strings (so a spreadsheet
 * round-trips them), booleans as true/false and NULL as an empty cell; Parquet is written by DuckDB itself with `COPY (…) TO … (FORMAT parquet)`, keeping types.
 */
import { createWriteStream } from 'node:fs';
import { ensureWritableDir } from '../core/writable-dir.ts';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { replaceAtomically } from '../core/atomic-write.ts';
import { InputError } from '../core/errors.ts';
import { redactSecrets } from '../core/secrets.ts';
import { openResultStore } from './open-store.ts';
import { TABLES, VIEWS } from './schema.ts';
import type { ResultStore } from './types.ts';

export type ExportFormat = 'csv' | 'parquet';
export const EXPORTABLE: readonly string[] = [...TABLES, ...VIEWS];

export interface ExportOptions {
  format: ExportFormat;
  outDir: string;
  /** Table/view names; all of EXPORTABLE when absent or empty. */
  tables?: readonly string[];
}

function chooseTables(tables: readonly string[] | undefined): readonly string[] {
  const chosen = tables && tables.length > 0 ? tables : EXPORTABLE;
  const unknown = chosen.filter((t) => !EXPORTABLE.includes(t));
  if (unknown.length > 0)
    throw new InputError(`unknown table ${unknown.join(', ')}; choose from ${EXPORTABLE.join(', ')}`, '--table');
  return chosen;
}

/**
 * A text cell a spreadsheet would read as a formula (`=`, `+`, `-`, `@`, or a tab / carriage return before one; OWASP
 * "CSV injection") is written with a leading `'`, which spreadsheets show as text and drop. Text from datasets and
 * model replies thus never runs as a formula; numbers are cells of their own type and unaffected.
 */
export function neutraliseFormula(text: string): string {
  return /^[=+\-@\t\r]/u.test(text) ? `'${text}` : text;
}

function csvCell(value: unknown): unknown {
  if (value === null || value === undefined) return '';
  // Every text cell passes the redaction a run's writes pass (a file written before a secret form was known to it,
  // such as a password in an endpoint URL, is cleaned on the way out).
  if (typeof value === 'object')
    return neutraliseFormula(
      redactSecrets(JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))),
    );
  // csv-stringify would write false as an empty cell, indistinguishable from NULL.
  if (typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  if (typeof value === 'string') return neutraliseFormula(redactSecrets(value));
  return value;
}

async function writeCsv(store: ResultStore, table: string, file: string): Promise<void> {
  const rows = await store.query<Record<string, unknown>>(`SELECT * FROM ${table}`);
  const columns = await store.query<{ column_name: string }>(
    'SELECT column_name FROM information_schema.columns WHERE table_name = $1 ORDER BY ordinal_position',
    [table],
  );
  const header = columns.map((c) => c.column_name);
  const records = rows.map((row) => header.map((name) => csvCell(row[name])));
  const { stringify } = await import('csv-stringify');
  await replaceAtomically(file, (tmp) =>
    pipeline(Readable.from(records), stringify({ header: true, columns: header }), createWriteStream(tmp)),
  );
}

async function writeParquet(store: ResultStore, table: string, file: string): Promise<void> {
  // Text columns pass the URL-credential redaction in SQL (the same pattern as src/core/secrets.ts), so a file
  // written before it existed exports clean; other columns keep their types.
  const columns = await store.query<{ column_name: string; data_type: string }>(
    'SELECT column_name, data_type FROM information_schema.columns WHERE table_name = $1 ORDER BY ordinal_position',
    [table],
  );
  const select = columns
    .map(({ column_name: c, data_type: t }) => {
      const q = `"${c.replaceAll('"', '""')}"`;
      return t === 'VARCHAR' || t === 'JSON'
        ? `regexp_replace(${q}, '${URL_USERINFO_SQL}', '\\1[redacted]@', 'g') AS ${q}`
        : q;
    })
    .join(', ');
  // COPY TO writes an outside file; it is allowed on a read-only database. The path is quoted as an SQL literal.
  await replaceAtomically(file, (tmp) =>
    store.query(`COPY (SELECT ${select} FROM ${table}) TO '${tmp.replaceAll("'", "''")}' (FORMAT parquet)`),
  );
}

/** The user-info of a URL, as an RE2 pattern for DuckDB's regexp_replace (src/core/secrets.ts `redactUrlCredentials`). */
const URL_USERINFO_SQL = "(?i)\\b([a-z][a-z0-9+.-]*://)[^\\s/?#\"''<>`\\\\]*@";

/** Writes `<outDir>/<table>.<format>` for each chosen table; returns the written paths. */
export async function exportResults(path: string, opts: ExportOptions): Promise<string[]> {
  const tables = chooseTables(opts.tables);
  const store = await openResultStore(path, { readOnly: true });
  try {
    ensureWritableDir(opts.outDir, 'export folder', 'choose another --out');
    const written: string[] = [];
    for (const table of tables) {
      const file = join(opts.outDir, `${table}.${opts.format}`);
      await (opts.format === 'csv' ? writeCsv(store, table, file) : writeParquet(store, table, file));
      written.push(file);
    }
    return written;
  } finally {
    await store.close();
  }
}
