// `timingRepeats` (plan experiment 5): a pure-computation method is timed that many times on each question and the
// stored latency is the median of the repeats (listed in notes.timingMs), with that run's stage times; the first
// run's output is the one kept,
// and a method that calls an LLM is timed once (a repeat would repeat paid calls).
import { describe, expect, it } from 'vitest';
import { ExperimentConfigSchema } from '../core/config.ts';
import type { IndexSpec, Method } from '../core/interfaces.ts';
import type { Instance } from '../core/types.ts';
import { createMemoryIndex, createWinkSifEmbedder } from '../index/index.ts';
import { ASKED_AT, PLAN_HAYSTACK } from '../strategies/testing/fixtures.ts';
import type { IndexCache } from './index-cache.ts';
import { emptyBatch, runMethod } from './question.ts';

const SPEC: IndexSpec = { granularity: 'session', roles: ['user', 'assistant'], includeCaptions: true };
const instance: Instance = {
  dataset: 'plan',
  query: { id: 'q1', text: '我现在住在哪里？', askedAt: ASKED_AT },
  haystackId: 'plan',
  haystack: PLAN_HAYSTACK,
  gold: {
    nativeType: 'knowledge-update',
    type: 'update',
    isAbstention: false,
    evidenceSessionIds: ['M4'],
    evidenceTurnIds: ['M4#1'],
    answer: '杭州',
  },
};

/** Sleeps 300, 100, 0 ms on its successive runs (far apart, so a loaded machine cannot reorder them) (each a different unit first, so a repeat's output would show). */
function sleepyMethod(llm = false): { method: Method; runs: number[] } {
  const delays = [300, 100, 0];
  const runs: number[] = [];
  return {
    runs,
    method: {
      capabilities: { output: 'units', ...(llm ? { llmRoles: ['strategy' as const] } : {}) },
      async run(_q, index) {
        const i = runs.length;
        runs.push(i);
        await new Promise((r) => setTimeout(r, delays[i % 3]));
        const notes = { stageMs: { retrieve: delays[i % 3]! } };
        return {
          retrieval: {
            units: [{ unit: index.units[i % index.units.length]!, score: 1 }],
            noMemory: false,
            context: 'x',
            ...(llm ? {} : { notes }),
          },
        };
      },
    },
  };
}

async function timed(method: Method, timingRepeats: number | undefined) {
  const config = ExperimentConfigSchema.parse({
    name: 't',
    datasets: [{ name: 'locomo' }],
    methods: [{ id: 'm', method: 'bm25' }],
    ...(timingRepeats ? { timingRepeats } : {}),
  });
  const index = createMemoryIndex(PLAN_HAYSTACK, SPEC, createWinkSifEmbedder());
  const batch = emptyBatch(instance, 'run');
  await runMethod(instance, { id: 'm', kind: 'test', index: SPEC, k: 5, impl: method }, batch, {
    config,
    runId: 'run',
    indexes: { get: () => index } as unknown as IndexCache,
    llm: undefined,
    protocol: 'longmemeval',
  });
  return { row: batch.retrievals[0]!, first: index.units[0]!.id };
}

describe('timing repeats', () => {
  it("stores the median of three timings and the first run's output", async () => {
    const { method, runs } = sleepyMethod();
    const { row, first } = await timed(method, 3);
    expect(runs).toEqual([0, 1, 2]);
    const times = (row.notes as { timingMs: number[] }).timingMs;
    expect(times).toHaveLength(3);
    expect(times[0]!).toBeGreaterThanOrEqual(290);
    expect(times[1]!).toBeGreaterThanOrEqual(95);
    expect(row.latencyMs).toBe(times[1]); // the median: the 100 ms run, not the first (300 ms)
    expect((row.notes as { stageMs: { retrieve: number } }).stageMs.retrieve).toBe(100); // its stages, not the first run's
    expect(row.unitIds).toEqual([first]);
  });

  it('times once without repeats, and a method that calls an LLM once whatever the setting', async () => {
    const plain = sleepyMethod();
    expect((await timed(plain.method, undefined)).row.notes).toEqual({ stageMs: { retrieve: 300 } });
    expect(plain.runs).toEqual([0]);
    const llm = sleepyMethod(true);
    const { row } = await timed(llm.method, 3);
    expect(llm.runs).toEqual([0]);
    expect(row.notes).toBeNull();
  });
});
