/**
 * Interned substrings: ids 0, 1, … in order of first `intern`, and a substring `src[start, end)` found from its
 * position and hash without slicing it out — a text repeats most of its words, so a scanner that hashes each word as
 * it reads it makes a string only for a word it has never seen. Open addressing (linear probing, load ≤ ½) on the
 * FNV-1a hash of the UTF-16 code units; callers hash as they scan, from `FNV_OFFSET` with
 * `h = Math.imul(h ^ codeUnit, FNV_PRIME)` per code unit (written out in their loops: `fnvHash` is the same).
 * Users: BM25's whitespace vocabulary (vocabulary.ts) and the strategies' unit word keys (strategies/text.ts).
 */

export const FNV_OFFSET = 0x811c9dc5 | 0;
export const FNV_PRIME = 16777619;

/** FNV-1a of a whole string's code units: the hash a scanner reaching its end has. */
export function fnvHash(s: string): number {
  let h = FNV_OFFSET;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), FNV_PRIME);
  return h;
}

export class SubstringTable {
  /** Per slot: id + 1 (0 = empty) and the hash. */
  private slotIds = new Int32Array(1 << 12);
  private slotHashes = new Int32Array(1 << 12);
  private strings: string[] = [];
  private hashes: number[] = [];

  get size(): number {
    return this.strings.length;
  }

  /** The string of an id. */
  text(id: number): string {
    return this.strings[id]!;
  }

  /** The id of `src[start, end)`, whose hash is `h`, or -1. */
  find(src: string, start: number, end: number, h: number): number {
    const { slotIds, slotHashes, strings } = this;
    const mask = slotIds.length - 1;
    const len = end - start;
    for (let slot = h & mask, e = slotIds[slot]!; e !== 0; slot = (slot + 1) & mask, e = slotIds[slot]!) {
      if (slotHashes[slot] !== h) continue;
      const t = strings[e - 1]!;
      if (t.length === len && sameAt(t, src, start)) return e - 1;
    }
    return -1;
  }

  /** The id of `src[start, end)` (hash `h`), added (sliced once) when new. */
  intern(src: string, start: number, end: number, h: number): number {
    const found = this.find(src, start, end, h);
    if (found >= 0) return found;
    const id = this.strings.length;
    this.strings.push(start === 0 && end === src.length ? src : src.slice(start, end));
    this.hashes.push(h);
    if (2 * this.strings.length > this.slotIds.length) this.rehash(2 * this.slotIds.length);
    else this.place(id, h);
    return id;
  }

  /** The id of a whole string, or undefined. */
  id(s: string): number | undefined {
    const found = this.find(s, 0, s.length, fnvHash(s));
    return found >= 0 ? found : undefined;
  }

  /** Forgets every string (ids start again at 0). */
  clear(): void {
    this.strings = [];
    this.hashes = [];
    this.slotIds = new Int32Array(1 << 12);
    this.slotHashes = new Int32Array(1 << 12);
  }

  private place(id: number, h: number): void {
    const mask = this.slotIds.length - 1;
    let slot = h & mask;
    while (this.slotIds[slot] !== 0) slot = (slot + 1) & mask;
    this.slotIds[slot] = id + 1;
    this.slotHashes[slot] = h;
  }

  private rehash(capacity: number): void {
    this.slotIds = new Int32Array(capacity);
    this.slotHashes = new Int32Array(capacity);
    for (let id = 0; id < this.strings.length; id++) this.place(id, this.hashes[id]!);
  }
}

/** `src.startsWith(t, start)` for a short `t`: a loop the optimiser inlines, where the builtin is a call. */
function sameAt(t: string, src: string, start: number): boolean {
  for (let k = 0; k < t.length; k++) if (t.charCodeAt(k) !== src.charCodeAt(start + k)) return false;
  return true;
}
