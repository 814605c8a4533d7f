/**
 * The embedding cache the shards of a run share (embedding-cache-files.ts): a vector one process embedded is served
 * to another without a new embedding call — while a third process holds the DuckDB file's lock, and in front of it
 * for the process that holds it — and a torn file is a miss, not a wrong vector. Chinese text included.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Embedder } from '../core/interfaces.ts';
import { holdDuckDbLock } from '../store/testing/lock-holder.ts';
import { EMBEDDING_FILES_DIR, SharedEmbeddingCache } from './embedding-cache-files.ts';
import { CachedEmbedder, EMBEDDINGS_DB_FILE, openEmbeddingCache, textHash } from './embedding-cache.ts';

const dir = mkdtempSync(join(tmpdir(), 'adaptmr-emb-files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** An embedder that counts the texts it is asked to embed (each would be a paid call). */
function counting(): Embedder & { texts: string[] } {
  const texts: string[] = [];
  return {
    id: 'counting-3',
    dim: 3,
    texts,
    async embed(batch: string[]) {
      texts.push(...batch);
      return batch.map((t) => Float32Array.of(t.length, t.codePointAt(0) ?? 0, 0.5));
    },
  };
}

describe('the shared embedding cache', () => {
  it('serves one shard the vectors another embedded, while a third process holds the DuckDB file', async () => {
    const cacheDir = join(dir, 'locked');
    mkdirSync(cacheDir, { recursive: true });
    const holder = await holdDuckDbLock(join(cacheDir, EMBEDDINGS_DB_FILE));
    try {
      const [a, b] = [
        await openEmbeddingCache({ cacheDir, shared: true }),
        await openEmbeddingCache({ cacheDir, shared: true }),
      ];
      expect(a.kind).toBe('files');
      const [ea, eb] = [counting(), counting()];
      const first = await new CachedEmbedder(ea, a).embed(['用户喜欢猫', 'likes cats']);
      const again = await new CachedEmbedder(eb, b).embed(['likes cats', '用户喜欢猫', 'new text']);
      expect(ea.texts).toEqual(['用户喜欢猫', 'likes cats']);
      expect(eb.texts).toEqual(['new text']);
      expect([...again[1]!]).toEqual([...first[0]!]);
      await a.close();
      await b.close();
    } finally {
      holder.kill();
    }
  });

  it('the process holding the DuckDB file writes the files too, and reads others’ files on a miss', async () => {
    const cacheDir = join(dir, 'held');
    const holder = await openEmbeddingCache({ cacheDir, shared: true });
    const other = new SharedEmbeddingCache(join(cacheDir, EMBEDDING_FILES_DIR));
    await holder.put('m', [{ hash: textHash('x'), vector: Float32Array.of(1, 2) }]);
    await other.put('m', [{ hash: textHash('y'), vector: Float32Array.of(3, 4) }]);
    const fromOther = await other.get('m', [textHash('x')]);
    const fromHolder = await holder.get('m', [textHash('y')]);
    expect([...fromOther.get(textHash('x'))!]).toEqual([1, 2]);
    expect([...fromHolder.get(textHash('y'))!]).toEqual([3, 4]);
    await holder.close();
  });

  it('takes a torn vector file for a miss', async () => {
    const files = join(dir, 'torn');
    const cache = new SharedEmbeddingCache(files);
    const hash = textHash('torn');
    await cache.put('m', [{ hash, vector: Float32Array.of(1, 2) }]);
    const [model] = readdirSync(files);
    writeFileSync(join(files, model!, hash.slice(0, 2), `${hash}.f32`), Buffer.from([1, 2, 3]));
    expect((await cache.get('m', [hash])).size).toBe(0);
  });
});
