/**
 * Interned substrings: ids 0, 1, … in order of first `intern`, and a substring `src[start, end)` found from its
 * position and hash without slicing it out — a text repeats most of its words, so a scanner that hashes each word as
 * it reads it makes a string only for a word it has never seen, or none at all when the table may keep its sources
 * (`keepSources`). Open addressing (linear probing, load ≤ ½) on the
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
  /**
   * The strings entries are read from: each entry's own copy, or — keeping sources — each distinct source once (a
   * scanner interns a text's words one after another, so a source is added when it differs from the last one).
   */
  private sources: string[] = [];
  private lastSource: string | undefined;
  private entries = 0;
  /** Per id: the index of its string in `sources`, where it starts there, its length, its hash. */
  private sourceOf = new Int32Array(1 << 10);
  private starts = new Int32Array(1 << 10);
  private lengths = new Int32Array(1 << 10);
  private hashes = new Int32Array(1 << 10);

  /**
   * `keepSources`: an entry is read where it was first found (its source string and position), never sliced out —
   * for a table that lives no longer than its sources (a BM25 index and its units' texts). Otherwise each new entry
   * is copied out, so a long-lived table keeps no source alive.
   */
  constructor(private readonly keepSources = false) {}

  get size(): number {
    return this.entries;
  }

  /** The string of an id. */
  text(id: number): string {
    const src = this.sources[this.sourceOf[id]!]!;
    const start = this.starts[id]!;
    const length = this.lengths[id]!;
    return start === 0 && length === src.length ? src : src.slice(start, start + length);
  }

  /** The id of `src[start, end)`, whose hash is `h`, or -1. */
  find(src: string, start: number, end: number, h: number): number {
    const { slotIds, slotHashes, sources, sourceOf, starts, lengths } = this;
    const mask = slotIds.length - 1;
    const len = end - start;
    for (let slot = h & mask, e = slotIds[slot]!; e !== 0; slot = (slot + 1) & mask, e = slotIds[slot]!) {
      if (slotHashes[slot] !== h || lengths[e - 1] !== len) continue;
      if (sameAt(sources[sourceOf[e - 1]!]!, starts[e - 1]!, src, start, len)) return e - 1;
    }
    return -1;
  }

  /** The id of `src[start, end)` (hash `h`), added when new. */
  intern(src: string, start: number, end: number, h: number): number {
    const found = this.find(src, start, end, h);
    if (found >= 0) return found;
    const id = this.entries++;
    if (id === this.starts.length) this.growEntries();
    const whole = start === 0 && end === src.length;
    if (this.keepSources || whole) {
      if (src !== this.lastSource) this.sources.push((this.lastSource = src));
      this.starts[id] = start;
    } else {
      this.sources.push(src.slice(start, end));
      this.lastSource = undefined;
      this.starts[id] = 0;
    }
    this.sourceOf[id] = this.sources.length - 1;
    this.lengths[id] = end - start;
    this.hashes[id] = h;
    if (2 * this.entries > this.slotIds.length) this.rehash(2 * this.slotIds.length);
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
    this.sources = [];
    this.lastSource = undefined;
    this.entries = 0;
    this.slotIds = new Int32Array(1 << 12);
    this.slotHashes = new Int32Array(1 << 12);
  }

  private growEntries(): void {
    const grow = (a: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> => {
      const out = new Int32Array(2 * a.length);
      out.set(a);
      return out;
    };
    this.sourceOf = grow(this.sourceOf);
    this.starts = grow(this.starts);
    this.lengths = grow(this.lengths);
    this.hashes = grow(this.hashes);
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
    for (let id = 0; id < this.entries; id++) this.place(id, this.hashes[id]!);
  }
}

/** `a[aStart, aStart + len)` equals `b[bStart, bStart + len)`: a loop the optimiser inlines, where a builtin is a call. */
function sameAt(a: string, aStart: number, b: string, bStart: number, len: number): boolean {
  for (let k = 0; k < len; k++) if (a.charCodeAt(aStart + k) !== b.charCodeAt(bStart + k)) return false;
  return true;
}
