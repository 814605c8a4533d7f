/**
 * The `strategy` method entry: every registered strategy as a method on a real LongMemEval S question (session
 * units) and a real LoCoMo conversation (turn units): ids exist in the index, ≤ k, best first, route = strategy;
 * options go through the strategy's strict schema; an abstention thresholds file holds its calibration ids out.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { IndexSpec, MemoryIndex } from '../core/interfaces.ts';
import type { Query } from '../core/types.ts';
import { loadDataset } from '../data/index.ts';
import { createMemoryIndex, createWinkSifEmbedder } from '../index/index.ts';
import { methods } from '../run/methods/method-registry.ts';
import { strategies } from '../strategies/registry.ts';
import { TEST_DATA_DIR } from '../../test/data-path.ts';

const DATA = TEST_DATA_DIR;
const SESSION: IndexSpec = { granularity: 'session', roles: ['user', 'assistant'], includeCaptions: true };
const TURN: IndexSpec = {
  granularity: 'turn',
  roles: ['user', 'assistant'],
  includeCaptions: true,
  speakerPrefix: true,
};
const embedder = createWinkSifEmbedder();
const cases: { label: string; spec: IndexSpec; index: MemoryIndex; queries: Query[] }[] = [];

beforeAll(async () => {
  const lme = await loadDataset({ name: 'longmemeval-s', questionIds: ['gpt4_2655b836'] }, DATA);
  const l = lme.instances[0]!;
  cases.push({
    label: 'LongMemEval S',
    spec: SESSION,
    index: createMemoryIndex(l.haystack, SESSION, embedder),
    queries: [Object.freeze({ ...l.query })],
  });
  const locomo = await loadDataset({ name: 'locomo', limit: 4 }, DATA);
  const c = locomo.instances[0]!;
  cases.push({
    label: 'LoCoMo',
    spec: TURN,
    index: createMemoryIndex(c.haystack, TURN, embedder),
    queries: locomo.instances.filter((i) => i.haystackId === c.haystackId).map((i) => Object.freeze({ ...i.query })),
  });
});

describe.each(strategies.names())('method strategy / %s', (name) => {
  it('returns existing ids, at most k, best first, and names the strategy as route', async () => {
    for (const c of cases) {
      const k = 7;
      const method = await methods.create(
        'strategy',
        { name },
        { id: `s-${name}`, index: c.spec, k, seed: 42, runKey: 'test', llmRoles: [] },
      );
      expect(method.capabilities.oracleType).toBeFalsy();
      for (const q of c.queries) {
        const out = await method.run(q, c.index, { seed: 1, calls: [] });
        const ids = out.retrieval.units.map((u) => u.unit.id);
        expect(ids.length, `${c.label} ${q.id}`).toBeLessThanOrEqual(k);
        if (!out.retrieval.noMemory) expect(ids.length, `${c.label} ${q.id}`).toBeGreaterThan(0);
        for (const id of ids) expect(c.index.unit(id), `${c.label} ${q.id} ${id}`).toBeDefined();
        expect(new Set(ids).size).toBe(ids.length);
        const scores = out.retrieval.units.map((u) => u.score);
        for (let i = 1; i < scores.length; i++) expect(scores[i]!).toBeLessThanOrEqual(scores[i - 1]!);
        expect(out.route).toBe(name);
        expect(out.retrieval.context.length).toBeGreaterThan(0);
      }
    }
  });
});

describe('method strategy options', () => {
  const context = { id: 'm', index: SESSION, k: 5, seed: 42, runKey: 'test', llmRoles: [] };

  it('rejects an unknown strategy with a hint and a bad strategy option naming the field', async () => {
    await expect(methods.create('strategy', { name: 'temporall' }, context, 'methods.0')).rejects.toThrow(
      /unknown strategy "temporall".*Did you mean "temporal"/,
    );
    await expect(
      methods.create('strategy', { name: 'factual', options: { entityWieght: 0 } }, context, 'methods.0'),
    ).rejects.toThrow(/entityWieght/);
    expect(() => methods.parseOptions('strategy', { name: 'factual', extra: 1 }, 'methods.0')).toThrow(/extra/);
  });

  it('passes options to the strategy: factual with entityWeight 0 ranks exactly like unified', async () => {
    const c = cases[0]!;
    const plain = await methods.create('strategy', { name: 'unified' }, { ...context, index: c.spec, k: 10 });
    const noEntity = await methods.create(
      'strategy',
      { name: 'factual', options: { entityWeight: 0 } },
      { ...context, index: c.spec, k: 10 },
    );
    const q = c.queries[0]!;
    const a = await plain.run(q, c.index, { seed: 1, calls: [] });
    const b = await noEntity.run(q, c.index, { seed: 1, calls: [] });
    expect(b.retrieval.units.map((u) => u.unit.id)).toEqual(a.retrieval.units.map((u) => u.unit.id));
  });

  it('holds out the calibration questions of an abstention thresholds file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'strategy-method-'));
    const file = join(dir, 'thresholds.json');
    writeFileSync(
      file,
      JSON.stringify({
        version: 1,
        embedders: {
          [embedder.id]: {
            dataset: 'longmemeval-s',
            granularity: 'session',
            high: 0.95,
            low: 0.8,
            seed: 1,
            fraction: 0.3,
            nCalibration: 2,
            nAbstention: 1,
            rule: 'test',
            calibrationQuestionIds: ['q1', 'q2'],
            createdAt: '2026-01-01T00:00:00Z',
          },
        },
      }),
    );
    const m = await methods.create('strategy', { name: 'abstention', options: { thresholdsFile: file } }, context);
    expect([...(m.excludedQuestionIds ?? [])].sort()).toEqual(['q1', 'q2']);
    const plain = await methods.create('strategy', { name: 'temporal' }, context);
    expect(plain.excludedQuestionIds).toBeUndefined();
  });
});
