/**
 * Content-addressed cache of memory-server search results, beside the LLM cache and in its layout
 * (`<root>/memory-search/<aa>/<sha256>.json`, atomic writes; src/llm/cache.ts). The key is the sha256 of canonical
 * JSON of what determines a result — API, base URL, the namespace's content hash (not the run's namespace name, so a
 * rerun of the same haystack reuses it), query, k and search settings — never a key. A finished experiment rerun
 * into a new results file therefore makes no HTTP request at all. Only successful results are stored; the LLM
 * cache's `mode` applies (`off` never reads, only `read-write` writes).
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { z } from 'zod';
import type { CacheMode } from '../config.ts';
import { canonicalJson, readValidEntry, writeEntryAtomic } from '../cache.ts';

const EntrySchema = z.object({
  version: z.literal(1),
  key: z.string(),
  request: z.unknown(),
  value: z.unknown(),
  createdAt: z.string(),
});

export class ResponseCache {
  readonly dir: string;

  constructor(
    root: string,
    readonly mode: CacheMode,
  ) {
    this.dir = join(root, 'memory-search');
  }

  static key(material: Record<string, unknown>): string {
    return createHash('sha256').update(canonicalJson(material)).digest('hex');
  }

  /** The stored value, or undefined. A damaged entry is a miss (src/llm/cache.ts `readValidEntry`). */
  async get(key: string): Promise<unknown> {
    if (this.mode === 'off') return undefined;
    return (await readValidEntry(this.dir, key, EntrySchema))?.value;
  }

  async put(key: string, request: Record<string, unknown>, value: unknown): Promise<void> {
    if (this.mode !== 'read-write') return;
    await writeEntryAtomic(
      this.dir,
      key,
      JSON.stringify({ version: 1, key, request, value, createdAt: new Date().toISOString() }),
    );
  }
}
