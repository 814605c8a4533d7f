// What the real servers do that a friendlier stand-in used to hide, each against the adapters through the public
// method interface: Graphiti's queue worker dies on an unknown episode uuid; Mem0 OSS lists 20 memories unless asked
// for more (1,000 at most, no paging) and deletes a user's memories for the admin only; Zep Cloud refuses a message
// over 2,500 characters and answers "already exists" when a user or thread exists; and any server may store a batch
// and then answer 500 or drop the connection, which a client must not answer by blindly sending the add again.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SetupError } from '../../src/core/errors.ts';
import type { Checkpoints, Ctx, Embedder, IndexSpec, Method } from '../../src/core/interfaces.ts';
import type { LlmProvider, RequestPolicy } from '../../src/core/llm.ts';
import type { Query, Session } from '../../src/core/types.ts';
import { createMemoryIndex } from '../../src/index/memory-index.ts';
import { methods } from '../../src/run/methods/method-registry.ts';
import { MEM0_OSS_LIST_LIMIT, startMem0OssStandIn } from '../mem0/testing/mem0-servers.ts';
import {
  startGraphitiStandIn,
  startZepV3StandIn,
  startZepV4StandIn,
  ZEP_MESSAGE_CAP,
} from '../zep/testing/zep-servers.ts';
import { memoryCheckpoints } from './ingest.ts';
import { KEY_ENV, SYSTEMS, TEST_KEY } from './testing/systems.ts';

const noEmbedder: Embedder = {
  id: 'none',
  dim: 1,
  embed: () => Promise.reject(new Error('memory servers must not embed')),
};
const TURN: IndexSpec = { granularity: 'turn', roles: ['user', 'assistant'], includeCaptions: true };
const K = 3;
const dir = mkdtempSync(join(tmpdir(), 'adaptmr-server-behaviours-'));
let n = 0;

beforeAll(() => {
  process.env[KEY_ENV] = TEST_KEY;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function provider(over: Partial<RequestPolicy> = {}): LlmProvider {
  const requestPolicy: RequestPolicy = {
    schedule: (fn) => fn(),
    timeoutMs: 2000,
    maxRetries: 3,
    retryBaseMs: 1,
    cacheDir: join(dir, `cache-${n++}`),
    cacheMode: 'read-write',
    ...over,
  };
  return {
    forRole: () => {
      throw new Error('no LLM here');
    },
    has: () => false,
    requestPolicy,
  };
}
const ctx = (llm: LlmProvider, checkpoints?: Checkpoints): Ctx => ({
  seed: 1,
  calls: [],
  llm,
  ...(checkpoints ? { checkpoints } : {}),
});
const q = (text: string): Query => Object.freeze({ id: `q${n++}`, text, askedAt: '2023-06-01T00:00:00Z' });

function session(id: string, at: string, texts: string[]): Session {
  return {
    id,
    at,
    turns: texts.map((text, i) => ({
      id: `${id}#${i + 1}`,
      sessionId: id,
      index: i,
      role: i % 2 === 0 ? 'user' : 'assistant',
      speaker: i % 2 === 0 ? 'Caroline' : 'Melanie',
      text,
      at,
    })),
  };
}
const SMALL: Session[] = [
  session('s1', '2023-05-01T09:30:00Z', ['I moved to Lisbon for a new nursing job.', 'Lisbon is beautiful in spring.']),
  session('s2', '2023-05-08T14:00:00Z', ['I adopted a cat named Miso last week.', 'Miso is a lovely name.']),
];
/** Sessions of `turns` turns each, every turn distinct. */
const many = (sessions: number, turns: number): Session[] =>
  Array.from({ length: sessions }, (_, s) =>
    session(
      `m${s}`,
      new Date(Date.UTC(2023, 0, 1 + s)).toISOString(),
      Array.from(
        { length: turns },
        (_, t) => `note ${s}-${t}: the ${['red', 'green', 'blue'][t % 3]} box number ${s * 1000 + t}`,
      ),
    ),
  );

async function create(method: 'mem0' | 'zep', options: Record<string, unknown>, runKey = `run${n++}`): Promise<Method> {
  return methods.create(method, options, { id: method, index: TURN, k: K, seed: 1, runKey, llmRoles: [] });
}

/** Checkpoints that throw ("the process was killed") when the marker of batch `batch` is written, once. */
function killedAt(batch: string): Checkpoints {
  const inner = memoryCheckpoints();
  let killed = false;
  return {
    ...inner,
    put: async (k, v) => {
      if (!killed && k.endsWith(`:${batch}`)) {
        killed = true;
        throw new Error('killed');
      }
      return inner.put(k, v);
    },
  };
}

describe('Graphiti: the queue worker dies on an unknown episode uuid', () => {
  it('ingestion sends no uuid; episodes map back to units through their names', async () => {
    const s = await startGraphitiStandIn(2);
    try {
      const method = await create('zep', { api: 'graphiti', baseUrl: s.baseUrl, pollMs: 1, ingestTimeoutMs: 3000 });
      const index = createMemoryIndex(SMALL, TURN, noEmbedder);
      const out = await method.run(q('What is the name of my cat?'), index, ctx(provider()));
      expect(s.workerDied).toBe(false);
      expect(s.violations).toEqual([]);
      const adds = s.requests.filter((r) => r.path === '/messages');
      for (const r of adds)
        for (const m of (r.body as { messages: Record<string, unknown>[] }).messages) expect(m.uuid ?? null).toBeNull();
      expect(out.retrieval.context).toContain('Miso');
      // Facts cite episodes by their server-assigned uuids; the names the adapter set map them back to units.
      const ids = out.retrieval.units.map((u) => u.unit.id);
      expect(ids).toContain('s2#1');
      expect(ids.every((id) => index.unit(id) !== undefined)).toBe(true);
      await method.close?.();
      expect(s.owners()).toEqual([]);
    } finally {
      await s.close();
    }
  });
});

describe('Mem0 OSS: GET /memories returns 20 unless asked for more (1,000 at most)', () => {
  it('a resumed ingestion of more than 20 memories sees every batch and adds none twice', async () => {
    const s = await startMem0OssStandIn(TEST_KEY);
    try {
      const index = createMemoryIndex(many(3, 15), TURN, noEmbedder); // 45 memories, batches b0..b2 of 15
      const cp = killedAt('b2');
      const options = { api: 'oss', baseUrl: s.baseUrl, apiKeyEnv: KEY_ENV, pollMs: 1, keep: true };
      await expect(
        (await create('mem0', options, 'resume20')).run(q('blue box'), index, ctx(provider(), cp)),
      ).rejects.toThrow('killed');
      await (await create('mem0', options, 'resume20')).run(q('blue box'), index, ctx(provider(), cp));
      const keys = s.memories.map((m) => m.memory);
      expect(keys).toHaveLength(45);
      expect(new Set(keys).size).toBe(45);
      expect(s.violations).toEqual([]);
    } finally {
      await s.close();
    }
  });

  it('past the 1,000-memory list cap it checks the unseen batch by its metadata instead of resending it', async () => {
    const s = await startMem0OssStandIn(TEST_KEY);
    try {
      const index = createMemoryIndex(many(51, 20), TURN, noEmbedder); // 1,020 memories: the list shows 1,000
      const cp = killedAt('b50');
      const options = { api: 'oss', baseUrl: s.baseUrl, apiKeyEnv: KEY_ENV, pollMs: 1, keep: true };
      await expect(
        (await create('mem0', options, 'resume1000')).run(q('red box'), index, ctx(provider(), cp)),
      ).rejects.toThrow('killed');
      await (await create('mem0', options, 'resume1000')).run(q('red box'), index, ctx(provider(), cp));
      expect(s.memories.length).toBe(1020);
      expect(new Set(s.memories.map((m) => m.memory)).size).toBe(1020);
      const lists = s.requests.filter(
        (r) => r.method === 'GET' && r.path === '/memories' && r.query.user_id !== 'adaptmr-health-check',
      );
      expect(lists.every((r) => r.query.top_k === String(MEM0_OSS_LIST_LIMIT))).toBe(true);
      expect(s.violations).toEqual([]);
    } finally {
      await s.close();
    }
  });

  it('renders one date per memory', async () => {
    const s = await startMem0OssStandIn(TEST_KEY);
    try {
      const method = await create('mem0', { api: 'oss', baseUrl: s.baseUrl, apiKeyEnv: KEY_ENV, pollMs: 1 });
      const out = await method.run(
        q('Lisbon nursing job cat Miso'),
        createMemoryIndex(SMALL, TURN, noEmbedder),
        ctx(provider()),
      );
      const memories = out.retrieval.context.split('\n\n');
      expect(memories.length).toBeGreaterThan(1);
      for (const m of memories) expect(m.match(/\d{4}\/\d\d\/\d\d \(\w{3}\)/g), m).toHaveLength(1);
      await method.close?.();
    } finally {
      await s.close();
    }
  });

  it('cleans up with a user key (DELETE /memories?user_id= is admin-only): memory by memory', async () => {
    const s = await startMem0OssStandIn(TEST_KEY, { adminKey: 'admin-key-not-given-to-the-harness' });
    try {
      const method = await create('mem0', { api: 'oss', baseUrl: s.baseUrl, apiKeyEnv: KEY_ENV, pollMs: 1 });
      await method.run(q('cat'), createMemoryIndex(many(2, 30), TURN, noEmbedder), ctx(provider()));
      expect(s.users()).toHaveLength(1);
      await method.close?.();
      expect(s.users()).toEqual([]);
    } finally {
      await s.close();
    }
  });
});

describe('Zep Cloud: messages over 2,500 characters are refused', () => {
  const long = `${'我在里斯本的医院做护士，每天早上七点上班。'.repeat(100)} The end: I play the cello. ${'Lorem ipsum dolor sit amet. '.repeat(40)}`;
  const haystack: Session[] = [...SMALL, session('s3', '2023-05-20T18:15:00Z', [long, '大提琴很难。'])];

  it.each(['v3', 'v4'] as const)('%s: a long message is split below the cap and maps back to its unit', async (api) => {
    expect([...long].length).toBeGreaterThan(ZEP_MESSAGE_CAP);
    const s = api === 'v3' ? await startZepV3StandIn(TEST_KEY) : await startZepV4StandIn(TEST_KEY);
    try {
      const method = await create('zep', { api, baseUrl: s.baseUrl, apiKeyEnv: KEY_ENV, pollMs: 1, scope: 'episodes' });
      const out = await method.run(
        q('我在哪里做护士？'),
        createMemoryIndex(haystack, TURN, noEmbedder),
        ctx(provider()),
      );
      expect(s.violations).toEqual([]);
      const parts = s.episodes.filter((e) => e.metadata.unit_id === 's3#1');
      expect(parts.length).toBeGreaterThan(1);
      for (const p of parts) expect([...p.content].length).toBeLessThanOrEqual(ZEP_MESSAGE_CAP);
      expect(
        parts
          .map((p) => p.content)
          .join('')
          .replace(/\s+/g, ''),
      ).toBe(long.replace(/\s+/g, ''));
      expect(out.retrieval.units[0]?.unit.id).toBe('s3#1');
      expect(new Set(out.retrieval.units.map((u) => u.unit.id)).size).toBe(out.retrieval.units.length);
      await method.close?.();
    } finally {
      await s.close();
    }
  });

  it('longMessages: refuse stops with one line naming the message, before any request', async () => {
    const s = await startZepV3StandIn(TEST_KEY);
    try {
      const method = await create('zep', {
        api: 'v3',
        baseUrl: s.baseUrl,
        apiKeyEnv: KEY_ENV,
        pollMs: 1,
        longMessages: 'refuse',
      });
      const err = await method
        .run(q('cello'), createMemoryIndex(haystack, TURN, noEmbedder), ctx(provider()))
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SetupError);
      expect(String(err)).toMatch(/s3#1.*2,?500/);
      expect(String(err)).not.toContain('\n');
      expect(s.requests).toEqual([]);
    } finally {
      await s.close();
    }
  });
});

describe('Zep v3 setup: only "already exists" is an accepted failure', () => {
  it('any other 400 when creating the user stops the run with one line', async () => {
    const s = await startZepV3StandIn(TEST_KEY);
    try {
      s.faults.push({ match: 'POST /api/v2/users', status: 400 });
      const method = await create('zep', { api: 'v3', baseUrl: s.baseUrl, apiKeyEnv: KEY_ENV, pollMs: 1 });
      const err = await method
        .run(q('cat'), createMemoryIndex(SMALL, TURN, noEmbedder), ctx(provider()))
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SetupError);
      expect(String(err)).toMatch(/zep:v3.*user.*HTTP 400/);
      expect(s.count(/POST .*\/messages$/)).toBe(0);
    } finally {
      await s.close();
    }
  });

  it('v4: a refused user stops the run with one line too', async () => {
    const s = await startZepV4StandIn(TEST_KEY);
    try {
      s.faults.push({ match: 'POST /api/v4/users', status: 403 });
      const method = await create('zep', { api: 'v4', baseUrl: s.baseUrl, apiKeyEnv: KEY_ENV, pollMs: 1 });
      const err = await method
        .run(q('cat'), createMemoryIndex(SMALL, TURN, noEmbedder), ctx(provider()))
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SetupError);
      expect(String(err)).toMatch(/zep:v4: could not create namespace .*HTTP 403/);
    } finally {
      await s.close();
    }
  });

  it('a resumed run that finds its user and thread existing goes on', async () => {
    const s = await startZepV3StandIn(TEST_KEY);
    try {
      const options = { api: 'v3', baseUrl: s.baseUrl, apiKeyEnv: KEY_ENV, pollMs: 1, keep: true };
      const index = createMemoryIndex(SMALL, TURN, noEmbedder);
      await (await create('zep', options, 'exists')).run(q('cat'), index, ctx(provider()));
      // A new results file (no markers) on the same run key: the user and thread exist on the server.
      const out = await (await create('zep', options, 'exists')).run(q('cat Miso'), index, ctx(provider()));
      expect(out.retrieval.context).toContain('Miso');
    } finally {
      await s.close();
    }
  });
});

describe.each(SYSTEMS)('$name: a batch the server stored before failing is not stored twice', (sys) => {
  it.each([
    ['answers 500', { status: 500 }],
    ['drops the connection', { drop: true }],
    ['sends a body that is not JSON', { malformed: true }],
  ] as const)('after storing, the server %s', async (_label, fault) => {
    const subject = await sys.start(1);
    try {
      const addPath =
        sys.method === 'mem0'
          ? sys.api === 'oss'
            ? 'POST /memories'
            : 'POST /v3/memories/add/'
          : sys.api === 'graphiti'
            ? 'POST /messages'
            : '/messages';
      subject.server.faults.push({ match: addPath, after: true, ...fault });
      const index = createMemoryIndex(SMALL, TURN, noEmbedder);
      const method = await create(sys.method, { ...subject.options, keep: true, ingestTimeoutMs: 5000 });
      const c = ctx(provider());
      const out = await method.run(q('What is the name of my cat?'), index, c);
      expect(out.retrieval.context).toContain('Miso');
      const stored = subject.stored();
      expect(stored).toHaveLength(index.units.length);
      expect(new Set(stored).size).toBe(index.units.length);
      expect(subject.server.faults).toEqual([]); // the fault was hit
      expect(subject.server.violations).toEqual([]);
    } finally {
      await subject.server.close();
    }
  });
});
