/**
 * sha256 of dataset files, streamed (the M file is GBs), for run provenance (source-hash.ts) and lock-file checks,
 * taken from the file-facts memo while a file's stat data is unchanged (file-facts.ts); and a folder's data files.
 */
import { createHash } from 'node:crypto';
import pLimit from 'p-limit';
import { createReadStream } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { FILES_AT_ONCE, FileFacts } from './file-facts.ts';

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

/** sha256 of one data file, from the file-facts memo while its stat data is unchanged (lock-file checks). */
export async function sha256Memoised(path: string): Promise<FileDigest> {
  return (await hashMemoised(path, [path]))[0]!;
}

/** sha256 of `files`, memoised in the file-facts memo of `sourcePath` (a dataset's file or folder). */
export async function hashMemoised(sourcePath: string, files: readonly string[]): Promise<FileDigest[]> {
  const facts = FileFacts.open(sourcePath);
  const limit = pLimit(FILES_AT_ONCE);
  const out = await Promise.all(
    files.map((path) =>
      limit(async (): Promise<FileDigest> => {
        let read: FileDigest | undefined;
        const { value, stamp } = await facts.memoised(
          path,
          'sha256',
          async () => (read = await sha256File(path)).sha256,
        );
        return read ?? { path, sha256: value!, bytes: stamp.size };
      }),
    ),
  );
  facts.save();
  return out;
}
