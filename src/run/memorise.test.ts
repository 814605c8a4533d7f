// The runner's memory-writing step (question.ts memoriseFor): with `prepareIndex`, a method's `memorise` runs before
// its question is timed, once per method and index (concurrent questions of a haystack wait for the same one), is
// recorded as one call of stage `memorise`, and a failure is an error row of stage `memorising` that the next
// question retries. Without `prepareIndex` the runner never calls it. The index build before it (prepareIndex) is
// shared the same way: no question's method starts before the haystack's embeddings are ready.
import { describe, expect, it } from 'vitest';
import { ExperimentConfigSchema } from '../core/config.ts';
import type { IndexSpec, MemoryIndex, Method } from '../core/interfaces.ts';
import type { Instance } from '../core/types.ts';
import { createMemoryIndex, createWinkSifEmbedder } from '../index/index.ts';
import { ASKED_AT, PLAN_HAYSTACK } from '../strategies/testing/fixtures.ts';
import type { IndexCache } from './index-cache.ts';
import { emptyBatch, runMethod } from './question.ts';

const SPEC: IndexSpec = { granularity: 'session', roles: ['user', 'assistant'], includeCaptions: true };
const embedder = createWinkSifEmbedder();

function instance(id: string): Instance {
  return {
    dataset: 'plan',
    query: { id, text: 'Where do I live now?', askedAt: ASKED_AT },
    haystackId: 'plan',
    haystack: PLAN_HAYSTACK,
    gold: {
      nativeType: 'knowledge-update',
      type: 'update',
      isAbstention: false,
      evidenceSessionIds: ['M4'],
      evidenceTurnIds: ['M4#1'],
      answer: 'Hangzhou',
    },
  };
}

/** A method whose memory is the unit count, written by `memorise` (slowly, to let questions overlap) or by `run`. */
function countingMethod(opts: { failFirst?: boolean } = {}): {
  method: Method;
  memorised: number[];
  ranLazily: number[];
} {
  const memorised: number[] = [];
  const ranLazily: number[] = [];
  const memory = new WeakMap<MemoryIndex, number>();
  let failures = opts.failFirst ? 1 : 0;
  const method: Method = {
    capabilities: { output: 'units' },
    async memorise(index) {
      await new Promise((r) => setTimeout(r, 20));
      if (failures-- > 0) throw new Error('memory store unavailable');
      memorised.push(index.units.length);
      memory.set(index, index.units.length);
    },
    async run(_query, index) {
      if (!memory.has(index)) {
        ranLazily.push(index.units.length);
        memory.set(index, index.units.length);
      }
      return {
        retrieval: { units: [{ unit: index.units[0]!, score: memory.get(index)! }], noMemory: false, context: 'x' },
      };
    },
  };
  return { method, memorised, ranLazily };
}

async function run(method: Method, index: MemoryIndex, questionIds: string[], prepareIndex: boolean) {
  const config = ExperimentConfigSchema.parse({
    name: 'm',
    datasets: [{ name: 'locomo' }],
    methods: [{ id: 'm', method: 'bm25' }],
    prepareIndex,
  });
  const indexes = { get: () => index } as unknown as IndexCache;
  return Promise.all(
    questionIds.map(async (id) => {
      const batch = emptyBatch(instance(id), 'run');
      const failed = await runMethod(instance(id), { id: 'm', kind: 'test', index: SPEC, k: 5, impl: method }, batch, {
        config,
        runId: 'run',
        indexes,
        llm: undefined,
        protocol: 'longmemeval',
      });
      return { failed, batch };
    }),
  );
}

describe('memorise in the runner', () => {
  it('runs once per method and index before the timed run, recorded once as stage memorise', async () => {
    const { method, memorised, ranLazily } = countingMethod();
    const index = createMemoryIndex(PLAN_HAYSTACK, SPEC, embedder);
    const out = await run(method, index, ['q1', 'q2', 'q3'], true);
    expect(memorised).toEqual([PLAN_HAYSTACK.length]);
    expect(ranLazily).toEqual([]);
    const stages = out.flatMap((o) => o.batch.llmCalls!.map((c) => c.stage));
    expect(stages.filter((s) => s === 'memorise')).toHaveLength(1);
    expect(stages.filter((s) => s === 'index:memorise')).toHaveLength(1);
    const record = out.flatMap((o) => o.batch.llmCalls!).find((c) => c.stage === 'memorise')!;
    expect(record.model).toBe('m');
    expect(record.latencyMs).toBeGreaterThanOrEqual(15); // the 20 ms memorise, timed
    expect(out.map((o) => o.batch.retrievals[0]!.error)).toEqual([null, null, null]);
  });

  it('is not called without prepareIndex: run writes the memory itself', async () => {
    const { method, memorised, ranLazily } = countingMethod();
    const index = createMemoryIndex(PLAN_HAYSTACK, SPEC, embedder);
    const out = await run(method, index, ['q1'], false);
    expect(memorised).toEqual([]);
    expect(ranLazily).toEqual([PLAN_HAYSTACK.length]);
    expect(out[0]!.batch.llmCalls!.map((c) => c.stage)).toEqual([]);
  });

  it('turns a failure into an error row of stage memorising, and the next question retries', async () => {
    const { method, memorised } = countingMethod({ failFirst: true });
    const index = createMemoryIndex(PLAN_HAYSTACK, SPEC, embedder);
    const [first] = await run(method, index, ['q1'], true);
    expect(first!.failed).toBe('memorising');
    expect(first!.batch.retrievals[0]!.error).toContain('memory store unavailable');
    const [second] = await run(method, index, ['q2'], true);
    expect(second!.failed).toBeUndefined();
    expect(memorised).toEqual([PLAN_HAYSTACK.length]);
  });

  it('builds the index once: questions arriving meanwhile wait for it before their methods start', async () => {
    const base = createMemoryIndex(PLAN_HAYSTACK, SPEC, embedder);
    let builds = 0;
    let ready = false;
    let failures = 0;
    // The embeddings take a while (and fail the first time when asked), so the questions overlap the build.
    const index = Object.create(base, {
      vectors: {
        value: async () => {
          builds++;
          await new Promise((r) => setTimeout(r, 30));
          if (failures-- > 0) throw new Error('embedding endpoint unavailable');
          const v = await base.vectors();
          ready = true;
          return v;
        },
      },
    }) as MemoryIndex;
    const sawReady: boolean[] = [];
    const method: Method = {
      capabilities: { output: 'units' },
      async run(_query, ix) {
        sawReady.push(ready);
        return { retrieval: { units: [{ unit: ix.units[0]!, score: 1 }], noMemory: false, context: 'x' } };
      },
    };
    failures = 1;
    const failedFirst = await run(method, index, ['q1', 'q2'], true);
    expect(failedFirst.map((o) => o.failed)).toEqual(['memorising', 'memorising']);
    expect(failedFirst[0]!.batch.retrievals[0]!.error).toContain('embedding endpoint unavailable');
    expect(sawReady).toEqual([]);
    const out = await run(method, index, ['q3', 'q4', 'q5'], true);
    expect(out.map((o) => o.failed)).toEqual([undefined, undefined, undefined]);
    expect(sawReady).toEqual([true, true, true]);
    expect(builds).toBe(2); // the failed one, then one for the three concurrent questions
    const stages = out.flatMap((o) => o.batch.llmCalls!.map((c) => c.stage));
    expect(stages.filter((s) => s === 'index:memorise')).toHaveLength(1);
  });
});
