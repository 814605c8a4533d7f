// Ingestion's own retry of a failed add: a 429 stored nothing, so the batch is sent again as is, after the server's
// Retry-After rather than the exponential backoff (a 60 s backoff base here would time the test out); without a
// Retry-After the backoff applies. The API is a small fake: this checks ingest.ts's policy, not a server's shapes.
import { describe, expect, it } from 'vitest';
import type { MemoryUnit } from '../../src/core/types.ts';
import { HttpCallError } from '../../src/llm/http/index.ts';
import type { Batch, BatchReceipt, Call, MemoryServerApi } from './api.ts';
import { ingest, memoryCheckpoints } from './ingest.ts';

const UNITS: MemoryUnit[] = ['我养了一只猫', 'I moved to Lisbon'].map(
  (text, i) => ({ id: `u${i}`, sessionId: 's1', role: 'user', text, at: `2023-05-0${i + 1}T10:00:00Z` }) as MemoryUnit,
);

/** An API whose first add answers 429 (with `retryAfterMs`, as the HTTP client reports it), then stores. */
function rateLimitedApi(retryAfterMs: number | undefined) {
  const sent: string[] = [];
  let limited = false;
  const api = {
    label: 'fake',
    maxBatch: 10,
    visibility: 'immediate',
    ingestSettings: {},
    searchSettings: {},
    prepare: async () => ({}),
    addBatch: async (_ns: string, _s: unknown, b: Batch): Promise<BatchReceipt> => {
      if (!limited) {
        limited = true;
        throw new HttpCallError('fake POST /add: HTTP 429 slow down', 429, true, retryAfterMs);
      }
      sent.push(...b.messages.map((m) => m.unitId));
      return { handles: [], ids: Object.fromEntries(b.messages.map((m) => [`srv-${m.unitId}`, m.unitId])) };
    },
    landedBatches: async () => new Map(),
    processed: async () => ({ done: true }),
  } as unknown as MemoryServerApi;
  return { api, sent };
}

const OPTS = { pollMs: 1, timeoutMs: 5_000, retries: 2, longMessages: 'split' as const };

describe('ingest: a rate-limited add', () => {
  it("is sent again after the server's Retry-After, once, not after the exponential backoff", async () => {
    const { api, sent } = rateLimitedApi(0);
    const t0 = Date.now();
    const out = await ingest(api, 'ns1', UNITS, memoryCheckpoints(), {} as Call, { ...OPTS, retryBaseMs: 60_000 });
    expect(Date.now() - t0).toBeLessThan(5_000);
    expect(sent).toEqual(['u0', 'u1']);
    expect([...out.ids.values()]).toEqual(['u0', 'u1']);
  });

  it('without a Retry-After waits the backoff (base 200 ms: at least half of it, jittered)', async () => {
    const { api, sent } = rateLimitedApi(undefined);
    const t0 = Date.now();
    await ingest(api, 'ns2', UNITS, memoryCheckpoints(), {} as Call, { ...OPTS, retryBaseMs: 200 });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(95);
    expect(sent).toEqual(['u0', 'u1']);
  });
});
