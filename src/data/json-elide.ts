/**
 * Reading only what a run uses: the `content` string of every LongMemEval turn object whose `role` is a given one
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
/** The escapes JSON allows after a backslash (besides `u`). */
const SIMPLE_ESCAPES = new Set([0x22, 0x5c, 0x2f, 0x62, 0x66, 0x6e, 0x72, 0x74]);

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
 * Scans JSON strings of one buffer, checking their content as JSON.parse does. Quotes and backslashes are found
 * with `indexOf` (native memchr), each position remembered until the scan passes it; the bytes between are checked
 * for control characters four at a time (SWAR on 32-bit words: a byte below 0x20 sets its high bit in
 * (w − 0x20202020) & ~w; a byte ≥ 0x80 can only raise a false alarm, settled byte by byte).
 */
class StringScanner {
  private readonly words: Int32Array;
  /** Byte index of `words[0]`. */
  private readonly wordStart: number;
  private nextQuote = -1;
  private nextBackslash = -1;

  constructor(private readonly buf: Buffer) {
    this.wordStart = (4 - (buf.byteOffset & 3)) & 3;
    this.words = new Int32Array(buf.buffer, buf.byteOffset + this.wordStart, Math.max(0, (buf.length - this.wordStart) >> 2));
  }

  /** The index of the closing quote of the string whose content starts at `start`; throws JsonStringError on a raw
   * control character, a bad escape or a missing closing quote. */
  end(start: number): number {
    const buf = this.buf;
    let i = start;
    for (;;) {
      if (this.nextQuote < i) this.nextQuote = buf.indexOf(QUOTE, i);
      const q = this.nextQuote;
      if (q === -1) throw new JsonStringError(buf.length, 'Unterminated string');
      if (this.nextBackslash < i && this.nextBackslash !== -2) {
        this.nextBackslash = buf.indexOf(BACKSLASH, i);
        if (this.nextBackslash === -1) this.nextBackslash = -2; // none left in the buffer
      }
      const b = this.nextBackslash >= 0 && this.nextBackslash < q ? this.nextBackslash : q;
      this.checkControls(i, b);
      if (b === q) return q;
      const e = buf[b + 1];
      if (e === 0x75) {
        if (!(isHex(buf[b + 2]) && isHex(buf[b + 3]) && isHex(buf[b + 4]) && isHex(buf[b + 5]))) throw new JsonStringError(b, 'Bad Unicode escape');
        i = b + 6;
      } else if (e !== undefined && SIMPLE_ESCAPES.has(e)) {
        i = b + 2;
      } else {
        throw new JsonStringError(b, 'Bad escaped character');
      }
    }
  }

  /** Throws when a byte of `buf[from, to)` is below 0x20. */
  private checkControls(from: number, to: number): void {
    const { buf, words, wordStart } = this;
    let i = from;
    const firstWord = (i - wordStart + 3) >> 2; // the first word starting at or after `from`
    const endWord = (to - wordStart) >> 2; // words wholly before `to`
    if (firstWord < endWord) {
      const head = wordStart + 4 * firstWord;
      for (; i < head; i++) if (buf[i]! < 0x20) throw controlAt(i);
      for (let w = firstWord; w < endWord; w++) {
        const x = words[w]!;
        if (((x - 0x20202020) & ~x & 0x80808080) !== 0) {
          for (let k = wordStart + 4 * w; k < wordStart + 4 * w + 4; k++) if (buf[k]! < 0x20) throw controlAt(k);
        }
      }
      i = wordStart + 4 * endWord;
    }
    for (; i < to; i++) if (buf[i]! < 0x20) throw controlAt(i);
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
