/**
 * The bytes the JSON scanners over raw UTF-8 share (json-head.ts, json-array-split.ts, json-elide.ts): they find
 * structure without decoding, and JSON's structural characters are all ASCII.
 */
export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;

/** JSON whitespace (RFC 8259 §2: space, horizontal tab, line feed, carriage return). */
export function isJsonSpace(b: number | undefined): boolean {
  return b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;
}
