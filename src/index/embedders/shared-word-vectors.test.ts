// One copy of the word-vector cache per process: worker threads read it through a shared slot. Checked with real
// worker threads on a tiny cache file: the second worker gets the bytes the first one loaded (the file on disk has
// been zeroed in between, so a private read would fail), both see the same SharedArrayBuffer-backed vectors, and a
// slot whose file changed size falls back to an ordinary read.
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { createWordVectorsSlot, useWordVectorsSlot, type WordVectorsSlot } from './shared-word-vectors.ts';
import { convertWinkJson, loadWinkVectors, WINK_CACHE_FILE } from './wink-vectors.ts';

function tinyCache(words: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'wink-shared-'));
  const json = join(dir, 'tiny.json');
  const vectors = Object.fromEntries(words.map((w, i) => [w, [i + 1, -(i + 1), Math.SQRT2 * (i + 1), i]]));
  writeFileSync(json, JSON.stringify({ size: words.length, dimensions: 2, words, vectors }));
  convertWinkJson(json, join(dir, WINK_CACHE_FILE));
  return dir;
}

/** Loads the vectors in a fresh worker thread through `slot`; returns what it saw. */
async function loadInWorker(
  slot: WordVectorsSlot,
  cacheDir: string,
  word: string,
): Promise<{ row: number; vector: number[]; shared: boolean }> {
  const api = import.meta.resolve('tsx/esm/api');
  const mod = new URL('./shared-word-vectors.ts', import.meta.url).href;
  const vec = new URL('./wink-vectors.ts', import.meta.url).href;
  const code = `
    const { workerData, parentPort } = await import('node:worker_threads');
    (await import(${JSON.stringify(api)})).register();
    const { useWordVectorsSlot } = await import(${JSON.stringify(mod)});
    const { loadWinkVectors } = await import(${JSON.stringify(vec)});
    useWordVectorsSlot(workerData.slot);
    const v = loadWinkVectors({ cacheDir: workerData.cacheDir });
    const row = v.lookup(workerData.word);
    parentPort.postMessage({ row, vector: [...v.vector(row)], shared: v.matrix.buffer instanceof SharedArrayBuffer });`;
  const worker = new Worker(`(async () => {${code}})().catch((e) => { throw e; })`, {
    eval: true,
    workerData: { slot, cacheDir, word },
  });
  const [msg] = (await once(worker, 'message')) as [{ row: number; vector: number[]; shared: boolean }];
  await worker.terminate();
  return msg;
}

describe('shared word vectors', () => {
  it('is read once into shared memory and reused by the next worker', async () => {
    const dir = tinyCache(['the', 'café', '猫']);
    const path = join(dir, WINK_CACHE_FILE);
    const slot = createWordVectorsSlot(path)!;
    expect(slot.byteLength).toBe(statSync(path).size);
    const first = await loadInWorker(slot, dir, '猫');
    expect(first).toEqual({ row: 2, vector: [3, -3], shared: true });
    // Zero the file (same size): a worker reading its own copy would now fail on the magic number.
    writeFileSync(path, Buffer.alloc(slot.byteLength));
    const second = await loadInWorker(slot, dir, 'café');
    expect(second).toEqual({ row: 1, vector: [2, -2], shared: true });
  }, 60_000);

  it('falls back to reading the file when it changed size after the slot was made', () => {
    const dir = tinyCache(['a', 'b']);
    const path = join(dir, WINK_CACHE_FILE);
    const slot = createWordVectorsSlot(path)!;
    const other = tinyCache(['a', 'b', 'c', 'dd', 'eee']);
    writeFileSync(path, readFileSync(join(other, WINK_CACHE_FILE)));
    useWordVectorsSlot(slot);
    const v = loadWinkVectors({ cacheDir: dir });
    expect(v.size).toBe(5);
    expect(v.matrix.buffer instanceof SharedArrayBuffer).toBe(false);
    expect(new Int32Array(slot.state)[0]).toBe(3);
  });

  it('makes no slot when there is no cache file yet', () => {
    expect(createWordVectorsSlot(join(tmpdir(), 'no-such-dir', WINK_CACHE_FILE))).toBeUndefined();
  });
});
