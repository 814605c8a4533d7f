/**
 * Strict UTF-8: bytes that are not well-formed UTF-8 are an error naming the byte offset, never silently replaced
 * by U+FFFD (an id with a replaced byte would no longer match its gold, a config value would change). Used by every
 * reader of user files (datasets: src/data/json-decode.ts; configs: src/run/config/yaml-text.ts).
 */

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Offset of the first byte of `b` that does not start a well-formed UTF-8 sequence (Unicode 15, table 3-7: no
 * overlong forms, no surrogates, nothing above U+10FFFF); `b.length` when all are well formed.
 */
export function firstInvalidUtf8(b: Uint8Array): number {
  let i = 0;
  while (i < b.length) {
    const c = b[i]!;
    if (c < 0x80) {
      i++;
      continue;
    }
    const n = c >= 0xc2 && c <= 0xdf ? 1 : c >= 0xe0 && c <= 0xef ? 2 : c >= 0xf0 && c <= 0xf4 ? 3 : 0;
    if (n === 0 || i + n >= b.length) return i;
    const lo = c === 0xe0 ? 0xa0 : c === 0xf0 ? 0x90 : 0x80;
    const hi = c === 0xed ? 0x9f : c === 0xf4 ? 0x8f : 0xbf;
    const second = b[i + 1]!;
    if (second < lo || second > hi) return i;
    for (let k = 2; k <= n; k++) if ((b[i + k]! & 0xc0) !== 0x80) return i;
    i += n + 1;
  }
  return b.length;
}

/** Thrown for bytes that are not UTF-8; callers add the file (and element) to the message. */
export class InvalidUtf8Error extends Error {
  constructor(readonly offset: number) {
    super(`invalid UTF-8 at byte ${offset}`);
    this.name = 'InvalidUtf8Error';
  }
}

/** Decodes UTF-8 bytes, throwing InvalidUtf8Error instead of substituting U+FFFD. */
export function decodeUtf8Strict(bytes: Uint8Array): string {
  try {
    return STRICT_UTF8.decode(bytes);
  } catch {
    throw new InvalidUtf8Error(firstInvalidUtf8(bytes));
  }
}

/**
 * Offset (in UTF-16 code units) of the first lone surrogate of `s` — a high surrogate not followed by a low one, or a
 * low one not preceded by a high one — or -1. JSON can spell one (`"\ud800"`); it is no character, and written out
 * as UTF-8 it becomes U+FFFD, so text holding one is refused where it enters, like bytes that are not UTF-8.
 */
export function firstLoneSurrogate(s: string): number {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0xd800 || c > 0xdfff) continue;
    if (c <= 0xdbff) {
      const next = s.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        i++;
        continue;
      }
    }
    return i;
  }
  return -1;
}

/** Where a parsed JSON value holds a lone surrogate: the value's path (`[3].haystack_sessions[0][1].content`), the offset. */
export class LoneSurrogateError extends Error {
  constructor(
    readonly path: string,
    readonly offset: number,
    readonly codeUnit: number,
  ) {
    super(
      `${path || '(root)'}: a lone surrogate \\u${codeUnit.toString(16)} at character ${offset}; refused rather than stored as U+FFFD`,
    );
    this.name = 'LoneSurrogateError';
  }
}

/** Throws LoneSurrogateError for the first string or key of a parsed JSON value that holds a lone surrogate. */
export function assertNoLoneSurrogate(value: unknown, path = ''): void {
  const check = (s: string, at: string): void => {
    const i = firstLoneSurrogate(s);
    if (i >= 0) throw new LoneSurrogateError(at, i, s.charCodeAt(i));
  };
  if (typeof value === 'string') check(value, path);
  else if (Array.isArray(value)) value.forEach((v, i) => assertNoLoneSurrogate(v, `${path}[${i}]`));
  else if (value !== null && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) {
      const at = /^[A-Za-z_$][\w$]*$/u.test(k) ? (path ? `${path}.${k}` : k) : `${path}[${JSON.stringify(k)}]`;
      check(k, `${at} (key)`);
      assertNoLoneSurrogate(v, at);
    }
}
