/**
 * Streams the elements of a top-level JSON array from a file (plain or `.gz`) one at a time, so a multi-GB
 * file (LongMemEval M) is never held as one string. Built on stream-json's parser + streamArray.
 */
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { createGunzip, gunzipSync } from 'node:zlib';
import type { Readable } from 'node:stream';
import { parser } from 'stream-json';
import ignore from 'stream-json/filters/ignore.js';
import streamArray from 'stream-json/streamers/stream-array.js';
import { InputError } from '../core/errors.ts';

export interface StreamArrayOptions {
  /** Keys of each element that are skipped before assembly (a light pass that never builds them). */
  skipKeys?: readonly string[] | undefined;
  /**
   * Files smaller than this (bytes on disk) are read whole with JSON.parse, ~20× faster than the token stream;
   * larger ones are streamed so memory stays flat. Default 32 MiB (LoCoMo and oracle are read whole, S/M streamed).
   */
  wholeBelowBytes?: number | undefined;
}

export const WHOLE_BELOW_BYTES = 32 * 1024 * 1024;

async function readWhole(file: string): Promise<unknown[]> {
  let buf = await readFile(file);
  let value: unknown;
  try {
    if (file.endsWith('.gz')) buf = gunzipSync(buf);
    value = JSON.parse(buf.toString('utf8'));
  } catch (err) {
    throw new InputError(`not valid JSON (${err instanceof Error ? err.message : String(err)})`, file);
  }
  if (!Array.isArray(value)) throw new InputError('expected a JSON array at the top level', file);
  return value as unknown[];
}

/** Yields each element of the top-level array in `file`; a parse error becomes an InputError naming the file. */
export async function* streamJsonArray(file: string, opts: StreamArrayOptions = {}): AsyncGenerator<unknown> {
  if ((await stat(file)).size < (opts.wholeBelowBytes ?? WHOLE_BELOW_BYTES)) {
    yield* await readWhole(file);
    return;
  }
  const source: Readable = createReadStream(file, { highWaterMark: 1 << 20 });
  let stream: Readable = file.endsWith('.gz') ? source.pipe(createGunzip()) : source;
  // Errors on any stage must surface in the for-await below; pipe() does not forward them, so forward by hand.
  const stages: Readable[] = [source, stream];
  stream = stream.pipe(parser.asStream());
  stages.push(stream);
  const skip = opts.skipKeys;
  if (skip && skip.length > 0) {
    stream = stream.pipe(
      ignore.asStream({
        // stack = [arrayIndex, key, …]: drop the whole value of a skipped key of a top-level element.
        filter: (stack: readonly (string | number | null)[]) =>
          stack.length === 2 && typeof stack[1] === 'string' && skip.includes(stack[1]),
      }),
    );
    stages.push(stream);
  }
  const items = stream.pipe(streamArray.asStream());
  for (const s of stages) s.on('error', (err: Error) => items.destroy(err));
  try {
    for await (const item of items as AsyncIterable<{ key: number; value: unknown }>) yield item.value;
  } catch (err) {
    throw new InputError(`not a readable JSON array (${err instanceof Error ? err.message : String(err)})`, file);
  } finally {
    source.destroy();
  }
}
