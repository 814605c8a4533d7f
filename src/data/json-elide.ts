/**
 * Reading only what a run uses: the `content` string of every turn object whose `role` is a given one
 * (`{"role": "assistant", "content": "…"}`, any JSON whitespace between the tokens) emptied in the raw bytes, before
 * they are decoded. The runner asks for it when no method of the run indexes that role (the official BM25 setup
 * indexes user turns only: `roles: [user]`), so nothing downstream can read the text — methods see the memory
 * index's units, built from the indexed roles only. On LongMemEval S the assistant turns' text is 82 % of the bytes,
 * so the Latin-1 copy, JSON.parse, and the garbage they make shrink about five-fold: cutting and parsing 120 S files
 * took ~90 ms against ~140–190 ms for the full parse (README, "Benchmarks and performance", has the run figures).
 *
 * Nothing is accepted that the full parse would reject: each removed string is checked as JSON.parse checks a string
 * — no raw control character (below U+0020), only the escapes `\" \\ \/ \b \f \n \r \t \uXXXX` — and the caller
 * checks UTF-8 on the whole input first. A removed range lies between the opening quote found right after the
 * `"content":` key and the first unescaped quote after it, so the bytes outside the ranges, and their validity, are
 * unchanged. A turn written another way (`content` before `role`) is simply not elided.
 */
import { BACKSLASH, isJsonSpace, QUOTE } from './json-bytes.ts';

const COLON = 0x3a;
const COMMA = 0x2c;
/** Bytes that may follow a backslash in JSON: 1 for the simple escapes `" \ / b f n r t`, 2 for `u` (four hex digits follow). */
const ESCAPES = new Uint8Array(256);
for (const b of [0x22, 0x5c, 0x2f, 0x62, 0x66, 0x6e, 0x72, 0x74]) ESCAPES[b] = 1;
ESCAPES[0x75] = 2;

function isHex(b: number | undefined): boolean {
  return b !== undefined && ((b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66));
}

/** A string in `buf` that JSON.parse would reject, at byte `offset`. */
export class JsonStringError extends SyntaxError {
  constructor(
    readonly offset: number,
    what: string,
  ) {
    super(`${what} in JSON at position ${offset}`);
  }
}

/** `buf[at…]` equals `text` (ASCII). */
function startsAt(buf: Uint8Array, at: number, text: Uint8Array): boolean {
  if (at < 0 || at + text.length > buf.length) return false;
  for (let i = 0; i < text.length; i++) if (buf[at + i] !== text[i]) return false;
  return true;
}

/**
 * Scans JSON strings of one buffer, checking their content as JSON.parse does. A candidate closing quote is found
 * with `indexOf` (native memchr); the bytes before it are then read four at a time (SWAR on 32-bit words) for a
 * control character or a backslash, and only a word holding one is read byte by byte, an escape taken whole (so
 * `\"` does not end the string, and the quote is looked for again after it). A control byte below 0x20 sets its
 * high bit in (w − 0x20202020) & ~w, a backslash sets it in (v − 0x01010101) & ~v for v = w ^ 0x5c5c5c5c; a byte
 * ≥ 0x80 can only raise a false alarm, settled byte by byte. Backslashes are common in LongMemEval's assistant text
 * (`\n`, ~2.5 million in S): finding each with its own `indexOf` call cost twice the time of this one pass.
 */
class StringScanner {
  private readonly words: Int32Array;
  /** Byte index of `words[0]`. */
  private readonly wordStart: number;

  constructor(private readonly buf: Buffer) {
    this.wordStart = (4 - (buf.byteOffset & 3)) & 3;
    this.words = new Int32Array(
      buf.buffer,
      buf.byteOffset + this.wordStart,
      Math.max(0, (buf.length - this.wordStart) >> 2),
    );
  }

  /** The index of the closing quote of the string whose content starts at `start`; throws JsonStringError on a raw
   * control character, a bad escape or a missing closing quote. */
  end(start: number): number {
    for (let i = start; ; ) {
      const q = this.buf.indexOf(QUOTE, i);
      if (q === -1) throw new JsonStringError(this.buf.length, 'Unterminated string');
      i = this.checkUpTo(i, q);
      if (i === q) return q;
    }
  }

  /**
   * Checks `buf[from, quote)`; returns `quote`, or `quote + 1` when the quote is the second byte of an escape (`\"`):
   * then the string goes on after it.
   */
  private checkUpTo(from: number, quote: number): number {
    const { buf, words, wordStart } = this;
    /** Words wholly before the quote: indices below this. */
    const endWord = (quote - wordStart) >> 2;
    let i = from;
    while (i < quote) {
      if (((i - wordStart) & 3) === 0) {
        // At a word boundary: skip the words that hold no control byte and no backslash.
        let w = (i - wordStart) >> 2;
        for (; w < endWord; w++) {
          const x = words[w]!;
          const v = x ^ 0x5c5c5c5c;
          if (((((x - 0x20202020) & ~x) | ((v - 0x01010101) & ~v)) & 0x80808080) !== 0) break;
        }
        i = wordStart + 4 * w;
        if (i >= quote) break;
      }
      const c = buf[i]!;
      if (c === BACKSLASH) i = this.escapeEnd(i);
      else if (c < 0x20) throw controlAt(i);
      else i++;
    }
    return i;
  }

  /** The index after the escape whose backslash is at `b`. */
  private escapeEnd(b: number): number {
    const buf = this.buf;
    const kind = ESCAPES[buf[b + 1] ?? 0]!;
    if (kind === 1) return b + 2;
    if (kind === 2) {
      if (!(isHex(buf[b + 2]) && isHex(buf[b + 3]) && isHex(buf[b + 4]) && isHex(buf[b + 5])))
        throw new JsonStringError(b, 'Bad Unicode escape');
      return b + 6;
    }
    throw new JsonStringError(b, 'Bad escaped character');
  }
}

function controlAt(i: number): JsonStringError {
  return new JsonStringError(i, 'Bad control character in string literal');
}

/**
 * `buf` with the content of every `"content"` string of a turn object whose `"role"` is `role` removed (the string
 * left empty), or `buf` itself when there is none.
 */
export function elideTurnContent(buf: Buffer, role: string): Buffer {
  const value = Buffer.from(`"${role}"`);
  const roleKey = Buffer.from('"role"');
  const contentKey = Buffer.from('"content"');
  const kept: Buffer[] = [];
  let from = 0;
  let scanner: StringScanner | undefined;
  for (let v = buf.indexOf(value); v !== -1; v = buf.indexOf(value, v + value.length)) {
    // Backwards: `"role"` ws `:` ws, right before the value.
    let j = v - 1;
    while (isJsonSpace(buf[j])) j--;
    if (buf[j] !== COLON) continue;
    j--;
    while (isJsonSpace(buf[j])) j--;
    if (!startsAt(buf, j - roleKey.length + 1, roleKey)) continue;
    // Forwards: ws `,` ws `"content"` ws `:` ws `"`.
    let k = v + value.length;
    while (isJsonSpace(buf[k])) k++;
    if (buf[k] !== COMMA) continue;
    k++;
    while (isJsonSpace(buf[k])) k++;
    if (!startsAt(buf, k, contentKey)) continue;
    k += contentKey.length;
    while (isJsonSpace(buf[k])) k++;
    if (buf[k] !== COLON) continue;
    k++;
    while (isJsonSpace(buf[k])) k++;
    if (buf[k] !== QUOTE) continue;
    const start = k + 1;
    const end = (scanner ??= new StringScanner(buf)).end(start);
    kept.push(buf.subarray(from, start));
    from = end;
    v = end;
  }
  if (kept.length === 0) return buf;
  kept.push(buf.subarray(from));
  return Buffer.concat(kept);
}
