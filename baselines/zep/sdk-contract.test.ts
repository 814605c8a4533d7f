// The official Zep client (`@getzep/zep-cloud` 3.30.0, the v3 API) as a contract test of the Zep v3 stand-in and of
// the adapter: the SDK's own requests must pass the stand-in's checks (the stand-in accepts what the official client
// sends), and for each operation the adapter performs — health, create user and thread, add messages, poll the task,
// list messages (total, then lastn), search the graph, delete the user — the adapter's requests must match the
// SDK's for the same operation: method, path, query and body field names, auth scheme, message time format.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JsonHttpClient } from '../../src/llm/http/index.ts';
import type { Call } from '../memory-server/api.ts';
import { CONTRACT_BATCH, RFC3339, requestsDuring, shape, type Shape } from '../memory-server/testing/contract.ts';
import type { LoggedRequest } from '../memory-server/testing/loopback.ts';
import { startZepV3StandIn, type ZepStandIn } from './testing/zep-servers.ts';
import { createZepV3Api } from './v3-api.ts';

const KEY = 'zep-contract-key-42';
const NS_ADAPTER = 'adaptmr-contract-a';
const NS_SDK = 'adaptmr-contract-b';
let server: ZepStandIn;

beforeAll(async () => {
  server = await startZepV3StandIn(KEY, 0);
});
afterAll(() => server.close());

const BATCH = CONTRACT_BATCH;

/** Requests the server saw while `fn` ran. */
const during = (fn: () => Promise<unknown>): Promise<LoggedRequest[]> => requestsDuring(server, fn);

describe('@getzep/zep-cloud ZepClient against the Zep v3 stand-in, next to the adapter', () => {
  it('the official client is accepted, and the adapter sends what it sends', async () => {
    const { ZepClient } = await import('@getzep/zep-cloud');
    const sdk = new ZepClient({ apiKey: KEY, baseUrl: server.baseUrl });
    const api = createZepV3Api({ scope: 'edges', reranker: 'rrf', maxMessageChars: 2500 });
    const http = new JsonHttpClient(
      {
        label: api.label,
        baseUrl: server.baseUrl,
        auth: { header: 'Authorization', value: `Api-Key ${KEY}`, secret: KEY },
      },
      { schedule: (fn) => fn(), timeoutMs: 5000, maxRetries: 0, retryBaseMs: 1 },
    );
    const c: Call = { http, calls: [], stage: 'ingest' };
    const ids = { [NS_ADAPTER]: '{user}', [NS_SDK]: '{user}' };
    const pairs: [string, Shape[], Shape[]][] = [];
    const pair = async (op: string, adapter: () => Promise<unknown>, official: () => Promise<unknown>) => {
      const a = await during(adapter);
      const o = await during(official);
      pairs.push([op, a.map((r) => shape(r, ids)), o.map((r) => shape(r, ids))]);
      return { a, o };
    };

    await pair(
      'health',
      () => api.health(c),
      () => sdk.user.get('adaptmr-health-check').catch(() => undefined),
    );
    await pair(
      'create user and thread',
      () => api.prepare(NS_ADAPTER, c),
      async () => {
        await sdk.user.add({ userId: NS_SDK });
        await sdk.thread.create({ threadId: NS_SDK, userId: NS_SDK });
      },
    );
    let task = '';
    const add = await pair(
      'add messages',
      async () => (task = (await api.addBatch(NS_ADAPTER, {}, BATCH, c)).handles[0]!),
      () =>
        sdk.thread.addMessages(NS_SDK, {
          messages: BATCH.messages.map((m) => ({
            role: m.role,
            name: m.speaker!,
            content: m.text,
            createdAt: m.at,
            metadata: { unit_id: m.unitId, batch: BATCH.id },
          })),
        }),
    );
    const taskIds = { ...ids, [task]: '{task}' };
    const a = await during(() => api.processed(NS_ADAPTER, {}, [{ handles: [task], ids: {} }], 2, c));
    const o = await during(() => sdk.task.get(task));
    pairs.push(['poll the task', a.map((r) => shape(r, taskIds)), o.map((r) => shape(r, taskIds))]);
    await pair(
      'list messages',
      () => api.landedBatches(NS_ADAPTER, {}, c, [BATCH]),
      async () => {
        const total = (await sdk.thread.get(NS_SDK, { limit: 1 })).totalCount ?? 0;
        await sdk.thread.get(NS_SDK, { lastn: total });
      },
    );
    await pair(
      'search',
      () => api.search(NS_ADAPTER, {}, { text: 'cat name', askedAt: '2023-06-01T00:00:00Z' }, 5, c),
      () => sdk.graph.search({ userId: NS_SDK, query: 'cat name', scope: 'edges', reranker: 'rrf', limit: 5 }),
    );
    await pair(
      'delete user',
      () => api.remove(NS_ADAPTER, {}, c),
      () => sdk.user.delete(NS_SDK),
    );

    expect(server.violations, 'the stand-in accepts what the official client sends, and the adapter').toEqual([]);
    for (const [op, as, os] of pairs) {
      expect(as.length, `${op}: requests`).toBe(os.length);
      as.forEach((x, i) => expect({ op, ...x }).toEqual({ op, ...os[i]! }));
    }
    expect(pairs.map(([op]) => op)).toEqual([
      'health',
      'create user and thread',
      'add messages',
      'poll the task',
      'list messages',
      'search',
      'delete user',
    ]);
    expect(pairs[0]![1][0]!.auth).toBe('authorization: Api-Key');
    // Message times: RFC 3339 with a zone, the session's time, on both sides.
    const times = (r: LoggedRequest) =>
      (r.body as { messages: { created_at: string }[] }).messages.map((m) => m.created_at);
    for (const t of [...times(add.a[0]!), ...times(add.o[0]!)]) expect(t).toMatch(RFC3339);
    expect(times(add.a[0]!)).toEqual(times(add.o[0]!));
  });
});
