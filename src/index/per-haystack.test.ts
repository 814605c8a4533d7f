// perHaystack: one build per index object, shared by concurrent callers, retried after a failure; haystackKey is a
// content hash (equal haystacks, equal keys; any unit change, another key).
import { describe, expect, it } from 'vitest';
import type { Ctx, Embedder } from '../core/interfaces.ts';
import type { Session } from '../core/types.ts';
import { createMemoryIndex } from './memory-index.ts';
import { haystackKey, perHaystack } from './per-haystack.ts';

const noEmbedder: Embedder = {
  id: 'none',
  dim: 1,
  embed: async () => {
    throw new Error('not used');
  },
};
const spec = { granularity: 'session' as const, roles: ['user' as const, 'assistant' as const], includeCaptions: true };
const haystack = (text: string): Session[] => [
  {
    id: 's1',
    at: '2023-01-01T00:00:00Z',
    turns: [{ id: 's1#1', sessionId: 's1', index: 0, role: 'user', text, at: '2023-01-01T00:00:00Z' }],
  },
];

describe('perHaystack', () => {
  it('builds once per index, shares the promise between concurrent callers, and retries after a failure', async () => {
    let builds = 0;
    let fail = true;
    const seen: Ctx[] = [];
    const memo = perHaystack(async (_index, ctx) => {
      seen.push(ctx);
      builds++;
      if (fail) throw new Error('server down');
      return builds;
    });
    const a = createMemoryIndex(haystack('hello'), spec, noEmbedder);
    const q1: Ctx = { seed: 1, calls: [] };
    const q2: Ctx = { seed: 2, calls: [] };
    await expect(Promise.all([memo(a, q1), memo(a, q2)])).rejects.toThrow(/server down/);
    expect(builds).toBe(1);
    fail = false;
    expect(await Promise.all([memo(a, q2), memo(a, q1)])).toEqual([2, 2]);
    expect(builds).toBe(2);
    const b = createMemoryIndex(haystack('hello'), spec, noEmbedder);
    expect(await memo(b, q1)).toBe(3);
    // The build runs with the context of the question that started it.
    expect(seen).toEqual([q1, q2, q1]);
  });

  it('haystackKey depends on content only', () => {
    const a = createMemoryIndex(haystack('hello'), spec, noEmbedder);
    const b = createMemoryIndex(haystack('hello'), spec, noEmbedder);
    const c = createMemoryIndex(haystack('hello!'), spec, noEmbedder);
    expect(haystackKey(a)).toBe(haystackKey(b));
    expect(haystackKey(a)).not.toBe(haystackKey(c));
    expect(haystackKey(a)).toMatch(/^[0-9a-f]{64}$/);
  });
});
