/**
 * Runs a SQL statement and returns plain JS row objects. BIGINT/HUGEINT values (COUNT(*), SUM of integers) come
 * back from DuckDB as bigint; they are turned into numbers when exactly representable so callers can do arithmetic
 * and JSON without surprises. Lists stay arrays.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import type { QueryParam } from './types.ts';

function plain(value: unknown): unknown {
  if (typeof value === 'bigint') {
    return value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= BigInt(Number.MIN_SAFE_INTEGER) ? Number(value) : value;
  }
  if (Array.isArray(value)) return value.map(plain);
  return value;
}

export async function readRows<T>(
  connection: DuckDBConnection,
  sql: string,
  params: readonly QueryParam[] = [],
): Promise<T[]> {
  const reader = await connection.runAndReadAll(sql, params.length > 0 ? [...params] : undefined);
  return reader.getRowObjectsJS().map((row) => {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(row)) out[key] = plain(value);
    return out as T;
  });
}
