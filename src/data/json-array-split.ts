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
  const splitter = new ElementSplitter(where);
  for await (const chunk of chunks) yield* splitter.feed(chunk);
  yield* splitter.end();
}

/** The scan's state across chunks: where it is in the array, in the current element and in a string. */
class ElementSplitter {
  private started = false; // saw the opening '['
  private ended = false; // saw the closing ']'
  private depth = 0; // inside the current element
  private inElement = false;
  private scalar = false; // the element is a bare number/literal (ends at ',' ']' or space)
  private inString = false;
  private escaped = false; // the previous chunk ended on a backslash inside a string
  private parts: Uint8Array[] = [];
  private partsLength = 0;
  /** Where the current element starts in the chunk being scanned (-1: not in this chunk). */
  private start = -1;

  constructor(private readonly where: string) {}

  /** The elements that end in `chunk`; the start of one it leaves open is kept for the next chunk. */
  *feed(chunk: Uint8Array): Generator<Uint8Array> {
    const n = chunk.length;
    let i = 0;
    this.start = this.inElement ? 0 : -1;
    // Next quote / backslash at or after i in this chunk (-1: none left; -2: not looked up yet).
    const next = { quote: -2, backslash: -2 };
    while (i < n) {
      if (this.inString) {
        i = this.skipString(chunk, i, next);
        if (!this.inString && this.depth === 0) yield this.cut(chunk, i); // a bare string element
        continue;
      }
      const b = chunk[i]!;
      if (!this.started) {
        this.open(b);
        i++;
        continue;
      }
      if (!this.inElement) {
        this.between(b, i);
        i++;
        continue;
      }
      if (this.scalar) {
        if (b === 0x2c || b === 0x5d || isJsonSpace(b)) {
          yield this.cut(chunk, i);
          continue; // reprocess the delimiter outside the element
        }
        i++;
        continue;
      }
      if (b === QUOTE) this.inString = true;
      else if (b === 0x7b || b === 0x5b) this.depth++;
      else if (b === 0x7d || b === 0x5d) {
        this.depth--;
        if (this.depth === 0) {
          i++;
          yield this.cut(chunk, i);
          continue;
        }
      }
      i++;
    }
    if (this.inElement && this.start >= 0) this.take(chunk, this.start, n);
  }

  /** After the last chunk: a bare literal still open, or an error when the array never opened or never closed. */
  *end(): Generator<Uint8Array> {
    if (this.inElement && this.scalar) yield this.finish();
    if (!this.started) throw new InputError('expected a JSON array at the top level (empty file)', this.where);
    if (!this.ended || this.inElement) throw new InputError('the top-level JSON array is truncated', this.where);
  }

  /**
   * Inside a string from `i`: jumps to the next backslash (skipping the escaped byte, even across chunks) or to the
   * closing quote, found with indexOf; returns where the scan goes on (the chunk's end while the string goes on).
   */
  private skipString(chunk: Uint8Array, i: number, next: { quote: number; backslash: number }): number {
    const n = chunk.length;
    if (this.escaped) {
      this.escaped = false;
      return i + 1;
    }
    if (next.quote < i && next.quote !== -1) next.quote = chunk.indexOf(QUOTE, i);
    if (next.backslash < i && next.backslash !== -1) next.backslash = chunk.indexOf(BACKSLASH, i);
    if (next.backslash !== -1 && (next.quote === -1 || next.backslash < next.quote)) {
      if (next.backslash + 1 >= n) {
        this.escaped = true;
        return n;
      }
      return next.backslash + 2;
    }
    if (next.quote === -1) return n;
    this.inString = false;
    return next.quote + 1;
  }

  /** Before the opening '[': only spaces and a byte-order mark may come first. */
  private open(b: number): void {
    if (b === 0x5b) this.started = true;
    else if (!isJsonSpace(b) && !(b === 0xef || b === 0xbb || b === 0xbf))
      throw new InputError('expected a JSON array at the top level', this.where);
  }

  /** Between elements: a separator, the closing ']', or the first byte of the next element. */
  private between(b: number, i: number): void {
    if (this.ended) {
      if (!isJsonSpace(b)) throw new InputError('unexpected data after the top-level array', this.where);
    } else if (b === 0x5d) {
      this.ended = true;
    } else if (b !== 0x2c && !isJsonSpace(b)) {
      this.inElement = true;
      this.start = i;
      if (b === QUOTE) this.inString = true;
      else if (b === 0x7b || b === 0x5b) this.depth = 1;
      else this.scalar = true;
    }
  }

  private take(chunk: Uint8Array, from: number, to: number): void {
    if (to > from) {
      this.parts.push(chunk.subarray(from, to));
      this.partsLength += to - from;
    }
  }

  /** The current element, ending at `to` in this chunk. */
  private cut(chunk: Uint8Array, to: number): Uint8Array {
    this.take(chunk, this.start, to);
    this.start = -1;
    return this.finish();
  }

  private finish(): Uint8Array {
    const out = new Uint8Array(this.partsLength);
    let off = 0;
    for (const p of this.parts) {
      out.set(p, off);
      off += p.length;
    }
    this.parts = [];
    this.partsLength = 0;
    this.inElement = false;
    this.scalar = false;
    return out;
  }
}
