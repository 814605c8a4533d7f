/**
 * For the runner: resolve a dataset reference, pulling a missing named dataset first when the config says
 * `pull: true` (a user-given path is never downloaded).
 */
import type { DatasetRef } from '../core/config.ts';
import { InputError } from '../core/errors.ts';
import { pullDataset, type PullOptions } from './pull.ts';
import { resolveDataset, type DatasetSource } from './source.ts';

export async function ensureDataset(
  ref: DatasetRef,
  dataDir: string,
  opts: { pull: boolean } & Omit<PullOptions, 'dataDir'> = { pull: false },
): Promise<DatasetSource> {
  try {
    return resolveDataset(ref, dataDir);
  } catch (err) {
    if (!(err instanceof InputError) || !opts.pull || !('name' in ref) || 'path' in ref) throw err;
    const { pull: _pull, ...pullOpts } = opts;
    await pullDataset(ref.name, { ...pullOpts, dataDir });
    return resolveDataset(ref, dataDir);
  }
}
