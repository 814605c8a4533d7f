/**
 * For tests: runs one SQL query against a results file opened read-only, and closes it, so a test can look at what
 * a run (or a killed process) left on disk without holding the file open.
 */
import { openResultStore } from '../index.ts';
import type { QueryParam } from '../types.ts';

export async function queryFile<T>(file: string, sql: string, params?: readonly QueryParam[]): Promise<T[]> {
  const store = await openResultStore(file, { readOnly: true });
  try {
    return await store.query<T>(sql, params);
  } finally {
    await store.close();
  }
}
