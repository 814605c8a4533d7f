/**
 * Why the cross-benchmark query-type classifier misses its targets: prints, for the combined training set,
 * (1) each benchmark's type mix, (2) the ceiling that text-unreadable abstention puts on each benchmark, (3) label
 * conflicts between benchmarks' type maps — the same rules cue or leading phrase whose questions one benchmark's map
 * calls one type and another's another — and (4) per-type confusion of a recipe under leave-one-benchmark-out and
 * LongMemEval S 5-fold, with the in-benchmark training questions weighted ×1…×α against the other benchmarks'.
 *
 *   npx tsx scripts/classifier-diagnose.ts [--data-dir ../shared/datasets] [--part mix,conflicts,confusion,weight,inbench] [--alphas 3,10,30]
 */
import { parseArgs } from 'node:util';
import { normaliseText, specCues, wordTokens } from '../src/classify/onnx/features.ts';
import { ADAPT_TYPES } from '../src/core/types.ts';
import { installBenchmarks } from '../src/run/benchmark-registry.ts';
import { kfoldWithPool, leaveOneBenchmarkOut, type Split } from '../src/tools/classifier/eval/lobo-splits.ts';
import { balanceWeights } from '../src/tools/classifier/train/balance.ts';
import { combinedTrainingSet, type BenchmarkQuestion } from '../src/tools/classifier/train/combined.ts';
import { defaultModelSources } from '../src/tools/classifier/train/default-model.ts';
import { rulesPrior } from '../src/tools/classifier/train/prior.ts';
import { argmaxOf, DEFAULT_RECIPE, predictQuestions, type Recipe } from '../src/tools/classifier/train/recipe.ts';
import { FEATURE_SETS, RowCache, SELECT_TRAIN } from '../src/tools/classifier/train/select.ts';
import { trainLinearRows } from '../src/tools/classifier/train/train.ts';

await installBenchmarks();
// The default model's sources: every installed benchmark's own questions and the written sets.
const SOURCES = defaultModelSources();
const pct = (x: number) => `${(100 * x).toFixed(1)}`;
const T = ADAPT_TYPES;

function tally<K>(items: readonly K[]): Map<K, number> {
  const m = new Map<K, number>();
  for (const i of items) m.set(i, (m.get(i) ?? 0) + 1);
  return m;
}

function mix(qs: readonly BenchmarkQuestion[]): void {
  console.log('\n## type mix per benchmark (n; % of factual temporal update multi-hop abstention)');
  for (const b of new Set(qs.map((q) => q.benchmark))) {
    const own = qs.filter((q) => q.benchmark === b);
    const c = tally(own.map((q) => q.gold));
    const abs = own.filter((q) => q.gold === 'abstention');
    const readable = abs.filter((q) =>
      /did i (ever )?(mention|tell|say)|do you know|我(有没有|提过|说过)|你知道/iu.test(q.query.text),
    );
    console.log(
      `${b}\t${own.length}\t${T.map((t) => pct((c.get(t) ?? 0) / own.length)).join('\t')}\tabstention w/o cue: ${abs.length - readable.length} → ceiling if those are unreadable ${pct(1 - (abs.length - readable.length) / own.length)}%`,
    );
  }
}

/** A phrase's label per benchmark (majority type, share) where it has ≥ min questions; conflicts = differing majorities. */
function conflicts(
  qs: readonly BenchmarkQuestion[],
  keyOf: (q: BenchmarkQuestion) => string[],
  what: string,
  min = 10,
): void {
  const by = new Map<string, Map<string, BenchmarkQuestion[]>>();
  for (const q of qs)
    for (const k of keyOf(q)) {
      const m = by.get(k) ?? new Map<string, BenchmarkQuestion[]>();
      m.set(q.benchmark, [...(m.get(q.benchmark) ?? []), q]);
      by.set(k, m);
    }
  const rows: { k: string; cells: string; affected: number }[] = [];
  for (const [k, m] of by) {
    const major = [...m]
      .filter(([, list]) => list.length >= min)
      .map(([b, list]) => {
        const [type, n] = [...tally(list.map((q) => q.gold))].sort((a, c) => c[1] - a[1])[0]!;
        return { b, type, share: n / list.length, n: list.length };
      });
    if (new Set(major.map((x) => x.type)).size < 2) continue;
    const top = tally(major.map((x) => x.type));
    const winner = [...top].sort((a, c) => c[1] - a[1])[0]![0];
    const affected = major.filter((x) => x.type !== winner).reduce((a, x) => a + Math.round(x.n * x.share), 0);
    rows.push({ k, cells: major.map((x) => `${x.b} ${x.type} ${pct(x.share)}% of ${x.n}`).join('; '), affected });
  }
  rows.sort((a, c) => c.affected - a.affected);
  const phrases = by.size;
  console.log(
    `\n## ${what}: ${rows.length} of ${phrases} conflict (≥ ${min} questions in each of two benchmarks, majority types differ)`,
  );
  for (const r of rows.slice(0, 15)) console.log(`${r.k}\t${r.cells}`);
}

const cueSpec = FEATURE_SETS['ngrams+cues']!;
const cueNames = specCues(cueSpec);
function cuesOf(cache: RowCache) {
  return (q: BenchmarkQuestion) => {
    const r = cache.row(q, cueSpec);
    const out: string[] = [];
    for (const i of r.indices) if (i >= cueSpec.dim) out.push(cueNames[i - cueSpec.dim]!);
    return out;
  };
}
function leadOf(q: BenchmarkQuestion): string[] {
  const toks = wordTokens(normaliseText(q.query.text));
  if (q.language === 'zh')
    return [
      `…${toks
        .filter((t) => /\p{Script=Han}/u.test(t))
        .slice(-3)
        .join('')}`,
    ];
  return [toks.slice(0, 2).join(' ')];
}

/** Trains `recipe` (linear) with in-benchmark rows of the test benchmark weighted ×alpha after balancing. */
function fitWeighted(s: Split, recipe: Recipe, alpha: number, cache: RowCache) {
  const spec = FEATURE_SETS[recipe.features]!;
  const w = balanceWeights(s.train, recipe.balance, recipe.power ?? 1);
  const bench = s.test[0]!.benchmark;
  const ww = s.train.map((q, i) => (q.benchmark === bench ? alpha : 1) * w[i]!);
  const prior = recipe.prior === 'rules' ? rulesPrior(spec) : undefined;
  return trainLinearRows(
    s.train.map((q) => cache.row(q, spec)),
    s.train.map((q) => q.gold),
    { ...SELECT_TRAIN, spec, l2: recipe.l2, seed: 42 },
    ww,
    prior,
  );
}

function confusion(splits: Split[], recipe: Recipe, alpha: number, cache: RowCache, label: string): void {
  const m = T.map(() => T.map(() => 0));
  let right = 0;
  let n = 0;
  let absErr = 0;
  const per: string[] = [];
  for (const s of splits) {
    const model = fitWeighted(s, recipe, alpha, cache);
    const probs = predictQuestions(model, s.test, cache);
    let r = 0;
    s.test.forEach((q, i) => {
      const p = argmaxOf(probs[i]!);
      m[T.indexOf(q.gold)]![T.indexOf(p as never)]! += 1;
      if (p === q.gold) r += 1;
      else if (q.gold === 'abstention') absErr += 1;
    });
    right += r;
    n += s.test.length;
    per.push(`${s.name} ${pct(r / s.test.length)}`);
  }
  console.log(
    `\n### ${label}: accuracy ${pct(right / n)}% (${per.join(', ')}); abstention ${pct(absErr / (n - right))}% of errors`,
  );
  console.log(`gold\\pred\t${T.join('\t')}\trecall`);
  m.forEach((row, k) => {
    const tot = row.reduce((a, b) => a + b, 0);
    if (tot) console.log(`${T[k]}\t${row.join('\t')}\t${pct(row[k]! / tot)}`);
  });
}

const { values } = parseArgs({
  options: { 'data-dir': { type: 'string' }, part: { type: 'string' }, alphas: { type: 'string' } },
});
const parts = new Set((values.part ?? 'mix,conflicts,confusion,weight').split(','));
const set = await combinedTrainingSet(SOURCES, values['data-dir']);
const qs = set.questions;
const cache = new RowCache();
if (parts.has('mix')) mix(qs);
if (parts.has('conflicts')) {
  conflicts(qs, cuesOf(cache), 'rules cues');
  conflicts(qs, leadOf, 'leading two words (en) / last three Han characters (zh)');
}
const s = (await combinedTrainingSet(['longmemeval-s'], values['data-dir'])).questions;
const folds = kfoldWithPool(s, qs, 5, 42);
const local = folds.map((f) => ({ ...f, train: f.train.filter((q) => q.benchmark === 'longmemeval') }));
const free: Recipe = { features: 'ngrams+cues', l2: 1e-3, balance: 'benchmark+class' };
if (parts.has('confusion')) {
  confusion(leaveOneBenchmarkOut(qs), DEFAULT_RECIPE, 1, cache, 'LOBO, shipped recipe');
  confusion(folds, DEFAULT_RECIPE, 1, cache, 'S 5-fold, shipped recipe, pooled');
  confusion(local, DEFAULT_RECIPE, 1, cache, 'S 5-fold, shipped recipe, LongMemEval folds only');
  confusion(local, free, 1, cache, 'S 5-fold, no prior L2 1e-3, LongMemEval folds only');
}
if (parts.has('inbench')) {
  // Each benchmark 5-fold on its own questions only: what its text supports once its label convention is known.
  const own: Recipe = { features: 'ngrams+cues', l2: 1e-3, balance: 'none' };
  for (const b of new Set(qs.map((q) => q.benchmark))) {
    const mine = qs.filter((q) => q.benchmark === b);
    confusion(kfoldWithPool(mine, [], 5, 42), own, 1, cache, `${b} 5-fold on its own questions only`);
  }
}
if (parts.has('weight'))
  for (const alpha of (values.alphas ?? '3,10,30').split(',').map(Number)) {
    confusion(folds, DEFAULT_RECIPE, alpha, cache, `S 5-fold, shipped recipe, in-benchmark ×${alpha}`);
    confusion(folds, free, alpha, cache, `S 5-fold, no prior L2 1e-3, in-benchmark ×${alpha}`);
  }
