/**
 * The digests of a dataset source's files for run provenance: one row per data file — its file (LoCoMo-Plus: and
 * the LoCoMo file), a folder's data files sorted by name, a BEAM tier's chat files — hashed as stored on disk (a
 * `.json.gz` is hashed compressed), from the file-facts memo while a file's stat data is unchanged (hash.ts).
 */
import { beamChatDirs, beamChatFiles } from './beam.ts';
import { hashMemoised, listDataFiles, type FileDigest } from './hash.ts';
import type { DatasetSource } from './source.ts';

/** Every data file a source reads: its file (LoCoMo-Plus: and the LoCoMo file), a folder's data files, a BEAM tier's chat files. */
export async function sourceDataFiles(src: DatasetSource): Promise<string[]> {
  if (src.kind === 'file') return src.companion ? [src.path, src.companion.path] : [src.path];
  if (src.format === 'beam') return beamChatDirs(src.path).flatMap(beamChatFiles);
  return listDataFiles(src.path);
}

export async function hashDatasetFiles(src: DatasetSource): Promise<FileDigest[]> {
  return hashMemoised(src.path, await sourceDataFiles(src));
}
