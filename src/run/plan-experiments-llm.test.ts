/**
 * The README's promise that each of the plan's five experiment files also runs with a reader and judge ("add an
 * `llm:` block and `qa: {}`"), checked on the committed files themselves: each (experiment 4 through its sweep) is
 * read, given an `llm:` block pointing at the loopback OpenAI-compatible server of src/llm/testing and `qa: {}`,
 * shrunk to one question per type of each dataset (four for experiment 2) (LongMemEval oracle stands in for S: same format and types, small
 * haystacks), and run through the real runner; `adaptmr report` must then print every section at judged accuracy
 * on both datasets, with no method failing. The ONNX models the files name are replaced by one trained here.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_FEATURE_SPEC } from '../classify/onnx/features.ts';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../llm/testing/fake-openai-server.ts';
import { parisQaChat } from '../llm/testing/paris-qa.ts';
import { runReport } from '../report/report.ts';
import { openResultStore } from '../store/index.ts';
import { trainLinear } from '../tools/classifier/train/train.ts';
import { writeLinearModel } from '../tools/classifier/train/export.ts';
import { loadedFromValue } from './config/load-config.ts';
import { REPO_ROOT } from './record/provenance.ts';
import { runExperiment } from './runner.ts';
import { expandSweep } from './sweep/sweep-file.ts';
import { useTestData } from '../../test/data-path.ts';

useTestData(); // its runs find LoCoMo / LongMemEval by name on the data search path

type Obj = Record<string, unknown>;
const dir = mkdtempSync(join(tmpdir(), 'adaptmr-plan-llm-'));
const file = join(dir, 'plan-llm.duckdb');
const model = join(dir, 'classifier.onnx');
let server: FakeOpenAiServer;

beforeAll(async () => {
  // The reader's answer depends on the whole prompt's length here (retrieved context included).
  server = await startFakeOpenAiServer({ chat: parisQaChat((prompt) => prompt) });
  const train = ['When did I go?', 'What is my address now?', 'How many in total?', 'What is the name of my dog?'].map(
    (text, i) => ({ text, type: (['temporal', 'update', 'multi-hop', 'factual'] as const)[i]! }),
  );
  await writeLinearModel(
    trainLinear(train, { spec: { ...DEFAULT_FEATURE_SPEC, dim: 1 << 10 }, epochs: 5, seed: 1 }),
    model,
  );
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const read = (name: string): Obj => parse(readFileSync(join(REPO_ROOT, 'experiments', name), 'utf8')) as Obj;

/** The experiment as the README says to run it with an LLM, shrunk for a test. */
function withLlm(config: Obj, perType = 1): Obj {
  const text = JSON.stringify(config).replaceAll(/results\/models\/classifier-[a-z]+\.onnx/gu, model);
  const c = JSON.parse(text) as Obj;
  const datasets = (c.datasets as Obj[]).map((d) => ({
    ...d,
    name: d.name === 'longmemeval-s' ? 'longmemeval-oracle' : d.name,
    sample: { perType },
  }));
  return {
    ...c,
    datasets,
    metrics: { ks: [10] },
    stats: { ...(c.stats as Obj), resamples: 200 },
    llm: {
      cache: { mode: 'read-write', dir: join(dir, 'cache') },
      maxRetries: 0,
      roles: {
        reader: { baseURL: server.baseURL, model: 'fake-reader' },
        judge: { baseURL: server.baseURL, model: 'fake-judge' },
      },
    },
    qa: {},
  };
}

describe('the plan experiments with an llm: block and qa: {}', () => {
  it('run on both datasets and report judged accuracy in every section', async () => {
    // Experiment 2 chooses on one half of each type and reports on the other, so it needs a few questions per type.
    const files: [string, number][] = [
      ['exp1-existing-systems.yaml', 1],
      ['exp2-oracle-upper-bound.yaml', 4],
      ['exp3-adaptmr-vs-baselines.yaml', 1],
      ['exp5-efficiency.yaml', 1],
    ];
    const runs = files.map(([f, perType]) => loadedFromValue(withLlm(read(f), perType), f));
    const sweep = read('exp4-ablations.yaml');
    runs.push(
      ...expandSweep({
        path: 'exp4-ablations.yaml',
        name: sweep.name as string,
        base: withLlm(sweep.base as Obj),
        variations: sweep.variations as never,
      }).map((r) => r.experiment),
    );
    let errors = 0;
    for (const exp of runs) errors += (await runExperiment(exp, { out: file, progress: false, log: () => {} })).errors;
    expect(errors).toBe(0);

    const store = await openResultStore(file, { readOnly: true });
    const datasets = await store.query<{ dataset: string; granularity: string; n: number }>(
      `SELECT dataset, granularity, count(DISTINCT question_id)::INT AS n FROM scores WHERE level = 'qa' AND metric = 'accuracy' GROUP BY ALL ORDER BY ALL`,
    );
    await store.close();
    // Both datasets answered and judged; LoCoMo ran as turns, LongMemEval as sessions (the files' per-dataset index).
    expect(datasets.map((d) => [d.dataset, d.granularity])).toEqual([
      ['locomo', 'turn'],
      ['longmemeval-oracle', 'session'],
    ]);

    const t = (await runReport(file, { outDir: join(dir, 'out'), ks: [10] })).text;
    expect(t).toMatch(/Experiment 1 — existing systems by query type: accuracy \(qa level\)/u);
    expect(t).toMatch(
      /Experiment 2 — oracle strategy vs unified-embedding, the best single strategy and the per-question ceiling: accuracy \(qa level\)/u,
    );
    expect(t).toMatch(/Experiment 3 — AdaptMR vs baselines: accuracy \(qa level\)/u);
    expect(t).toMatch(/Experiment 4 — ablations vs full AdaptMR \(exp4-ablations.full\): accuracy \(qa level\)/u);
    for (const d of ['locomo', 'longmemeval-oracle']) {
      // Every section prints its stored verdicts at the judged-accuracy headline.
      for (const claim of [
        'oracle-vs-unified',
        'oracle-vs-best-single',
        'adaptmr-vs-unified',
        'adaptmr-vs-baseline',
        'adaptmr-vs-all-baselines',
        'ablation:no-classifier',
        'overhead',
      ]) {
        expect(t, `${d} ${claim}`).toMatch(new RegExp(`│ ${d} +│ ${claim} +│`, 'u'));
      }
      expect(t).toMatch(new RegExp(`│ ${d} +│ no-classifier +│`, 'u'));
    }
    expect(t).toMatch(/Verdicts[^\n]* at the headline \([^)]*accuracy/u);
  }, 600_000);
});
