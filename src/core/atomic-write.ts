/**
 * The one way the harness replaces a file it writes for the user (HTML pages, charts, exports, JSON outputs, cache
 * files): the bytes go to a temporary file beside the target (same folder, so the rename stays on one file system),
 * are flushed to disk, and only then is the temporary file renamed over the target — rename is atomic on POSIX. A
 * full disk, a kill or an error midway leaves the previous file as it was and no temporary file behind; the error
 * names the target (a failed `write` on a descriptor carries no path of its own).
 */
import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

export interface FileContent {
  path: string;
  data: string | Uint8Array;
}

/** A temporary name beside `path`, hidden and unique to this process and call. */
export function tempPathFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
}

/** The error, naming `target` where it named the temporary file or nothing (a write on a descriptor). */
export function attributeTo(err: unknown, tmp: string, target: string): unknown {
  if (err instanceof Error) {
    const e = err as NodeJS.ErrnoException;
    if (e.path === undefined || e.path === tmp) e.path = target;
    if (e.message.includes(tmp)) e.message = e.message.replaceAll(tmp, target);
  }
  return err;
}

function writeDurably(path: string, data: string | Uint8Array): void {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  const fd = openSync(path, 'wx');
  try {
    for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Writes every file, all or none replaced: each is written to its temporary file first, and the renames happen only
 * once every one of them is on disk (a chart's spec, SVG and PNG stay a matching set).
 */
export function writeFilesAtomic(files: readonly FileContent[]): void {
  const temps: { tmp: string; path: string }[] = [];
  let current: { tmp: string; path: string } | undefined;
  try {
    for (const f of files) {
      mkdirSync(dirname(f.path), { recursive: true });
      current = { tmp: tempPathFor(f.path), path: f.path };
      temps.push(current);
      writeDurably(current.tmp, f.data);
    }
    for (const t of temps) {
      current = t;
      renameSync(t.tmp, t.path);
    }
  } catch (err) {
    for (const t of temps) rmSync(t.tmp, { force: true });
    throw current ? attributeTo(err, current.tmp, current.path) : err;
  }
}

export function writeFileAtomic(path: string, data: string | Uint8Array): void {
  writeFilesAtomic([{ path, data }]);
}

/**
 * For a writer that needs a path of its own (a stream, DuckDB's `COPY … TO`): `write` receives the temporary path;
 * when it resolves, the file is renamed over `path`; when it throws, the temporary file is removed.
 */
export async function replaceAtomically<T>(path: string, write: (tmp: string) => Promise<T>): Promise<T> {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = tempPathFor(path);
  try {
    const result = await write(tmp);
    const fd = openSync(tmp, 'r+');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
    return result;
  } catch (err) {
    rmSync(tmp, { force: true });
    throw attributeTo(err, tmp, path);
  }
}
