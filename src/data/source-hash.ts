/**
 * The digests of a dataset source's files for run provenance: one row per data file — its file (and its companion's
 * file), a folder's data files sorted by name, or the files of each unit a benchmark lists itself — hashed as stored on disk (a
 * `.json.gz` is hashed compressed), from the file-facts memo while a file's stat data is unchanged (hash.ts).
 */
import { hashMemoised, listDataFiles, type FileDigest } from './hash.ts';
import { readerOf, type DatasetSource } from './source.ts';

/** Every data file a source reads: its file (and its companion's), a folder's data files, or its units' files. */
export async function sourceDataFiles(src: DatasetSource): Promise<string[]> {
  if (src.kind === 'file') return src.companion ? [src.path, src.companion.path] : [src.path];
  const reader = readerOf(src);
  if (reader.units && reader.unitFiles) return reader.units(src.path).flatMap((u) => reader.unitFiles!(u));
  return listDataFiles(src.path);
}

export async function hashDatasetFiles(src: DatasetSource): Promise<FileDigest[]> {
  return hashMemoised(src.path, await sourceDataFiles(src));
}
