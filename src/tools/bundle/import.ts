/**
 * `adaptmr bundle --import <dir>`: reads a bundle back into a results file — the row tables from its Parquet files,
 * the statistics recomputed from them — so bundling the imported file again gives the same files, byte for byte
 * (the round trip compares the manifests' file hashes). Every Eval Ever folders made by other harnesses carry no
 * project tables; they are refused with that reason.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../../core/errors.ts';
import { openResultStore } from '../../store/index.ts';
import { refreshStats } from '../../store/stats-tables.ts';
import { loadRowTables, ROW_TABLES, tableFile } from './tables.ts';
import { PLAN_EXPERIMENT_REGISTRY } from '../../plan-experiments/registry.ts';

export async function importBundle(dir: string, out: string): Promise<string> {
  const missing = ROW_TABLES.find((t) => !existsSync(join(dir, tableFile(t))));
  if (missing !== undefined) {
    throw new InputError(
      `no ${tableFile(missing)}: only bundles written by adaptmr bundle can be imported (Every Eval Ever files alone lack the per-metric rows)`,
      dir,
    );
  }
  if (existsSync(out)) throw new InputError('the results file exists; import into a new file', out);
  const store = await openResultStore(out);
  try {
    await loadRowTables(store, dir);
    const stats = await refreshStats(store, PLAN_EXPERIMENT_REGISTRY, { force: true });
    return `${out}: imported ${dir} (${stats.cells} CI cells, ${stats.comparisons} comparisons, ${stats.verdicts} verdicts recomputed)`;
  } finally {
    await store.close();
  }
}
