/**
 * Reads only the first top-level fields of a JSON object file (plain or `.gz`) and stops: the catalog pass over a
 * folder of one-question files needs only their id and type (`BenchmarkReader.headKeys`), which come before the
 * haystack, so it can skip gunzipping and parsing the ~500 KB haystack of every file. Only the first
 * 64 KiB (decompressed) are looked at, with a small scanner over the bytes; values are decoded by JSON.parse.
 */
import { open } from 'node:fs/promises';
import { constants, gunzipSync } from 'node:zlib';
import { decodeUtf8Strict } from '../core/utf8.ts';
import { isJsonSpace } from './json-bytes.ts';

const PREFIX_BYTES = 64 * 1024;

/** End (exclusive) of the string starting with the quote at `i`, or -1 when it runs past the bytes. */
function stringEnd(bytes: Uint8Array, i: number): number {
  for (let j = i + 1; j < bytes.length; j++) {
    const b = bytes[j];
    if (b === 0x5c) j++;
    else if (b === 0x22) return j + 1;
  }
  return -1;
}

/** End (exclusive) of the JSON value starting at `i` (any type), or -1 when it runs past the bytes. */
function valueEnd(bytes: Uint8Array, i: number): number {
  const first = bytes[i];
  if (first === 0x22) return stringEnd(bytes, i);
  if (first === 0x7b || first === 0x5b) {
    let depth = 0;
    for (let j = i; j < bytes.length; j++) {
      const b = bytes[j];
      if (b === 0x22) {
        j = stringEnd(bytes, j) - 1;
        if (j < 0) return -1;
      } else if (b === 0x7b || b === 0x5b) depth++;
      else if (b === 0x7d || b === 0x5d) {
        if (--depth === 0) return j + 1;
      }
    }
    return -1;
  }
  let j = i;
  while (j < bytes.length && bytes[j] !== 0x2c && bytes[j] !== 0x7d && !isJsonSpace(bytes[j])) j++;
  return j < bytes.length ? j : -1;
}

/**
 * The scalar values of `keys` at the top level of the JSON object whose text starts `bytes`, or undefined when the
 * text is not an object, a wanted value is not a scalar, or the keys are not all within the bytes (callers then
 * parse the whole file, which also reports malformed input properly).
 */
export function headFields(bytes: Uint8Array, keys: readonly string[]): Record<string, unknown> | undefined {
  // Strict: a key or value that is not UTF-8 throws, and the caller's full parse reports it (json-decode.ts).
  const text = (from: number, to: number): string => decodeUtf8Strict(bytes.subarray(from, to));
  const found: Record<string, unknown> = {};
  let i = 0;
  const skip = (): void => {
    while (isJsonSpace(bytes[i])) i++;
  };
  skip();
  if (bytes[i] !== 0x7b) return undefined;
  i++;
  try {
    for (;;) {
      skip();
      if (bytes[i] !== 0x22) return undefined; // `}` (keys missing) or not JSON
      const keyEnd = stringEnd(bytes, i);
      if (keyEnd < 0) return undefined;
      const key = JSON.parse(text(i, keyEnd)) as string;
      i = keyEnd;
      skip();
      if (bytes[i] !== 0x3a) return undefined;
      i++;
      skip();
      const end = valueEnd(bytes, i);
      if (end < 0) return undefined;
      if (keys.includes(key)) {
        const first = bytes[i];
        if (first === 0x7b || first === 0x5b) return undefined; // a wanted key holds a container
        found[key] = JSON.parse(text(i, end));
        if (keys.every((k) => k in found)) return found;
      }
      i = end;
      skip();
      if (bytes[i] !== 0x2c) return undefined;
      i++;
    }
  } catch {
    return undefined; // malformed: let the full parse raise the InputError that names the problem
  }
}

/** `headFields` of the start of `file`; undefined when the head does not give every key. */
export async function readJsonHead(
  file: string,
  keys: readonly string[],
): Promise<Record<string, unknown> | undefined> {
  const gz = file.endsWith('.gz');
  const handle = await open(file);
  let prefix: Uint8Array;
  try {
    const buf = Buffer.alloc(gz ? PREFIX_BYTES / 4 : PREFIX_BYTES);
    const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
    prefix = buf.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
  if (gz) {
    try {
      // A truncated gzip stream: decompress what these bytes hold instead of failing on the missing end.
      prefix = gunzipSync(prefix, { finishFlush: constants.Z_SYNC_FLUSH });
    } catch {
      return undefined;
    }
  }
  return headFields(prefix, keys);
}
