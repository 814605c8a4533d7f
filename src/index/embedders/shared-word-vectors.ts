/**
 * The wink word-vector cache file (wink-vectors.ts, ~147 MB) read once per process and shared by its worker threads.
 *
 * Without this, each compute worker (src/run/parallel) read its own copy of the file, so peak RSS grew by ~147 MB per
 * worker. Now the runner creates a *slot* before starting the workers — a SharedArrayBuffer the size of the file
 * plus a state cell — and passes it in their init data. The first thread that needs the vectors claims the slot
 * (compare-and-swap EMPTY → LOADING), reads the file into it and marks it READY; the others wait on the state cell
 * (Atomics.wait) and then build their `WordVectors` as views over the same shared bytes. A run that never embeds
 * (BM25 only) never touches the slot, and untouched pages of a fresh SharedArrayBuffer are not resident, so it costs
 * nothing. If the file cannot be read into the slot (changed size, I/O error) the slot is marked FAILED and every
 * thread falls back to reading its own copy, with the usual errors.
 */
import { closeSync, existsSync, fstatSync, openSync, readSync, statSync } from 'node:fs';

export interface WordVectorsSlot {
  /** The cache file this slot holds. */
  path: string;
  /** Its size when the slot was made. */
  byteLength: number;
  bytes: SharedArrayBuffer;
  /** Int32[1]: EMPTY, LOADING, READY or FAILED. */
  state: SharedArrayBuffer;
}

const EMPTY = 0;
const LOADING = 1;
const READY = 2;
const FAILED = 3;

/** A slot for the cache file at `path`, or undefined when there is no such file yet (the first run converts it). */
export function createWordVectorsSlot(path: string): WordVectorsSlot | undefined {
  if (!existsSync(path)) return undefined;
  const byteLength = statSync(path).size;
  return { path, byteLength, bytes: new SharedArrayBuffer(byteLength), state: new SharedArrayBuffer(4) };
}

const registered = new Map<string, WordVectorsSlot>();

/** Makes `loadWinkVectors` of this thread read `slot.path` through the shared slot. */
export function useWordVectorsSlot(slot: WordVectorsSlot): void {
  registered.set(slot.path, slot);
}

/**
 * The file's bytes in the shared slot registered for `path` (loading them if no thread has yet, waiting if one is),
 * or undefined when no slot is registered or the slot could not be filled.
 */
export function sharedWordVectorBytes(path: string): Uint8Array | undefined {
  const slot = registered.get(path);
  if (!slot) return undefined;
  const state = new Int32Array(slot.state);
  const bytes = new Uint8Array(slot.bytes);
  for (;;) {
    const seen = Atomics.compareExchange(state, 0, EMPTY, LOADING);
    if (seen === READY) return bytes;
    if (seen === FAILED) return undefined;
    if (seen === EMPTY) {
      let ok = false;
      try {
        ok = readInto(slot.path, bytes);
      } catch {
        ok = false;
      } finally {
        Atomics.store(state, 0, ok ? READY : FAILED);
        Atomics.notify(state, 0);
      }
      return ok ? bytes : undefined;
    }
    Atomics.wait(state, 0, LOADING);
  }
}

/** Reads the whole file into `into`; false when its size is no longer the slot's. */
function readInto(path: string, into: Uint8Array): boolean {
  const fd = openSync(path, 'r');
  try {
    if (fstatSync(fd).size !== into.byteLength) return false;
    let off = 0;
    while (off < into.byteLength) {
      const n = readSync(fd, into, off, into.byteLength - off, off);
      if (n === 0) return false;
      off += n;
    }
    return true;
  } finally {
    closeSync(fd);
  }
}
