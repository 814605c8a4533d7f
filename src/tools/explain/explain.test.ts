/**
 * `adaptmr explain` on real questions (a LongMemEval S question and a LoCoMo question) through an offline config:
 * every method's block (type, route, units with date/score/preview, notes, context), the oracle method alone gets
 * the gold type, the gold is only in its own section after the method blocks, and the ranked units are the ones the
 * runner would score (unified-embedding = the index's cosine top-k).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { InputError } from '../../core/errors.ts';
import { loadDataset } from '../../data/index.ts';
import { createMemoryIndex, createWinkSifEmbedder } from '../../index/index.ts';
import { loadExperiment, type LoadedExperiment } from '../../run/config/load-config.ts';
import { explainCommand } from './commands.ts';
import { explainQuestion } from './explain.ts';
import { formatExplain } from './format.ts';
import { TEST_DATA_DIR } from '../../../test/data-path.ts';

const DATA = TEST_DATA_DIR;
const LME_ID = 'gpt4_2655b836';
const LOCOMO_ID = 'conv-26:q6';

const CONFIG = `
name: explain-test
datasets:
  - name: locomo
  - name: longmemeval-s
    sample: { perType: 1 }
embedder: { name: wink-sif }
methods:
  - { id: unified, method: unified-embedding, index: { granularity: session }, k: 5 }
  - { id: temporal, method: strategy, index: { granularity: session }, k: 5, options: { name: temporal } }
  - { id: single, method: adaptmr, index: { granularity: session }, k: 5, options: { classifier: { name: rules }, router: { kind: single } } }
  - { id: oracle, method: adaptmr, index: { granularity: session }, k: 5, options: { router: { kind: oracle } } }
metrics: { ks: [1, 5] }
`;

let exp: LoadedExperiment;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'explain-'));
  writeFileSync(join(dir, 'explain.yaml'), CONFIG);
  exp = await loadExperiment(join(dir, 'explain.yaml'));
});

describe('explainQuestion on real questions', () => {
  it('LongMemEval S: every method, oracle gets the gold type only, gold apart', async () => {
    // The question is outside the config's sample: a case study looks in the whole dataset.
    const r = await explainQuestion(exp, { questionId: LME_ID, dataDir: DATA });
    expect(r.dataset).toBe('longmemeval-s');
    expect(r.question.text).toBe('What was the first issue I had with my new car after its first service?');
    expect(r.methods.map((m) => m.method)).toEqual(['unified', 'temporal', 'single', 'oracle']);
    for (const m of r.methods) {
      expect(m.error, m.method).toBeNull();
      expect(m.units.length).toBeGreaterThan(0);
      expect(m.units.length).toBeLessThanOrEqual(5);
      for (const u of m.units) {
        expect(u.date).toMatch(/^2023-/);
        expect(u.preview.length).toBeGreaterThan(0);
        expect(u.preview.length).toBeLessThanOrEqual(100);
      }
      expect(m.context).toBeTruthy();
    }
    const [unified, temporal, single, oracle] = r.methods;
    expect(temporal!.route).toBe('temporal');
    expect(single!.predictedType).not.toBeNull();
    expect(Object.values(single!.typeProbs ?? {}).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 6);
    expect(oracle!.gotOracleType).toBe(true);
    expect(single!.gotOracleType).toBe(false);
    expect(oracle!.route).toBe(`oracle:${r.gold.type}`);
    expect(r.gold).toMatchObject({
      type: 'temporal',
      isAbstention: false,
      answer: 'GPS system not functioning correctly',
    });
    // unified-embedding is the index's cosine top-k, in order, with its scores.
    const { instances } = await loadDataset({ name: 'longmemeval-s', questionIds: [LME_ID] }, DATA);
    const index = createMemoryIndex(
      instances[0]!.haystack,
      { granularity: 'session', roles: ['user', 'assistant'], includeCaptions: true },
      createWinkSifEmbedder(),
    );
    const top = await index.semantic(r.question.text, 5);
    expect(unified!.units.map((u) => u.id)).toEqual(top.map((s) => s.unit.id));
    expect(unified!.units[0]!.score).toBeCloseTo(top[0]!.score, 6);
    // Gold scores are the runner's rows; the evidence ranks agree with the units listed.
    expect(r.gold.scores.some((s) => s.method === 'unified' && s.metric === 'recall_any' && s.k === 5)).toBe(true);
    for (const [sid, rank] of Object.entries(r.gold.evidenceRanks.unified ?? {}))
      expect(unified!.units[rank - 1]!.sessionId).toBe(sid);

    const text = formatExplain(r);
    const goldAt = text.indexOf('GOLD (never given to a method');
    expect(goldAt).toBeGreaterThan(text.lastIndexOf('METHOD oracle'));
    expect(text.slice(0, goldAt)).not.toContain('GPS system not functioning correctly');
    expect(text).toContain('[oracle: received the gold type — gold-type routing]');
    expect(text).toContain(`  │ ${unified!.context!.split('\n')[0]}`);
    expect(text.slice(goldAt)).toContain('answer: GPS system not functioning correctly');
  });

  it('LoCoMo: finds the question in the other dataset; --dataset restricts and unknown ids fail naming the file', async () => {
    const r = await explainQuestion(exp, { questionId: LOCOMO_ID, dataDir: DATA, dataset: 'locomo' });
    expect(r.dataset).toBe('locomo');
    expect(r.question.text).toBe('When is Melanie planning on going camping?');
    expect(r.gold.type).toBe('temporal');
    expect(r.methods.every((m) => m.error === null && m.units.length > 0)).toBe(true);
    const json = JSON.parse(JSON.stringify(r)) as typeof r;
    expect(json.methods[3]!.route).toBe('oracle:temporal');
    await expect(
      explainQuestion(exp, { questionId: LOCOMO_ID, dataDir: DATA, dataset: 'longmemeval-s' }),
    ).rejects.toThrow(/in none of the experiment's datasets/);
    await expect(explainQuestion(exp, { questionId: 'no-such-q', dataDir: DATA })).rejects.toThrow(/explain\.yaml/);
  });
});

describe('explain --methods', () => {
  it('reruns only the methods asked for, and refuses an id the experiment does not have', async () => {
    const ids = exp.config.methods.map((m) => m.id);
    const r = await explainQuestion(exp, { questionId: LME_ID, dataDir: DATA, methods: [ids[0]!] });
    expect(r.methods.map((m) => m.method)).toEqual([ids[0]]);
    await expect(
      explainQuestion(exp, { questionId: LME_ID, dataDir: DATA, methods: ['no-such-method'] }),
    ).rejects.toThrow(/--methods: no-such-method not in the experiment \(its methods: /u);
  });
});

describe('adaptmr explain (command)', () => {
  it('refuses to run with neither --experiment nor --results, as a usage line', async () => {
    const handler = explainCommand.handler as (argv: Record<string, unknown>) => Promise<void>;
    await expect(handler({ _: [], $0: 'adaptmr', question: 'x', json: false })).rejects.toThrow(InputError);
    await expect(handler({ _: [], $0: 'adaptmr', question: 'x', json: false })).rejects.toThrow(
      /give --experiment <file\.yaml> or --results <file\.duckdb>/,
    );
  });
});
