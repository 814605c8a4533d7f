/**
 * Streams a web body to disk through a temp file in the target's folder, hashing on the way, then renames it
 * into place: a killed or failed download never leaves a half file under the real name.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';

export interface Downloaded {
  sha256: string;
  bytes: number;
}

/**
 * Writes `body` to a temp file next to `dest`; `accept` sees the digest and may throw to reject the file (it is
 * then deleted and `dest` is left untouched). Only an accepted file is renamed to `dest`.
 */
export async function downloadTo(
  body: ReadableStream<Uint8Array>,
  dest: string,
  accept: (d: Downloaded) => void | Promise<void>,
): Promise<Downloaded> {
  await mkdir(dirname(dest), { recursive: true });
  const tmp = join(dirname(dest), `.${basename(dest)}.${randomBytes(4).toString('hex')}.part`);
  const hash = createHash('sha256');
  let bytes = 0;
  const tap = new Transform({
    transform(chunk: Buffer, _enc, done) {
      hash.update(chunk);
      bytes += chunk.length;
      done(null, chunk);
    },
  });
  try {
    await pipeline(Readable.fromWeb(body as WebReadableStream<Uint8Array>), tap, createWriteStream(tmp));
    const result = { sha256: hash.digest('hex'), bytes };
    await accept(result);
    await rename(tmp, dest);
    return result;
  } catch (err) {
    await rm(tmp, { force: true });
    // WebBlob.stream() aborts with a bare string; give it an Error so callers see a message and a stack.
    throw err instanceof Error ? err : new Error(String(err));
  }
}
