/**
 * The embedding cache several processes share (the shards of one run, on one machine or several over a shared
 * filesystem): one file per vector, `<cacheDir>/embeddings/<sha256(model)[:16]>/<aa>/<sha256(text)>.f32` (float32
 * little-endian), content-addressed like the LLM cache (src/llm/cache.ts). A vector is written to a temporary file in
 * its folder and renamed into place, so a reader sees a whole vector or none, two writers of one key write the same
 * bytes, and no lock is held by anyone. A file whose length is not a whole vector (a crash before the data reached
 * the disk) counts as a miss and is written again. The DuckDB file (embedding-cache-duckdb.ts) allows one writing
 * process, so `SharedEmbeddingCache` puts these files beside it: vectors are looked up in DuckDB (when this process
 * holds it) and then in the files, and written to both — a vector one shard paid for is found by every other.
 * Vectors are stored in the platform's byte order (little-endian on x86 and ARM, where this runs).
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The cache interface of embedding-cache.ts, restated (importing it back would make an import cycle). */
interface VectorCache {
  get(model: string, hashes: readonly string[]): Promise<Map<string, Float32Array>>;
  put(model: string, entries: readonly { hash: string; vector: Float32Array }[]): Promise<void>;
  close(): Promise<void>;
}

export const EMBEDDING_FILES_DIR = 'embeddings';

export class SharedEmbeddingCache implements VectorCache {
  readonly kind = 'files' as const;

  constructor(
    private readonly dir: string,
    /** This process's DuckDB cache, when it holds the file's lock. */
    private readonly primary?: VectorCache,
  ) {}

  private path(model: string, hash: string): string {
    const m = createHash('sha256').update(model, 'utf8').digest('hex').slice(0, 16);
    return join(this.dir, m, hash.slice(0, 2), `${hash}.f32`);
  }

  async get(model: string, hashes: readonly string[]): Promise<Map<string, Float32Array>> {
    const out = this.primary ? await this.primary.get(model, hashes) : new Map<string, Float32Array>();
    await Promise.all(
      hashes
        .filter((h) => !out.has(h))
        .map(async (h) => {
          const bytes = await readFile(this.path(model, h)).catch(() => undefined);
          if (!bytes || bytes.length === 0 || bytes.length % 4 !== 0) return;
          out.set(h, new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length)));
        }),
    );
    return out;
  }

  async put(model: string, entries: readonly { hash: string; vector: Float32Array }[]): Promise<void> {
    await this.primary?.put(model, entries);
    await Promise.all(entries.map((e) => this.write(this.path(model, e.hash), e.vector)));
  }

  private async write(path: string, vector: Float32Array): Promise<void> {
    const folder = join(path, '..');
    await mkdir(folder, { recursive: true });
    const tmp = join(folder, `.${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
    try {
      await writeFile(tmp, new Uint8Array(vector.buffer, vector.byteOffset, vector.byteLength));
      await rename(tmp, path);
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
  }

  async close(): Promise<void> {
    await this.primary?.close();
  }
}
