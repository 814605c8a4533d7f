/**
 * The conformance suite every registered classifier runs (a new classifier gets it by registering): for English and
 * Chinese questions, a type among the five and probabilities over exactly the five types, finite, in [0, 1], summing
 * to 1, with the type being a most probable one; deterministic; the query is a frozen {id, text, askedAt} (no gold).
 * LLM classifiers talk to a loopback OpenAI-compatible server through ctx.llm (role `classifier`). ONNX examples get
 * their model files from the fixtures below, made at test time (a model trained here, a tiny Hugging Face folder).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Ctx } from '../core/interfaces.ts';
import { ADAPT_TYPES } from '../core/types.ts';
import { createLlmProvider } from '../llm/index.ts';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../llm/testing/fake-openai-server.ts';
import { frozenQuery } from '../strategies/testing/fixtures.ts';
import { classifiers } from './registry.ts';
import { writeTinyHfModel } from './onnx/testing/tiny-hf-model.ts';
import { trainLinear } from '../tools/classifier/train/train.ts';
import { writeLinearModel } from '../tools/classifier/train/export.ts';
import { DEFAULT_FEATURE_SPEC } from './onnx/features.ts';

const QUESTIONS = [
  "What is my cat's name?",
  'Did I start running before I moved to Hangzhou?',
  'Where do I live now?',
  'Which restaurants did you recommend, and what cuisine is each?',
  '我的猫叫什么名字？',
  '我是先开始跑步还是先搬到杭州的？',
  '我现在住在哪里？',
];

/** Files an example can ask for (`fixtures`): fixture name → maker writing under `dir`, returning the path. */
const FIXTURES: Record<string, (dir: string) => Promise<string>> = {
  'trained-hashed-model': async (dir) => {
    const train = [
      { text: 'When did I start running?', type: 'temporal' },
      { text: '我是什么时候搬家的？', type: 'temporal' },
      { text: 'Where do I live now?', type: 'update' },
      { text: '我现在住在哪里？', type: 'update' },
      { text: 'How many restaurants did you recommend in total?', type: 'multi-hop' },
      { text: 'What is the name of my cat?', type: 'factual' },
      { text: 'Did I ever tell you my blood type?', type: 'abstention' },
    ] as const;
    const file = join(dir, 'hashed.onnx');
    await writeLinearModel(
      trainLinear(train, { spec: { ...DEFAULT_FEATURE_SPEC, dim: 1 << 10 }, epochs: 20, seed: 5 }),
      file,
    );
    return file;
  },
  'tiny-hf-model': async (dir) => {
    const folder = join(dir, 'hf');
    await writeTinyHfModel(folder, { labels: [...ADAPT_TYPES], words: { when: [1, 3], now: [2, 3], many: [3, 3] } });
    return folder;
  },
};

let server: FakeOpenAiServer;
let fixtureDir: string;
beforeAll(async () => {
  fixtureDir = await mkdtemp(join(tmpdir(), 'adaptmr-classifier-fixtures-'));
  server = await startFakeOpenAiServer({
    chat: () => ({
      text: JSON.stringify({
        type: 'multi_hop',
        probabilities: {
          factual_extraction: 0.1,
          temporal_reasoning: 0.2,
          knowledge_update: 0.1,
          multi_hop: 0.5,
          abstention: 0.1,
        },
      }),
    }),
  });
});
afterAll(async () => {
  await server.close();
  await rm(fixtureDir, { recursive: true, force: true });
});

async function withFixtures(options: unknown, fixtures: Partial<Record<string, string>> | undefined): Promise<unknown> {
  if (!fixtures) return options;
  const filled: Record<string, unknown> = { ...(options as Record<string, unknown>) };
  for (const [option, name] of Object.entries(fixtures)) {
    const make = FIXTURES[name!];
    if (!make) throw new Error(`no conformance fixture named "${name}"; known: ${Object.keys(FIXTURES).join(', ')}`);
    filled[option] = await make(await mkdtemp(join(fixtureDir, `${name}-`)));
  }
  return filled;
}

function ctx(): Ctx {
  return {
    seed: 1,
    calls: [],
    llm: createLlmProvider(
      {
        cache: { mode: 'off' },
        maxRetries: 1,
        retryBaseMs: 1,
        roles: { classifier: { baseURL: server.baseURL, model: 'fake' } },
      },
      {},
    ),
  };
}

const variants = classifiers
  .list()
  .flatMap((e) => (e.examples ?? [{ label: 'defaults', options: {} }]).map((ex) => ({ name: e.name, ...ex })));

describe.each(variants)('classifier $name ($label)', (v) => {
  it.skipIf(v.skip !== undefined)(
    `type and calibrated-shape probabilities, deterministic, English and Chinese${v.skip ? ` — skipped: ${v.skip}` : ''}`,
    async () => {
      const classifier = await classifiers.create(v.name, await withFixtures(v.options, v.fixtures), {});
      for (const [i, text] of QUESTIONS.entries()) {
        const q = frozenQuery(text, undefined, `q${i}`);
        const a = await classifier.classify(q, ctx());
        const b = await classifier.classify(q, ctx());
        expect(b, text).toEqual(a);
        expect(ADAPT_TYPES, text).toContain(a.type);
        expect(Object.keys(a.probs).sort(), text).toEqual([...ADAPT_TYPES].sort());
        const values = Object.values(a.probs);
        for (const p of values) expect(Number.isFinite(p) && p >= 0 && p <= 1, `${text}: ${p}`).toBe(true);
        expect(
          values.reduce((s, p) => s + p, 0),
          text,
        ).toBeCloseTo(1, 9);
        expect(a.probs[a.type], text).toBeCloseTo(Math.max(...values), 9);
      }
    },
  );
});
