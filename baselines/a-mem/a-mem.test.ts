// a-mem: retrieval with linked notes within k, nearest-earlier neighbours and offline links on hand vectors, the
// official prompts' reply parsing (Python booleans, "memory index:i", Chinese), and a loopback run (notes built once
// per LoCoMo conversation, evolution applied, rerun makes no calls).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Embedder } from '../../src/core/interfaces.ts';
import type { Session } from '../../src/core/types.ts';
import { createMemoryIndex } from '../../src/index/index.ts';
import {
  startFakeOpenAiServer,
  type ChatRequestBody,
  type FakeOpenAiServer,
} from '../../src/llm/testing/fake-openai-server.ts';
import { factoryContext, runTwice, smallLocomo, stages } from '../testing/loopback.ts';
import { AMemOptionsSchema, createAMem, withLinks } from './a-mem-method.ts';
import { buildNotes, nearestEarlier, noteText } from './notes.ts';
import { amemTimestamp, evolutionPrompt, parseAnalysis, parseEvolution, pyList } from './prompts.ts';

describe('retrieval: top notes, each followed by its linked notes, within k', () => {
  const links: Record<number, number[]> = { 0: [5, 1], 1: [0], 2: [7] };
  const hits = [
    { unit: 0, score: 0.9 },
    { unit: 1, score: 0.8 },
    { unit: 2, score: 0.7 },
  ];
  it('lists hit, then its unseen links at the hit score, and cuts to k', () => {
    expect(withLinks(hits, (u) => links[u] ?? [], 4, true)).toEqual([
      { unit: 0, score: 0.9, linked: false },
      { unit: 5, score: 0.9, linked: true },
      { unit: 1, score: 0.9, linked: true },
      { unit: 2, score: 0.7, linked: false },
    ]);
  });
  it('without links it is the plain top-k', () => {
    expect(withLinks(hits, (u) => links[u] ?? [], 2, false).map((x) => x.unit)).toEqual([0, 1]);
  });
});

describe('neighbours and offline links', () => {
  const v = (x: number, y: number): Float32Array => {
    const n = Math.hypot(x, y);
    return Float32Array.from([x / n, y / n]);
  };
  const vectors = [v(1, 0), v(0.9, 0.1), v(0, 1), v(0.6, 0.8)];
  it('ranks earlier notes by cosine', () => {
    // cos(u3, u0) = 0.6, cos(u3, u1) ≈ 0.6727, cos(u3, u2) = 0.8
    const near = nearestEarlier(vectors, 3, [0, 1, 2], 2);
    expect(near.map((x) => x.unit)).toEqual([2, 1]);
    expect(near[1]!.cos).toBeCloseTo((0.6 * 0.9 + 0.8 * 0.1) / Math.hypot(0.9, 0.1), 5);
  });
  it('offline: links only to earlier notes at or above the threshold; tags are the haystack-frequent keywords', async () => {
    const embedder: Embedder = {
      id: 'hand',
      dim: 2,
      embed: async (texts) => texts.map((t) => vectors[Number(t.slice(-1))]!),
    };
    const mk = (i: number, day: number, text: string): Session => {
      const at = `2023-05-0${day}T10:00:00Z`;
      return {
        id: `s${i}`,
        at,
        turns: [{ id: `s${i}#1`, sessionId: `s${i}`, index: 0, role: 'user', text: `${text} ${i}`, at }],
      };
    };
    const haystack = [
      mk(0, 1, 'Luna the cat sleeps'),
      mk(1, 2, 'Luna eats fish'),
      mk(2, 3, 'Rome trip plans'),
      mk(3, 4, 'Luna visits Rome'),
    ];
    const index = createMemoryIndex(
      haystack,
      { granularity: 'session', roles: ['user'], includeCaptions: false },
      embedder,
    );
    const built = await buildNotes(
      index,
      { seed: 1, calls: [] },
      { role: undefined, neighbours: 5, linkThreshold: 0.65, where: 't' },
    );
    expect(built.notes.map((n) => n.links)).toEqual([[], [0], [], [2, 1]]);
    expect(built.notes[3]!.keywords).toEqual(expect.arrayContaining(['luna', 'rome']));
    expect(built.notes[3]!.tags[0]).toBe('luna'); // in 3 of 4 notes
    expect(built.evolutions).toBe(0);
  });
});

describe('official prompt replies', () => {
  it('note construction: keywords, context, tags; junk gives the source fallback', () => {
    expect(
      parseAnalysis('```json\n{"keywords": ["bike", "Rome"], "context": "Travel plans.", "tags": ["travel"]}\n```'),
    ).toEqual({ keywords: ['bike', 'Rome'], context: 'Travel plans.', tags: ['travel'] });
    expect(parseAnalysis('{"keywords": ["杭州", "搬家"], "context": "用户搬到了杭州。", "tags": ["生活"]}')).toEqual({
      keywords: ['杭州', '搬家'],
      context: '用户搬到了杭州。',
      tags: ['生活'],
    });
    expect(parseAnalysis('I cannot help')).toBeUndefined();
  });
  it('evolution: Python booleans, neighbour positions in several spellings, out-of-range dropped, neighbour updates', () => {
    const reply = `{"should_evolve": True, "actions": ["strengthen", "update_neighbor"], "suggested_connections": ["memory index:1", 0, "7", "abc"],
      "tags_to_update": ["pets"], "new_context_neighborhood": ["Cat care.", ""], "new_tags_neighborhood": [["cat"], ["fish", "food"]]}`;
    expect(parseEvolution(reply, 2)).toEqual({
      links: [1, 0],
      tags: ['pets'],
      neighbours: [{ tags: ['cat'], context: 'Cat care.' }, { tags: ['fish', 'food'] }],
    });
    expect(
      parseEvolution(
        '{"should_evolve": False, "actions": [], "suggested_connections": [], "tags_to_update": [], "new_context_neighborhood": [], "new_tags_neighborhood": []}',
        2,
      ),
    ).toBeNull();
    expect(parseEvolution('no idea', 2)).toBeUndefined();
  });
  it('formats notes as the source does', () => {
    expect(pyList(['a', "it's"])).toBe("['a', 'it\\'s']");
    expect(amemTimestamp('2023-05-08T13:56:00Z')).toBe('202305081356');
    const p = evolutionPrompt(
      { content: '我养了一只猫', timestamp: '202305081356', keywords: ['猫'], context: 'General', tags: [] },
      [{ content: 'x', timestamp: '202305010000', keywords: [], context: 'c', tags: ['t'] }],
    );
    expect(p).toContain("content: 我养了一只猫\n                                keywords: ['猫']");
    expect(p).toContain(
      "memory index:0\ttalk start time:202305010000\tmemory content: x\tmemory context: c\tmemory keywords: []\tmemory tags: ['t']",
    );
    expect(p).toContain('The number of neighbors is 1.');
    expect(
      noteText({ content: 'c', timestamp: '202301010000', keywords: ['k1', 'k2'], tags: ['t'], context: 'ctx' }),
    ).toBe('c\nk1, k2\nt\nctx');
    expect(
      noteText({ content: '我养了猫', timestamp: '202301010000', keywords: ['猫'], tags: [], context: 'General' }),
    ).toBe('我养了猫\n猫');
  });
});

describe('a-mem against the loopback LLM server', () => {
  let server: FakeOpenAiServer;
  beforeAll(async () => {
    server = await startFakeOpenAiServer({
      chat: (body: ChatRequestBody) => {
        const prompt = body.messages.map((m) => m.content).join('\n');
        if (prompt.includes('Generate a structured analysis'))
          return { text: '{"keywords": ["support group"], "context": "Personal life.", "tags": ["life"]}' };
        if (prompt.includes('memory evolution agent')) {
          return {
            text: '{"should_evolve": true, "actions": ["strengthen"], "suggested_connections": ["0"], "tags_to_update": ["linked"], "new_context_neighborhood": [], "new_tags_neighborhood": []}',
          };
        }
        return { text: 'unexpected prompt' };
      },
    });
  });
  afterAll(async () => server.close());

  it('builds notes once per LoCoMo conversation, links them, and a rerun makes no calls', async () => {
    const { haystack, queries } = await smallLocomo(1);
    const ctx = factoryContext(
      { granularity: 'turn', roles: ['user', 'assistant'], includeCaptions: true, speakerPrefix: true },
      ['strategy'],
      6,
    );
    const r = await runTwice(server, () => createAMem(AMemOptionsSchema.parse({}), ctx), haystack, queries);
    const [q1, q2] = r.firstRun as [(typeof r.firstRun)[0], (typeof r.firstRun)[0]];
    expect(stages(q1, 'index:note')).toBe(r.unitCount);
    expect(stages(q1, 'index:evolve')).toBe(r.unitCount - 1); // the first note has no neighbours
    expect(stages(q2, 'index:')).toBe(0);
    expect(r.firstRequests).toBe(2 * r.unitCount - 1);
    expect(r.rerunRequests).toBe(0);
  });

  it('every note links to its nearest earlier note, so retrieval adds linked notes', async () => {
    const { haystack, queries } = await smallLocomo(1);
    const ctx = factoryContext(
      { granularity: 'turn', roles: ['user', 'assistant'], includeCaptions: true, speakerPrefix: true },
      ['strategy'],
      6,
    );
    const r = await runTwice(
      server,
      async () => {
        const m = createAMem(AMemOptionsSchema.parse({}), ctx);
        return {
          ...m,
          run: async (q, index, c) => {
            const out = await m.run(q, index, c);
            expect((out.retrieval.notes as { linked: number }).linked).toBeGreaterThan(0);
            expect(out.retrieval.units.length).toBe(6);
            return out;
          },
        };
      },
      haystack,
      queries,
    );
    expect(r.rerunRequests).toBe(0);
  });
});
