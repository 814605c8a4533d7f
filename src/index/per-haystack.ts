/**
 * Work a method does once per haystack (memorising: ingestion into a memory server, A-MEM notes, reflections,
 * memory items, key expansion). `perHaystack(build)` memoises `build` per MemoryIndex object, so questions sharing a
 * haystack (a LoCoMo conversation serves ~200) share one result, concurrent questions wait on the same promise, and
 * the result is freed with the index. The build runs with the context of the question that started it (its LLM
 * client, checkpoints and call list: memorising calls are accounted once, on that question). A failed build is
 * forgotten, so the next question retries it.
 *
 * `haystackKey(index)` is a content hash of the index's units (ids, times, roles, text) and spec: a stable name for
 * server-side namespaces and caches that does not depend on run order or on which question came first.
 */
import { createHash } from 'node:crypto';
import type { Ctx, MemoryIndex } from '../core/interfaces.ts';

export function perHaystack<T>(
  build: (index: MemoryIndex, ctx: Ctx) => Promise<T>,
): (index: MemoryIndex, ctx: Ctx) => Promise<T> {
  const memo = new WeakMap<MemoryIndex, Promise<T>>();
  return (index, ctx) => {
    let p = memo.get(index);
    if (!p) {
      p = build(index, ctx);
      memo.set(index, p);
      p.catch(() => memo.delete(index));
    }
    return p;
  };
}

const keys = new WeakMap<MemoryIndex, string>();

/** sha256 (hex) of the index spec and every unit's id, session, time, role, speaker and text. */
export function haystackKey(index: MemoryIndex): string {
  let key = keys.get(index);
  if (!key) {
    const h = createHash('sha256');
    h.update(JSON.stringify(index.spec));
    for (const u of index.units)
      h.update(`\u0000${u.id}\u0001${u.sessionId}\u0001${u.at}\u0001${u.role}\u0001${u.speaker ?? ''}\u0001${u.text}`);
    key = h.digest('hex');
    keys.set(index, key);
  }
  return key;
}
