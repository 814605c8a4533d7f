/**
 * A report is of a whole run: a shard's file (`adaptmr run --shard i/n`) holds part of the questions, and statistics,
 * verdicts and charts of a part would pass for the run's. `adaptmr report` refuses it with one line naming the file
 * and what to do (merge every shard: docs/scale-out.md). Being the first open of every report, it also migrates a file
 * of an older schema version (open-store.ts), as any writable open does.
 */
import { existsSync } from 'node:fs';
import { InputError } from '../core/errors.ts';
import { openResultStore } from '../store/index.ts';
import { shardOf } from '../store/meta.ts';

export async function refuseShardFile(file: string): Promise<void> {
  if (!existsSync(file)) return; // the report's own open says so, as it always has
  // A file of an older schema version is brought to this one by a writable open (its migration is additive), so
  // every report form reads it; a file that cannot be opened writable keeps the read-only open's own error.
  const store = await openResultStore(file, { readOnly: true }).catch(async (err: unknown) => {
    if (!/results file has schema version [0-9]/u.test(String(err))) throw err;
    await (await openResultStore(file).catch(() => Promise.reject(err))).close();
    return openResultStore(file, { readOnly: true });
  });
  let shard: Awaited<ReturnType<typeof shardOf>>;
  try {
    shard = await shardOf(store);
  } finally {
    await store.close();
  }
  if (shard)
    throw new InputError(
      `is shard ${shard.index}/${shard.count} of a run (partial): report the merged file (adaptmr merge <folder>/shard-*.duckdb --out <file>)`,
      file,
    );
}
