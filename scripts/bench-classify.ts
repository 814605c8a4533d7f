/**
 * Classifier latency benchmark: classifies every LongMemEval oracle question (500) one at a time with each
 * classifier and prints latency per question (p50/p95/mean) beside accuracy, then appends the evaluations to a
 * DuckDB file (`classifier_eval.latency_p50_ms` / `latency_p95_ms`, per-question `classifier_predictions.latency_ms`).
 *
 *   npx tsx scripts/bench-classify.ts [--out results/classifier-bench.duckdb]
 *
 * Classifiers: rules; onnx (hashed n-grams, trained on LoCoMo so LongMemEval stays unseen, loaded from its ONNX
 * file); the shipped default model (calibration/classifier-default.onnx: its accuracy here is in-distribution); onnx-hf (the tiny test transformer: measures the tokenizer + onnxruntime path, not a real model's cost);
 * llm and rules+llm against the loopback fake OpenAI server with no delay and the cache off (client + HTTP
 * overhead only; a real endpoint adds its own latency).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadDataset, resolveDataDir } from '../src/data/index.ts';
import { DEFAULT_ONNX_MODEL } from '../src/classify/registry.ts';
import { createLlmProvider } from '../src/llm/index.ts';
import { startFakeOpenAiServer } from '../src/llm/testing/fake-openai-server.ts';
import { labelledQuestions } from '../src/tools/classifier/eval/questions.ts';
import { evaluateClassifier } from '../src/tools/classifier/eval/run-eval.ts';
import { trainAndLoad, type EvalResult } from '../src/tools/classifier/eval/evaluate.ts';
import { writeEvalResults } from '../src/store/classifier-eval-file.ts';
import { writeTinyHfModel } from '../src/classify/onnx/testing/tiny-hf-model.ts';
import { installBenchmarks } from '../src/run/benchmark-registry.ts';

await installBenchmarks();

const outIdx = process.argv.indexOf('--out');
const out = outIdx > 0 ? (process.argv[outIdx + 1] ?? '') : 'results/classifier-bench.duckdb';
const dataDir = resolveDataDir({});
const questions = labelledQuestions((await loadDataset({ name: 'longmemeval-oracle' }, dataDir)).instances);
const locomo = labelledQuestions((await loadDataset({ name: 'locomo' }, dataDir)).instances);
const tmp = await mkdtemp(join(tmpdir(), 'adaptmr-bench-cls-'));
const server = await startFakeOpenAiServer({
  chat: () =>
    JSON.stringify({
      type: 'multi_hop',
      probabilities: {
        factual_extraction: 0.1,
        temporal_reasoning: 0.1,
        knowledge_update: 0.1,
        multi_hop: 0.6,
        abstention: 0.1,
      },
    }),
});
const provider = createLlmProvider(
  { cache: { mode: 'off' }, roles: { classifier: { baseURL: server.baseURL, model: 'fake' } } },
  {},
);

const results: EvalResult[] = [];
try {
  const modelFile = join(tmp, 'locomo.onnx');
  await trainAndLoad(locomo, modelFile, { seed: 42 });
  const hfDir = join(tmp, 'tiny-hf');
  await writeTinyHfModel(hfDir, {
    labels: ['factual', 'temporal', 'update', 'multi-hop', 'abstention'],
    words: { when: [1, 2], now: [2, 2], many: [3, 2] },
    tokenTypeIds: true,
  });
  const runs: [string, Parameters<typeof evaluateClassifier>[0]][] = [
    ['rules', { classifier: 'rules', questions }],
    ['onnx (hashed, trained on LoCoMo)', { classifier: 'onnx', options: { model: modelFile }, questions }],
    // The shipped default (no `model` option): trained on these questions too, so its accuracy is in-distribution.
    ['onnx (shipped default)', { classifier: 'onnx', options: { model: DEFAULT_ONNX_MODEL }, questions }],
    ['onnx-hf (tiny test model)', { classifier: 'onnx', options: { model: hfDir }, questions }],
    ['llm (fake server)', { classifier: 'llm', questions, llm: { provider }, concurrency: 1 }],
    ['rules+llm (fake server)', { classifier: 'rules+llm', questions, llm: { provider }, concurrency: 1 }],
  ];
  console.log(`latency per question over ${questions.length} LongMemEval oracle questions (sequential)`);
  for (const [name, req] of runs) {
    const r = await evaluateClassifier(req);
    results.push(r);
    const routes = r.routes ? `  routed rules ${r.routes.rules} / llm ${r.routes.llm}` : '';
    // The fake server's replies and the tiny test model are not real classifiers: their accuracy means nothing.
    const acc = /fake|tiny/.test(name)
      ? 'n/a (not a real model)'
      : `${(r.metrics.accuracy * 100).toFixed(1)}%${/default/.test(name) ? ' (seen in training)' : ''}`;
    console.log(
      `${name.padEnd(34)} p50 ${r.latency.p50Ms.toFixed(3).padStart(8)} ms  p95 ${r.latency.p95Ms.toFixed(3).padStart(8)} ms  ` +
        `mean ${r.latency.meanMs.toFixed(3).padStart(8)} ms  accuracy ${acc}${routes}`,
    );
  }
  await writeEvalResults(out, results);
  console.log(`stored in ${out}`);
} finally {
  await server.close();
  await rm(tmp, { recursive: true, force: true });
}
