// The official Mem0 client (`mem0ai` 3.3.1, `MemoryClient`: the Platform API) as a contract test of the Platform
// stand-in and of the adapter: the SDK's own requests must pass the stand-in's checks (the stand-in accepts what the
// official client sends), and for each operation the adapter also performs — ping, add, list, search, delete the
// user — the adapter's request must match the SDK's: method, path, query and body field names, auth scheme, and
// the documented time formats (`timestamp` in Unix seconds, `observation_date` as YYYY-MM-DD).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallRecord } from '../../src/core/calls.ts';
import { JsonHttpClient } from '../../src/llm/http/index.ts';
import type { Call } from '../memory-server/api.ts';
import { CONTRACT_BATCH, requestsDuring, shape, type Shape } from '../memory-server/testing/contract.ts';
import type { LoggedRequest } from '../memory-server/testing/loopback.ts';
import { createMem0PlatformApi } from './platform-api.ts';
import { type Mem0StandIn, startMem0PlatformStandIn } from './testing/mem0-servers.ts';

const KEY = 'mem0-contract-key-42';
const NS = 'adaptmr-contract-ns';
let server: Mem0StandIn;

beforeAll(async () => {
  server = await startMem0PlatformStandIn(KEY, 0);
});
afterAll(() => server.close());

const BATCH = CONTRACT_BATCH;

/** Requests the server saw while `fn` ran. */
const during = (fn: () => Promise<unknown>): Promise<LoggedRequest[]> => requestsDuring(server, fn);

describe('mem0ai MemoryClient against the Platform stand-in, next to the adapter', () => {
  it('the official client is accepted, and the adapter sends what it sends', async () => {
    process.env.MEM0_TELEMETRY = 'false'; // read when the module loads: no telemetry leaves the machine
    const { MemoryClient } = await import('mem0ai');
    const sdk = new MemoryClient({ apiKey: KEY, host: server.baseUrl });
    const api = createMem0PlatformApi({ infer: true });
    const calls: CallRecord[] = [];
    const http = new JsonHttpClient(
      {
        label: api.label,
        baseUrl: server.baseUrl,
        auth: { header: 'Authorization', value: `Token ${KEY}`, secret: KEY },
      },
      { schedule: (fn) => fn(), timeoutMs: 5000, maxRetries: 0, retryBaseMs: 1 },
    );
    const c: Call = { http, calls, stage: 'ingest' };
    const ids = { [NS]: '{user}' };
    const pairs: [string, Shape, Shape][] = [];
    const pair = async (op: string, adapter: () => Promise<unknown>, official: () => Promise<unknown>) => {
      const a = await during(adapter);
      const o = await during(official);
      // The SDK pings once per credentials before its first call: compare the operation's own request.
      const last = (rs: LoggedRequest[]) => rs.filter((r) => r.path !== '/v1/ping/' || op === 'ping').at(-1)!;
      pairs.push([op, shape(last(a), ids), shape(last(o), ids)]);
      return { a: last(a), o: last(o) };
    };

    await pair(
      'ping',
      () => api.health(c),
      () => sdk.ping(),
    );
    const first = BATCH.messages[0]!;
    const add = await pair(
      'add',
      () => api.addBatch(NS, {}, BATCH, c),
      () =>
        sdk.add(
          BATCH.messages.map((m) => ({ role: m.role, content: `${m.speaker}: ${m.text}` })),
          // `observationDate` and `timezone` are documented fields of POST /v3/memories/add/ (docs/openapi.json at
          // mem0ai/mem0@8d5b7865) the client's TypeScript options do not list; it sends any option, snake-cased.
          {
            userId: NS,
            metadata: { session_id: 's1', turn_ids: ['s1#1', 's1#2'], session_date: first.at, batch: 'b0' },
            infer: true,
            timestamp: Math.floor(Date.parse(first.at) / 1000),
            observationDate: first.at.slice(0, 10),
            timezone: 'UTC',
          } as Parameters<typeof sdk.add>[1],
        ),
    );
    // (The stand-in's events finish on the first status read at processingPolls 0: the list below sees both adds.)
    await pair(
      'list',
      () => api.landedBatches(NS, {}, c, [BATCH]),
      () => sdk.getAll({ filters: { user_id: NS }, page: 1, pageSize: 100 }),
    );
    const search = await pair(
      'search',
      () => api.search(NS, {}, { text: 'cat name', askedAt: '2023-06-01T00:00:00Z' }, 5, { ...c, stage: 'search' }),
      () => sdk.search('cat name', { filters: { user_id: NS }, topK: 5, threshold: 0 }),
    );
    await pair(
      'delete user',
      () => api.remove(NS, {}, c),
      () => sdk.deleteUsers({ userId: NS }),
    );

    expect(server.violations, 'the stand-in accepts what the official client sends, and the adapter').toEqual([]);
    for (const [op, a, o] of pairs) {
      expect({ op, method: a.method, path: a.path, query: a.query, auth: a.auth }).toEqual({
        op,
        method: o.method,
        path: o.path,
        query: o.query,
        auth: o.auth,
      });
      // Every field the adapter sends, the SDK sends for the same operation; the SDK's extras are named here.
      expect(
        a.body.filter((f) => !o.body.includes(f)),
        `${op}: adapter-only fields`,
      ).toEqual([]);
      expect(
        o.body.filter((f) => !a.body.includes(f)),
        `${op}: SDK-only fields`,
      ).toEqual(op === 'search' ? ['output_format'] : []);
    }
    expect(pairs.map(([op]) => op)).toEqual(['ping', 'add', 'list', 'search', 'delete user']);
    expect(pairs.find(([op]) => op === 'ping')![1].auth).toBe('authorization: Token');
    // Time formats the API documents: Unix seconds and a calendar date.
    const body = add.a.body as { timestamp: unknown; observation_date: unknown; timezone: unknown };
    expect(body.timestamp).toBe(1683554400);
    expect(Number.isInteger(body.timestamp)).toBe(true);
    expect(body.observation_date).toBe('2023-05-08');
    expect(typeof (add.o.body as { timestamp: unknown }).timestamp).toBe('number');
    // The search saw what both added.
    expect(JSON.stringify(search.o.body)).toContain('cat name');
  });
});
