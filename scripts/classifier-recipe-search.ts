/**
 * Recipe search for the cross-benchmark query-type classifier: every recipe below is scored by
 * leave-one-benchmark-out accuracy (mean and worst benchmark) and, beside it, by LongMemEval S 5-fold accuracy with
 * the other benchmarks in training (src/tools/classifier/eval/lobo-splits.ts). Predictions are computed in
 * TypeScript (the same forward pass the exported ONNX graph runs; onnx.test.ts checks they agree). The choice is by
 * LOBO mean; the output is committed as docs/classifier-recipe-search.md's table.
 *
 *   npx tsx scripts/classifier-recipe-search.ts [--data-dir ../shared/datasets] [--only <index,…>]
 *
 * `--nested <index,…>` instead estimates what choosing among those recipes by LOBO mean is worth on benchmarks the
 * choice never saw (eval/nested.ts): per held-out benchmark, the recipe with the best inner LOBO mean over the other
 * benchmarks, trained on all of them; then LongMemEval S 5-fold with the recipe chosen while LongMemEval was held out.
 */
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { installBenchmarks } from '../src/run/benchmark-registry.ts';
import { combinedTrainingSet, trainingSources } from '../src/tools/classifier/train/combined.ts';
import { nestedLobo } from '../src/tools/classifier/eval/nested.ts';
import { kfoldWithPool, leaveOneBenchmarkOut, type Split } from '../src/tools/classifier/eval/lobo-splits.ts';
import {
  argmaxOf,
  fitRecipe,
  predictQuestions,
  recipeName,
  type Recipe,
} from '../src/tools/classifier/train/recipe.ts';
import { accuracyOf, RowCache } from '../src/tools/classifier/train/select.ts';

await installBenchmarks();
/** Every training source but LongMemEval M (its questions are oracle's and S's; S stays for the S 5-fold column). */
const SOURCES = trainingSources().filter((n) => n !== 'longmemeval-m');

export const RECIPES: Recipe[] = [
  { features: 'ngrams', l2: 3e-3, balance: 'none' },
  { features: 'ngrams+cues', l2: 1e-3, balance: 'none' },
  { features: 'ngrams+cues', l2: 1e-3, balance: 'class' },
  { features: 'ngrams+cues', l2: 1e-3, balance: 'benchmark' },
  { features: 'ngrams+cues', l2: 1e-3, balance: 'benchmark+class' },
  { features: 'ngrams+cues', l2: 1e-3, balance: 'benchmark+class', power: 0.5 },
  { features: 'ngrams+cues', l2: 1e-2, balance: 'benchmark+class' },
  { features: 'ngrams+cues', l2: 1e-4, balance: 'benchmark+class' },
  { features: 'cues+wv', l2: 1e-3, balance: 'benchmark+class' },
  { features: 'ngrams+cues+wv', l2: 1e-3, balance: 'benchmark+class' },
  { features: 'ngrams+cues+wv', l2: 1e-3, balance: 'none' },
  { features: 'cues+wv', l2: 1e-3, balance: 'none', hidden: 32 },
  // The rules as a prior (train/prior.ts): start at the rules' weights, L2 towards them.
  { features: 'ngrams+cues', l2: 1e-3, balance: 'benchmark+class', prior: 'rules' },
  { features: 'ngrams+cues', l2: 1e-2, balance: 'benchmark+class', prior: 'rules' },
  { features: 'ngrams+cues', l2: 3e-2, balance: 'benchmark+class', prior: 'rules' },
  { features: 'ngrams+cues', l2: 1e-1, balance: 'benchmark+class', prior: 'rules' },
  { features: 'ngrams+cues', l2: 1e-2, balance: 'benchmark', prior: 'rules' },
  { features: 'ngrams+cues+wv', l2: 1e-2, balance: 'benchmark+class', prior: 'rules' },
  // Per-benchmark class priors as training logit offsets, uniform prior at test time (prior.ts).
  { features: 'ngrams+cues', l2: 1e-1, balance: 'benchmark', prior: 'rules', priorCorrection: 'benchmark' },
  { features: 'ngrams+cues', l2: 1e-2, balance: 'benchmark', prior: 'rules', priorCorrection: 'benchmark' },
  { features: 'ngrams+cues', l2: 1e-3, balance: 'benchmark', priorCorrection: 'benchmark' },
  // Word vectors with the character n-grams under the strong rules prior; the MLP, now with the balancing weights.
  { features: 'ngrams+cues+wv', l2: 1e-1, balance: 'benchmark+class', prior: 'rules' },
  { features: 'cues+wv', l2: 1e-3, balance: 'benchmark+class', hidden: 32 },
  { features: 'ngrams+cues+wv', l2: 1e-1, balance: 'benchmark', prior: 'rules', priorCorrection: 'benchmark' },
  // A stronger pull to the rules (L2 → ∞ is the rules themselves).
  { features: 'ngrams+cues', l2: 0.3, balance: 'benchmark+class', prior: 'rules' },
  { features: 'ngrams+cues', l2: 1, balance: 'benchmark+class', prior: 'rules' },
];

/**
 * Transductive prior adaptation (Saerens, Latinne & Decaestecker 2002, EM): re-estimates the held-out set's class
 * prior from the model's probabilities on its unlabelled questions, assuming a uniform training prior. Reported
 * beside the plain argmax only as a diagnostic: it reads the whole held-out benchmark (no labels) before answering.
 */
function emAdapt(probs: number[][], iterations = 50): number[][] {
  const K = probs[0]?.length ?? 0;
  let prior = new Array<number>(K).fill(1 / K);
  let post = probs;
  for (let t = 0; t < iterations; t++) {
    post = probs.map((p) => {
      const q = p.map((x, k) => x * prior[k]! * K);
      const z = q.reduce((a, b) => a + b, 0);
      return q.map((x) => x / z);
    });
    prior = Array.from({ length: K }, (_, k) => post.reduce((a, p) => a + p[k]!, 0) / post.length);
  }
  return post;
}

function score(
  splits: Split[],
  recipe: Recipe,
  cache: RowCache,
): { name: string; n: number; acc: number; em: number }[] {
  return splits.map((s) => {
    const model = fitRecipe(s.train, recipe, 42, cache);
    const probs = predictQuestions(model, s.test, cache);
    const right = s.test.filter((q, i) => argmaxOf(probs[i]!) === q.gold).length;
    const adapted = emAdapt(probs);
    const em = s.test.filter((q, i) => argmaxOf(adapted[i]!) === q.gold).length;
    return { name: s.name, n: s.test.length, acc: right / s.test.length, em: em / s.test.length };
  });
}

/** Accuracy over all folds' questions together (folds differ in size by at most one). */
function pooledAccuracy(folds: readonly { n: number; acc: number }[]): number {
  return folds.reduce((a, b) => a + b.acc * b.n, 0) / folds.reduce((a, b) => a + b.n, 0);
}

const { values } = parseArgs({
  options: { 'data-dir': { type: 'string' }, only: { type: 'string' }, nested: { type: 'string' } },
});
const set = await combinedTrainingSet(SOURCES, values['data-dir']);
console.log(
  `training set: ${set.questions.length} questions, sha256 ${set.sha256.slice(0, 12)}; ${JSON.stringify(set.sources)}`,
);
const lobo = leaveOneBenchmarkOut(set.questions);
const s = (await combinedTrainingSet(['longmemeval-s'], values['data-dir'])).questions;
const folds = kfoldWithPool(s, set.questions, 5, 42);
const cache = new RowCache();
if (values.nested) {
  nested(values.nested.split(',').map(Number), folds);
  process.exit(0);
}
const only = values.only?.split(',').map(Number);
for (const [i, r] of RECIPES.entries()) {
  if (only && !only.includes(i)) continue;
  const t0 = performance.now();
  const per = score(lobo, r, cache);
  const mean = per.reduce((a, b) => a + b.acc, 0) / per.length;
  const kf = score(folds, r, cache);
  const kAcc = pooledAccuracy(kf);
  const cells = per.map((p) => `${p.name} ${(100 * p.acc).toFixed(1)}`).join(' | ');
  const em = per.map((p) => `${p.name} ${(100 * p.em).toFixed(1)}`).join(' | ');
  const emMean = per.reduce((a, b) => a + b.em, 0) / per.length;
  console.log(
    `${i}\t${recipeName(r)}\tLOBO mean ${(100 * mean).toFixed(1)} min ${(100 * Math.min(...per.map((p) => p.acc))).toFixed(1)}\t${cells}\tLME-S 5-fold ${(100 * kAcc).toFixed(1)}\t${((performance.now() - t0) / 1000).toFixed(0)} s\tEM-adapted LOBO mean ${(100 * emMean).toFixed(1)}: ${em}`,
  );
}

/** Nested selection among RECIPES[indices]; a model is trained once per (recipe, training benchmarks). */
function nested(indices: number[], sFolds: Split[]): void {
  const candidates = indices.map((i) => {
    const r = RECIPES[i];
    if (!r) throw new Error(`--nested: no recipe #${i} (0–${RECIPES.length - 1})`);
    return r;
  });
  const models = new Map<string, ReturnType<typeof fitRecipe>>();
  const pct = (x: number) => (100 * x).toFixed(1);
  const t0 = performance.now();
  const result = nestedLobo(
    set.questions,
    candidates.length,
    (c, train, test) => {
      const key = `${c}|${[...new Set(train.map((q) => q.benchmark))].sort().join(',')}`;
      if (!models.has(key)) models.set(key, fitRecipe(train, candidates[c]!, 42, cache));
      return accuracyOf(models.get(key)!, test, cache);
    },
    (o) =>
      console.log(
        `held out ${o.benchmark} (n ${o.n}): inner means ${o.innerMeans.map((m, c) => `#${indices[c]} ${pct(m)}`).join(', ')} → #${indices[o.chosen]}: ${pct(o.accuracy)}\t${((performance.now() - t0) / 1000).toFixed(0)} s`,
      ),
  );
  console.log(
    `nested LOBO mean ${pct(result.mean)} worst ${pct(result.worst)} (candidates ${indices.map((i) => `#${i}`).join(', ')})`,
  );
  const forS = result.outer.find((o) => o.benchmark === 'longmemeval');
  if (!forS) return;
  const kf = score(sFolds, candidates[forS.chosen]!, cache);
  const kAcc = pooledAccuracy(kf);
  console.log(`LME-S 5-fold with #${indices[forS.chosen]} (chosen without LongMemEval): ${pct(kAcc)}`);
}
