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
import { ServiceCallError, describeNetworkError, oneLine, systemErrorReason } from '../core/errors.ts';

export interface Downloaded {
  sha256: string;
  bytes: number;
}

export interface DownloadOptions {
  /** Where the body comes from (a URL), named in the message of a failed download. */
  source?: string;
  /** Most bytes taken (the announced or pinned size): a longer body stops here, while streaming. */
  maxBytes?: number;
}

/**
 * Writes `body` to a temp file next to `dest`; `accept` sees the digest and may throw to reject the file (it is
 * then deleted and `dest` is left untouched). Only an accepted file is renamed to `dest`. A body cut off midway
 * (a dropped connection, a proxy's timeout), one longer than `maxBytes` and a full disk are one ServiceCallError
 * line naming the source and the bytes received.
 */
export async function downloadTo(
  body: ReadableStream<Uint8Array>,
  dest: string,
  accept: (d: Downloaded) => void | Promise<void>,
  opts: DownloadOptions = {},
): Promise<Downloaded> {
  await mkdir(dirname(dest), { recursive: true });
  const tmp = join(dirname(dest), `.${basename(dest)}.${randomBytes(4).toString('hex')}.part`);
  const hash = createHash('sha256');
  let bytes = 0;
  const tap = new Transform({
    transform(chunk: Buffer, _enc, done) {
      bytes += chunk.length;
      if (opts.maxBytes !== undefined && bytes > opts.maxBytes) {
        done(new TooLong(opts.maxBytes));
        return;
      }
      hash.update(chunk);
      done(null, chunk);
    },
  });
  try {
    try {
      await pipeline(Readable.fromWeb(body as WebReadableStream<Uint8Array>), tap, createWriteStream(tmp));
    } catch (err) {
      throw streamFailure(err, opts.source ?? dest, bytes);
    }
    const result = { sha256: hash.digest('hex'), bytes };
    await accept(result);
    await rename(tmp, dest);
    return result;
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}

class TooLong extends Error {
  constructor(readonly max: number) {
    super(`longer than the ${max} bytes expected`);
  }
}

/** A failed body stream in one line: cut off, too long, or the disk (a file-system error keeps its own line). */
function streamFailure(err: unknown, source: string, bytes: number): Error {
  if (systemErrorReason(err) !== undefined) return err as Error;
  if (err instanceof TooLong)
    return new ServiceCallError(`${source}: download stopped: the body is ${err.message}; nothing was kept`);
  // WebBlob.stream() aborts with a bare string; undici says "terminated" with the socket error as its cause.
  const cause = err instanceof Error ? describeNetworkError(err) : String(err);
  return new ServiceCallError(
    `${source}: download cut off after ${bytes} bytes (${oneLine(cause)}); nothing was kept — run the pull again`,
  );
}
