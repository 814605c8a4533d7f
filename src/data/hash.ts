/**
 * sha256 of dataset files, streamed (the M file is GBs), for run provenance and lock-file checks. A folder gives
 * one row per data file (sorted by name), hashed as stored on disk (a `.json.gz` is hashed compressed).
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
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

export async function hashDatasetFiles(src: DatasetSource): Promise<FileDigest[]> {
  if (src.kind === 'file') return [await sha256File(src.path)];
  const out: FileDigest[] = [];
  for (const f of await listDataFiles(src.path)) out.push(await sha256File(f));
  return out;
}
