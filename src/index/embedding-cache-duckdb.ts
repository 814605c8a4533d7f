/**
 * The persistent embedding cache (embedding-cache.ts): vectors by (embedder id, sha256 of the text) in a DuckDB file,
 * table `embeddings(model, text_sha256, dim, vector BLOB)`, float32 little-endian bytes. Its own module so that
 * DuckDB loads only when a run opens the cache (`openEmbeddingCache` imports this module on demand). It does not
 * import the `EmbeddingCache` interface back (the two modules would form an import cycle): `openEmbeddingCache`
 * returns it as one, so the compiler checks it there.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';

const HEX64 = /^[0-9a-f]{64}$/;
const LOOKUP_CHUNK = 2000;

export class DuckDBEmbeddingCache {
  readonly kind = 'duckdb' as const;
  /** Operations run one at a time on the single connection. */
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly instance: DuckDBInstance,
    private readonly conn: DuckDBConnection,
    readonly path: string,
  ) {}

  static async open(path: string): Promise<DuckDBEmbeddingCache> {
    mkdirSync(dirname(path), { recursive: true });
    const instance = await DuckDBInstance.create(path);
    const conn = await instance.connect();
    await conn.run(
      'CREATE TABLE IF NOT EXISTS embeddings (model VARCHAR NOT NULL, text_sha256 VARCHAR NOT NULL, dim INTEGER NOT NULL, vector BLOB NOT NULL)',
    );
    return new DuckDBEmbeddingCache(instance, conn, path);
  }

  private serial<T>(op: () => Promise<T>): Promise<T> {
    const next = this.queue.then(op, op);
    this.queue = next.catch(() => undefined);
    return next;
  }

  get(model: string, hashes: readonly string[]): Promise<Map<string, Float32Array>> {
    return this.serial(async () => {
      const out = new Map<string, Float32Array>();
      for (let i = 0; i < hashes.length; i += LOOKUP_CHUNK) {
        const chunk = hashes.slice(i, i + LOOKUP_CHUNK);
        // Hashes are our own hex digests, checked here, so inlining them is safe; the model id is a bound parameter.
        for (const h of chunk) if (!HEX64.test(h)) throw new Error(`embedding cache: not a sha256 hex digest: ${h}`);
        const list = chunk.map((h) => `'${h}'`).join(',');
        const reader = await this.conn.runAndReadAll(
          `SELECT text_sha256, vector FROM embeddings WHERE model = $1 AND text_sha256 IN (${list})`,
          [model],
        );
        for (const [hash, blob] of reader.getRows()) {
          if (typeof hash !== 'string' || blob === null || typeof blob !== 'object' || !('bytes' in blob)) continue;
          const bytes = (blob as { bytes: Uint8Array }).bytes;
          // Copy into a fresh, aligned buffer (the value may be a Buffer, whose slice() would not copy).
          const copy = new Uint8Array(bytes.length);
          copy.set(bytes);
          out.set(hash, new Float32Array(copy.buffer));
        }
      }
      return out;
    });
  }

  put(model: string, entries: readonly { hash: string; vector: Float32Array }[]): Promise<void> {
    if (entries.length === 0) return Promise.resolve();
    return this.serial(async () => {
      // The appender is the bulk path (prepared-statement inserts are ~100× slower in @duckdb/node-api).
      const appender = await this.conn.createAppender('embeddings');
      try {
        for (const { hash, vector } of entries) {
          appender.appendVarchar(model);
          appender.appendVarchar(hash);
          appender.appendInteger(vector.length);
          appender.appendBlob(new Uint8Array(vector.buffer, vector.byteOffset, vector.byteLength));
          appender.endRow();
        }
        appender.flushSync();
      } finally {
        appender.closeSync();
      }
    });
  }

  async close(): Promise<void> {
    await this.queue;
    this.conn.closeSync();
    this.instance.closeSync();
  }
}
