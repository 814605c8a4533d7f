// Abstention strategy: θ bands, the explicit no-memory result, the LLM check in between, thresholds by embedder id.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Ctx, IndexSpec } from '../core/interfaces.ts';
import { createMemoryIndex, createWinkSifEmbedder } from '../index/index.ts';
import { createLlmProvider } from '../llm/index.ts';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../llm/testing/fake-openai-server.ts';
import { AbstentionOptionsSchema, createAbstention } from './abstention.ts';
import { NO_MEMORY_LINE } from './render.ts';
import { frozenQuery, offlineCtx, PLAN_HAYSTACK } from './testing/fixtures.ts';

const SPEC: IndexSpec = { granularity: 'session', roles: ['user', 'assistant'], includeCaptions: true };
const embedder = createWinkSifEmbedder();
const index = createMemoryIndex(PLAN_HAYSTACK, SPEC, embedder);
const q = frozenQuery('What is my blood type?');
let top1 = 0;
let server: FakeOpenAiServer;

beforeAll(async () => {
  top1 = (await index.semantic(q.text, 1))[0]!.score;
  server = await startFakeOpenAiServer({ chat: () => 'NO' });
});
afterAll(async () => server.close());

const make = (o: object) => createAbstention(AbstentionOptionsSchema.parse(o));

describe('abstention strategy', () => {
  it('below θ_low: explicit no-memory result', async () => {
    const r = await make({ thresholds: { [embedder.id]: { high: top1 + 0.2, low: top1 + 0.1 } } }).retrieve(
      q,
      index,
      5,
      offlineCtx(),
    );
    expect(r.noMemory).toBe(true);
    expect(r.units).toEqual([]);
    expect(r.context).toBe(NO_MEMORY_LINE);
    expect(r.notes).toMatchObject({ abstention: { band: 'low', decidedBy: 'threshold', thresholdSource: 'options' } });
  });

  it("at or above θ_high: the top-k (lexical evidence off: the plan's bands)", async () => {
    const r = await make({ minCoverage: 0, thresholds: { [embedder.id]: { high: top1, low: top1 - 0.1 } } }).retrieve(
      q,
      index,
      5,
      offlineCtx(),
    );
    expect(r.noMemory).toBe(false);
    expect(r.units).toHaveLength(5);
    expect(r.notes).toMatchObject({ abstention: { band: 'high', coverage: null } });
  });

  it('in between, offline, lexical evidence off: the midpoint decides', async () => {
    const keep = await make({
      minCoverage: 0,
      thresholds: { [embedder.id]: { high: top1 + 0.1, low: top1 - 0.2 } },
    }).retrieve(q, index, 5, offlineCtx());
    expect(keep.notes).toMatchObject({ abstention: { band: 'uncertain', decidedBy: 'midpoint', noMemory: false } });
    const drop = await make({
      minCoverage: 0,
      thresholds: { [embedder.id]: { high: top1 + 0.2, low: top1 - 0.1 } },
    }).retrieve(q, index, 5, offlineCtx());
    expect(drop.noMemory).toBe(true);
  });

  it('lexical evidence: a high cosine whose memories never name the blood type is not enough; a low cosine whose memories name the cat is', async () => {
    const r = await make({ thresholds: { [embedder.id]: { high: top1, low: top1 - 0.1 } } }).retrieve(
      q,
      index,
      5,
      offlineCtx(),
    );
    expect(r.noMemory).toBe(true);
    expect(r.notes).toMatchObject({ abstention: { band: 'uncertain', decidedBy: 'coverage', coverage: 0 } });
    const cat = frozenQuery("What is my cat's name?");
    const catTop = (await index.semantic(cat.text, 1))[0]!.score;
    const c = await make({ thresholds: { [embedder.id]: { high: catTop + 0.2, low: catTop + 0.1 } } }).retrieve(
      cat,
      index,
      5,
      offlineCtx(),
    );
    expect(c.noMemory).toBe(false);
    expect(c.notes).toMatchObject({ abstention: { band: 'uncertain', decidedBy: 'coverage', coverage: 1 } });
  });

  it('in between, llm: a NO from the relevance check abstains', async () => {
    const llm = createLlmProvider(
      { cache: { mode: 'off' }, maxRetries: 0, roles: { strategy: { baseURL: server.baseURL, model: 'fake' } } },
      {},
    );
    const ctx: Ctx = { seed: 1, calls: [], llm };
    const r = await make({
      mode: 'llm',
      thresholds: { [embedder.id]: { high: top1 + 0.1, low: top1 - 0.1 } },
    }).retrieve(q, index, 5, ctx);
    expect(r.noMemory).toBe(true);
    expect(r.notes).toMatchObject({ abstention: { band: 'uncertain', decidedBy: 'llm' } });
    expect(ctx.calls.map((c) => c.stage)).toEqual(['strategy.abstention.check']);
  });

  it('thresholds: options, then the calibration file, then the plan defaults (0.85 / 0.60)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'abst-'));
    const file = join(dir, 'thresholds.json');
    const entry = {
      high: 0.5,
      low: 0.4,
      dataset: 'x',
      granularity: 'session',
      seed: 1,
      fraction: 0.3,
      nCalibration: 3,
      nAbstention: 1,
      rule: 'r',
      calibrationQuestionIds: ['a'],
      createdAt: 't',
    };
    writeFileSync(file, JSON.stringify({ version: 1, embedders: { [embedder.id]: entry } }));
    const fromFile = await make({ thresholdsFile: file }).retrieve(q, index, 5, offlineCtx());
    expect(fromFile.notes).toMatchObject({
      abstention: { thresholdSource: 'file', thresholds: { high: 0.5, low: 0.4 } },
    });
    const plan = await make({}).retrieve(q, index, 5, offlineCtx());
    expect(plan.notes).toMatchObject({
      abstention: { thresholdSource: 'plan-default', thresholds: { high: 0.85, low: 0.6 } },
    });
    writeFileSync(
      file,
      JSON.stringify({ version: 1, embedders: { [embedder.id]: { ...entry, granularity: 'turn' } } }),
    );
    await expect(make({ thresholdsFile: file }).retrieve(q, index, 5, offlineCtx())).rejects.toThrow(
      /calibrated at turn granularity, the index is session/,
    );
    writeFileSync(file, '{"version":1,"embedders":{"e":{"high":1}}}');
    expect(() => make({ thresholdsFile: file })).toThrow(/thresholds\.json: embedders\.e\.low/);
  });

  it('rejects θ_low > θ_high', () => {
    expect(() => AbstentionOptionsSchema.parse({ thresholds: { e: { high: 0.5, low: 0.6 } } })).toThrow(
      /low must be ≤ high/,
    );
  });
});
