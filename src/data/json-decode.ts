/**
 * JSON.parse straight from UTF-8 bytes, about twice as fast as `JSON.parse(buf.toString('utf8'))` on the
 * LongMemEval files: Node 20's UTF-8 decoder is slow once a file has any non-ASCII character (every S file has some)
 * and yields a two-byte string for all of it. Instead the bytes are read as Latin-1 (a plain byte copy), parsed —
 * JSON's syntax is ASCII, so the structure comes out right — and only the strings that hold bytes ≥ 0x80 are
 * re-decoded from those same bytes as UTF-8 (the Latin-1 round trip is lossless). That is exact unless the text
 * also escapes a character ≥ U+0080 as `\uXXXX` (the parsed string would then mix decoded characters with raw
 * bytes), so a file with such an escape takes the ordinary path.
 *
 * Bytes that are not valid UTF-8 are an error naming the byte offset, never silently replaced by U+FFFD (an id
 * with a replaced byte would no longer match its gold): `buffer.isUtf8` (simdutf, Node ≥ 18.14) checks the whole
 * input first, which costs far less than the parse.
 */
import { isUtf8 } from 'node:buffer';
import type { ParseOptions } from '../core/dataset-records.ts';
import { InputError } from '../core/errors.ts';
import { InvalidUtf8Error, LoneSurrogateError, assertNoLoneSurrogate, firstInvalidUtf8 } from '../core/utf8.ts';
import { elideTurnContent } from './json-elide.ts';

export { InvalidUtf8Error, decodeUtf8Strict, firstInvalidUtf8 } from '../core/utf8.ts';

/**
 * Whether a string parsed from Latin-1 text holds a character ≥ U+0080 (a byte ≥ 0x80). Every character is ≤ U+00FF
 * there, each taking 1 UTF-8 byte below U+0080 and 2 above, so the UTF-8 length differs from the length exactly
 * when one is ≥ U+0080 — and V8 counts it about 4× faster than the regular expression /[\u0080-\u00ff]/ scans.
 */
function high(s: string): boolean {
  return Buffer.byteLength(s, 'utf8') !== s.length;
}
const BACKSLASH_U = Buffer.from('\\u');

/** Whether `buf` has a `\uXXXX` escape of a character ≥ U+0080 (conservatively: an escaped backslash counts too). */
function hasHighEscape(buf: Buffer): boolean {
  for (let i = buf.indexOf(BACKSLASH_U); i !== -1; i = buf.indexOf(BACKSLASH_U, i + 2)) {
    const hex = buf.toString('latin1', i + 2, i + 6);
    if (!/^00[0-7][0-9a-fA-F]$/.test(hex)) return true;
  }
  return false;
}

function utf8(s: string): string {
  return high(s) ? Buffer.from(s, 'latin1').toString('utf8') : s;
}

/** Re-decodes, in place, every string (and key) of a value parsed from Latin-1 text that holds bytes ≥ 0x80. */
function fixStrings(value: unknown): unknown {
  if (typeof value === 'string') return utf8(value);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const v: unknown = value[i];
      if (typeof v === 'string') {
        if (high(v)) value[i] = utf8(v);
      } else if (v !== null && typeof v === 'object') fixStrings(v);
    }
    return value;
  }
  if (value !== null && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    let badKey = false;
    for (const k in obj) {
      if (high(k)) badKey = true;
      const v = obj[k];
      if (typeof v === 'string') {
        if (high(v)) obj[k] = utf8(v);
      } else if (v !== null && typeof v === 'object') fixStrings(v);
    }
    if (badKey) {
      // Rebuild in the same key order with decoded keys.
      const entries = Object.entries(obj);
      for (const k of Object.keys(obj)) delete obj[k];
      // defineProperty, not assignment: JSON.parse makes "__proto__" an own key, which `obj[k] = v` would not.
      for (const [k, v] of entries)
        Object.defineProperty(obj, utf8(k), { value: v, writable: true, enumerable: true, configurable: true });
    }
    return obj;
  }
  return value;
}

/**
 * `JSON.parse` of UTF-8 bytes; throws JSON.parse's SyntaxError on malformed input and InvalidUtf8Error on bytes that
 * are not UTF-8.
 */
export function parseJsonBytes(bytes: Uint8Array, opts: ParseOptions = {}): unknown {
  const buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (!isUtf8(buf)) throw new InvalidUtf8Error(firstInvalidUtf8(buf));
  if (opts.elideContentOfRole === undefined) return parseUtf8Json(buf);
  const elided = elideTurnContent(buf, opts.elideContentOfRole);
  if (elided === buf) return parseUtf8Json(buf);
  try {
    return parseUtf8Json(elided);
  } catch {
    // Positions in the shortened bytes would mislead: the error of the whole input, where it is.
    return parseUtf8Json(buf);
  }
}

export type { ParseOptions };

function parseUtf8Json(buf: Buffer): unknown {
  if (hasHighEscape(buf)) {
    // Only an escape can spell a lone surrogate (`\ud800`): bytes that are UTF-8 cannot.
    const value: unknown = JSON.parse(buf.toString('utf8'));
    assertNoLoneSurrogate(value);
    return value;
  }
  return fixStrings(JSON.parse(buf.toString('latin1')));
}

/**
 * The InputError for a data file (or one element of a streamed array file) that could not be decoded: not gzip,
 * not UTF-8, or not JSON. One wording for every reader (records.ts, json-stream.ts).
 */
export function decodeFailure(err: unknown, file: string, element?: number): InputError {
  const at = element === undefined ? '' : `element ${element}: `;
  if (err instanceof InvalidUtf8Error)
    return new InputError(
      `${at}not valid UTF-8 (byte ${err.offset}${element === undefined ? '' : ' of the element'})`,
      file,
    );
  if (err instanceof LoneSurrogateError) return new InputError(`${at}${err.message}`, file);
  const code = (err as { code?: unknown }).code;
  const msg = err instanceof Error ? err.message : String(err);
  if (typeof code === 'string' && code.startsWith('Z_')) return new InputError(`not a valid gzip file (${msg})`, file);
  return new InputError(`${at}not valid JSON (${msg})`, file);
}
