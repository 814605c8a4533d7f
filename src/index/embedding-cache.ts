/**
 * Content-addressed embedding cache (docs/design.md §3: "every embedding goes through one client with a
 * content-addressed cache, so a rerun costs nothing"): vectors are stored by (embedder id, sha256 of the text) in a
 * DuckDB file, `<cacheDir>/embeddings.duckdb`, table `embeddings(model, text_sha256, dim, vector BLOB)` with the
 * vector as float32 little-endian bytes (a BLOB reads back as one copy; a FLOAT[] comes back as boxed numbers).
 *
 * DuckDB allows one writing process per file. The cache is opened once for a run and closed at the end; when another
 * process holds the lock, this process falls back to an in-memory cache and says so on stderr, rather than failing.
 *
 * Which embedders go through the cache is decided per embedder (`cache` option in the registry): on for remote
 * APIs (`openai`: calls cost money and time), off for the offline `wink-sif` (recomputing a SIF vector takes
 * microseconds, less than a cache lookup).
 */
import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import type { Embedder } from '../core/interfaces.ts';
import { errorMessage } from '../core/errors.ts';
import { resolveCacheDir } from '../core/cache-dir.ts';
import { CACHE_DIR_HINT, ensureWritableDir } from '../core/writable-dir.ts';

export const EMBEDDINGS_DB_FILE = 'embeddings.duckdb';

export interface EmbeddingCache {
  /**
   * `duckdb` (persistent), `memory` (this process only: the file was locked, or asked for), or `files` (one file per
   * vector beside the DuckDB file, shared by the shards of a run: embedding-cache-files.ts).
   */
  readonly kind: 'duckdb' | 'memory' | 'files';
  get(model: string, hashes: readonly string[]): Promise<Map<string, Float32Array>>;
  put(model: string, entries: readonly { hash: string; vector: Float32Array }[]): Promise<void>;
  close(): Promise<void>;
}

export function textHash(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** In-process cache: the fallback when the DuckDB file is locked, and handy in tests. */
export class MemoryEmbeddingCache implements EmbeddingCache {
  readonly kind = 'memory' as const;
  private readonly byModel = new Map<string, Map<string, Float32Array>>();

  get(model: string, hashes: readonly string[]): Promise<Map<string, Float32Array>> {
    const table = this.byModel.get(model);
    const out = new Map<string, Float32Array>();
    if (table)
      for (const h of hashes) {
        const v = table.get(h);
        if (v) out.set(h, v);
      }
    return Promise.resolve(out);
  }

  put(model: string, entries: readonly { hash: string; vector: Float32Array }[]): Promise<void> {
    let table = this.byModel.get(model);
    if (!table) this.byModel.set(model, (table = new Map()));
    for (const e of entries) table.set(e.hash, e.vector);
    return Promise.resolve();
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

/**
 * Opens `<cacheDir>/embeddings.duckdb` (or `path`). If another process holds the file's lock, warns on stderr and
 * returns an in-memory cache for this process instead of failing.
 */
export async function openEmbeddingCache(
  options: { cacheDir?: string; path?: string; shared?: boolean } = {},
): Promise<EmbeddingCache> {
  const path = options.path ?? join(resolveCacheDir(options.cacheDir), EMBEDDINGS_DB_FILE);
  ensureWritableDir(dirname(path), 'cache folder', CACHE_DIR_HINT);
  if (options.shared) return openShared(path);
  try {
    // DuckDB loads here, so processes and worker threads that never cache embeddings do not load it. The module
    // imported is ours, which imports DuckDB statically: in the split bundle (scripts/bundle.mjs) a dynamic import of
    // the bundled CommonJS package itself yields only its default export, so `{ DuckDBInstance }` was undefined.
    const { DuckDBEmbeddingCache } = await import('./embedding-cache-duckdb.ts');
    return await DuckDBEmbeddingCache.open(path);
  } catch (err) {
    if (!/lock/i.test(errorMessage(err))) throw err;
    process.stderr.write(
      `warning: embedding cache ${path} is in use by another process (${errorMessage(err).split('\n')[0]}); ` +
        'using an in-memory cache for this process, so its embeddings will not be saved\n',
    );
    return new MemoryEmbeddingCache();
  }
}

/**
 * A shard's cache (several processes at once): the vector files beside the DuckDB file, read and written by every
 * shard, with the DuckDB file in front when this process gets its lock (embedding-cache-files.ts).
 */
async function openShared(path: string): Promise<EmbeddingCache> {
  const { SharedEmbeddingCache, EMBEDDING_FILES_DIR } = await import('./embedding-cache-files.ts');
  const files = join(dirname(path), EMBEDDING_FILES_DIR);
  try {
    const { DuckDBEmbeddingCache } = await import('./embedding-cache-duckdb.ts');
    return new SharedEmbeddingCache(files, await DuckDBEmbeddingCache.open(path));
  } catch (err) {
    if (!/lock/i.test(errorMessage(err))) throw err;
    return new SharedEmbeddingCache(files);
  }
}

/** An embedder that serves vectors from the cache and embeds only the texts it has never seen (per embedder id). */
export class CachedEmbedder implements Embedder {
  readonly id: string;
  readonly dim: number;
  /** Unique texts per call found in the cache (hits) and sent to the inner embedder (misses). */
  readonly stats = { hits: 0, misses: 0 };
  /** Texts being embedded right now, so concurrent calls with the same text embed it once. */
  private readonly inflight = new Map<string, Promise<Float32Array>>();

  constructor(
    readonly inner: Embedder,
    private readonly cache: EmbeddingCache,
  ) {
    this.id = inner.id;
    this.dim = inner.dim;
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    const hashes = texts.map(textHash);
    // Claim every text not already in flight *before* any await, so concurrent calls never embed it twice.
    const waiting = new Map<string, Promise<Float32Array>>();
    const mine = new Map<string, Deferred>();
    for (const h of new Set(hashes)) {
      let p = this.inflight.get(h);
      if (!p) {
        const d = deferred();
        mine.set(h, d);
        this.inflight.set(h, d.promise);
        p = d.promise;
      }
      waiting.set(h, p);
    }
    if (mine.size > 0) {
      try {
        const owned = [...mine.keys()];
        const found = await this.cache.get(this.id, owned);
        for (const [h, v] of found) mine.get(h)?.resolve(v);
        const missing = owned.filter((h) => !found.has(h));
        this.stats.hits += found.size;
        this.stats.misses += missing.length;
        if (missing.length > 0) {
          const textOf = new Map<string, string>();
          hashes.forEach((h, i) => textOf.set(h, texts[i]!));
          const vectors = await this.inner.embed(missing.map((h) => textOf.get(h)!));
          if (vectors.length !== missing.length) {
            throw new Error(`embedder ${this.id} returned ${vectors.length} vectors for ${missing.length} texts`);
          }
          await this.cache.put(
            this.id,
            missing.map((hash, i) => ({ hash, vector: vectors[i]! })),
          );
          missing.forEach((h, i) => mine.get(h)?.resolve(vectors[i]!));
        }
      } catch (err) {
        // Errors are never cached: every claimed text fails for its waiters and is free to be retried.
        for (const d of mine.values()) d.reject(err);
      } finally {
        for (const h of mine.keys()) this.inflight.delete(h);
      }
    }
    const resolved = new Map<string, Float32Array>();
    for (const [h, p] of waiting) resolved.set(h, await p);
    return hashes.map((h) => resolved.get(h)!);
  }
}

interface Deferred {
  promise: Promise<Float32Array>;
  resolve(v: Float32Array): void;
  reject(err: unknown): void;
}

function deferred(): Deferred {
  let resolve!: (v: Float32Array) => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<Float32Array>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // Marked handled: a waiter that is not awaited (its call already failed on another text) must not crash the process.
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}
