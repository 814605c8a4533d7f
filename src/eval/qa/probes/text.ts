/**
 * Text helpers of the probe rules: content tokens (lower-cased letters and digits, English stop words dropped; a run
 * of CJK characters as its character bigrams, so Chinese compares without a word segmenter) and whether two answers
 * share content.
 */

const STOP = new Set(
  (
    'a an the of to in on at for from by with and or but is are was were be been being it its this that these those ' +
    'he she they them his her their him i you we me my your our as about into over after before than then so do does ' +
    'did has have had not no yes'
  ).split(' '),
);

const CJK = /[\u3400-\u9fff\uf900-\ufaff]/u;

export function contentTokens(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)) {
    const word = m[0];
    if (CJK.test(word)) {
      const chars = [...word];
      if (chars.length === 1) out.add(word);
      for (let i = 0; i + 1 < chars.length; i++) out.add(chars[i]! + chars[i + 1]!);
    } else if (!STOP.has(word)) {
      out.add(word);
    }
  }
  return out;
}

/** Whether the two texts share any content token. */
export function overlaps(a: string, b: string): boolean {
  const ta = contentTokens(a);
  for (const t of contentTokens(b)) if (ta.has(t)) return true;
  return false;
}

/** Compared as the probes' guard: case, punctuation and spacing ignored. */
export function normalised(text: string): string {
  return [...text.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)].map((m) => m[0]).join(' ');
}

export function hasCjk(text: string): boolean {
  return CJK.test(text);
}
