/**
 * Splits a top-level JSON array file (plain or `.gz`) into the bytes of its elements, streamed, so a multi-GB file
 * (LongMemEval M, ~2.7 GB) is read in bounded memory and each element can be parsed with the native JSON.parse —
 * far faster than a token-stream parser. The scan tracks only strings (with escapes) and bracket depth; inside a
 * string it jumps from quote to backslash with `indexOf` (memchr speed), which is where nearly all bytes are.
 * Validation is left to JSON.parse of each element; the scan only has to find where elements start and end.
 */
import { createReadStream } from 'node:fs';
import { createGunzip } from 'node:zlib';
import type { Readable } from 'node:stream';
import { InputError } from '../core/errors.ts';
import { BACKSLASH, isJsonSpace, QUOTE } from './json-bytes.ts';

/** The byte stream of a data file, gunzipped when it ends in `.gz`. */
export function openDataStream(file: string, highWaterMark = 4 << 20): { stream: Readable; close: () => void } {
  const source = createReadStream(file, { highWaterMark });
  if (!file.endsWith('.gz')) return { stream: source, close: () => source.destroy() };
  const gunzip = createGunzip({ chunkSize: 1 << 20 });
  source.on('error', (err) => gunzip.destroy(err));
  const stream = source.pipe(gunzip);
  return {
    stream,
    close: () => {
      source.destroy();
      gunzip.destroy();
    },
  };
}

/** Yields each element of the top-level array in `file` as its own bytes (a fresh ArrayBuffer each, transferable). */
export async function* splitJsonArrayFile(file: string): AsyncGenerator<Uint8Array> {
  const { stream, close } = openDataStream(file);
  try {
    yield* splitJsonArray(stream as AsyncIterable<Buffer>, file);
  } catch (err) {
    if (err instanceof InputError) throw err;
    throw new InputError(`not a readable JSON array (${err instanceof Error ? err.message : String(err)})`, file);
  } finally {
    close();
  }
}

/** The scanner over any byte chunks; `where` names the source in errors. */
export async function* splitJsonArray(chunks: AsyncIterable<Uint8Array>, where: string): AsyncGenerator<Uint8Array> {
  let started = false; // saw the opening '['
  let ended = false; // saw the closing ']'
  let depth = 0; // inside the current element
  let inElement = false;
  let scalar = false; // the element is a bare number/literal (ends at ',' ']' or space)
  let inString = false;
  let escaped = false; // the previous chunk ended on a backslash inside a string
  let parts: Uint8Array[] = [];
  let partsLength = 0;

  const take = (chunk: Uint8Array, from: number, to: number): void => {
    if (to > from) {
      parts.push(chunk.subarray(from, to));
      partsLength += to - from;
    }
  };
  const finish = (): Uint8Array => {
    const out = new Uint8Array(partsLength);
    let off = 0;
    for (const p of parts) {
      out.set(p, off);
      off += p.length;
    }
    parts = [];
    partsLength = 0;
    inElement = false;
    scalar = false;
    return out;
  };

  for await (const chunk of chunks) {
    const n = chunk.length;
    let i = 0;
    let start = inElement ? 0 : -1;
    // Next quote / backslash at or after i in this chunk (-1: none left; -2: not looked up yet).
    let nextQuote = -2;
    let nextBackslash = -2;
    while (i < n) {
      if (inString) {
        if (escaped) {
          escaped = false;
          i++;
          continue;
        }
        if (nextQuote < i && nextQuote !== -1) nextQuote = chunk.indexOf(QUOTE, i);
        if (nextBackslash < i && nextBackslash !== -1) nextBackslash = chunk.indexOf(BACKSLASH, i);
        if (nextBackslash !== -1 && (nextQuote === -1 || nextBackslash < nextQuote)) {
          if (nextBackslash + 1 >= n) {
            escaped = true;
            i = n;
          } else {
            i = nextBackslash + 2;
          }
          continue;
        }
        if (nextQuote === -1) {
          i = n;
          continue;
        }
        i = nextQuote + 1;
        inString = false;
        if (depth === 0) {
          take(chunk, start, i); // a bare string element
          start = -1;
          yield finish();
        }
        continue;
      }
      const b = chunk[i]!;
      if (!started) {
        if (b === 0x5b) started = true;
        else if (!isJsonSpace(b) && !(b === 0xef || b === 0xbb || b === 0xbf))
          throw new InputError('expected a JSON array at the top level', where);
        i++;
        continue;
      }
      if (!inElement) {
        if (ended) {
          if (!isJsonSpace(b)) throw new InputError('unexpected data after the top-level array', where);
        } else if (b === 0x5d) {
          ended = true;
        } else if (b !== 0x2c && !isJsonSpace(b)) {
          inElement = true;
          start = i;
          if (b === QUOTE) inString = true;
          else if (b === 0x7b || b === 0x5b) depth = 1;
          else scalar = true;
        }
        i++;
        continue;
      }
      if (scalar) {
        if (b === 0x2c || b === 0x5d || isJsonSpace(b)) {
          take(chunk, start, i);
          start = -1;
          yield finish();
          continue; // reprocess the delimiter outside the element
        }
        i++;
        continue;
      }
      if (b === QUOTE) inString = true;
      else if (b === 0x7b || b === 0x5b) depth++;
      else if (b === 0x7d || b === 0x5d) {
        depth--;
        if (depth === 0) {
          take(chunk, start, i + 1);
          start = -1;
          i++;
          yield finish();
          continue;
        }
      }
      i++;
    }
    if (inElement && start >= 0) take(chunk, start, n);
  }
  if (inElement && scalar) yield finish();
  if (!started) throw new InputError('expected a JSON array at the top level (empty file)', where);
  if (!ended || inElement) throw new InputError('the top-level JSON array is truncated', where);
}
