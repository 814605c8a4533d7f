/**
 * sha256 of dataset files, streamed (the M file is GBs), for run provenance and lock-file checks. A folder gives
 * one row per data file (sorted by name), hashed as stored on disk (a `.json.gz` is hashed compressed). A run's
 * provenance takes the hashes from the file-facts memo while a file's stat data is unchanged (file-facts.ts).
 */
import { createHash } from 'node:crypto';
import pLimit from 'p-limit';
import { createReadStream } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { beamChatDirs, beamChatFiles } from './beam.ts';
import { FILES_AT_ONCE, FileFacts } from './file-facts.ts';
import type { DatasetSource } from './source.ts';

export interface FileDigest {
  path: string;
  sha256: string;
  bytes: number;
}

export async function sha256File(path: string): Promise<FileDigest> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    bytes += chunk.length;
  }
  return { path, sha256: hash.digest('hex'), bytes };
}

export const DATA_FILE = /\.json(\.gz)?$/;

export async function listDataFiles(folder: string): Promise<string[]> {
  const names = (await readdir(folder)).filter((f) => DATA_FILE.test(f)).sort();
  return names.map((f) => join(folder, f));
}

/** Every data file a source reads: its file (LoCoMo-Plus: and the LoCoMo file), a folder's data files, a BEAM tier's chat files. */
export async function sourceDataFiles(src: DatasetSource): Promise<string[]> {
  if (src.kind === 'file') return src.companion ? [src.path, src.companion.path] : [src.path];
  if (src.format === 'beam') return beamChatDirs(src.path).flatMap(beamChatFiles);
  return listDataFiles(src.path);
}

export async function hashDatasetFiles(src: DatasetSource): Promise<FileDigest[]> {
  return hashMemoised(src.path, await sourceDataFiles(src));
}

/** sha256 of one data file, from the file-facts memo while its stat data is unchanged (lock-file checks). */
export async function sha256Memoised(path: string): Promise<FileDigest> {
  return (await hashMemoised(path, [path]))[0]!;
}

async function hashMemoised(sourcePath: string, files: readonly string[]): Promise<FileDigest[]> {
  const facts = FileFacts.open(sourcePath);
  const limit = pLimit(FILES_AT_ONCE);
  const out = await Promise.all(
    files.map((path) =>
      limit(async (): Promise<FileDigest> => {
        let read: FileDigest | undefined;
        const { value, stamp } = await facts.memoised(path, 'sha256', async () => (read = await sha256File(path)).sha256);
        return read ?? { path, sha256: value!, bytes: stamp.size };
      }),
    ),
  );
  facts.save();
  return out;
}
