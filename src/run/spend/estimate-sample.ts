/**
 * The cost estimate of a large experiment in seconds (`adaptmr run --estimate`, estimate.ts): instead of rendering
 * every real prompt of every question (the full LLM experiment 3, 1,739 questions × 10 methods, took ~28 minutes),
 * the dry run computes a stratified sample of the questions exactly — their real retrievals, prompts, cache hits and
 * identical-request repeats — and each (dataset, method, stage)'s figures are scaled to the whole selection.
 *
 * Why a sample and not a shortcut per method: a question's cost is fixed by what its methods retrieve (a reader's
 * context is its retrieved units; two AdaptMR variants that retrieve alike send one request, paid once), and that is
 * only known by retrieving, which on LongMemEval S means building a fresh index per question (~0.4 s of the ~1 s a
 * question cost). The sample keeps every figure the real pipeline's; only the count of questions is extrapolated.
 *
 * How: the experiment's selection (after `questionIds` / `sample` / `limit` and the questions a method was fitted on)
 * is stratified by AdaptMR type per dataset, `perType` questions per stratum on average drawn in proportion to the
 * strata's sizes (seeded, src/data/sample.ts), and
 * every question's haystack size (characters of its turns) read as the auxiliary variable. Per (dataset, method,
 * stage) and stratum the total is the separate ratio estimate X_h · Σy/Σx (cost that grows with the haystack: a
 * full-context prompt) or the expansion estimate N_h · ȳ (cost that does not: a judge prompt), whichever has the
 * smaller estimated variance on the sample; its standard error (Cochran, Sampling Techniques, 3rd ed., §6.4 and
 * §5.3, finite-population corrected) is reported with the row, so the estimate says how far it may be.
 */
import { InputError } from '../../core/errors.ts';
import type { ExperimentConfig } from '../../core/config.ts';
import { readCatalog, readInstances, type CatalogEntry } from '../../data/index.ts';
import { stratum } from '../../data/catalog.ts';
import { shuffledByType } from '../../data/sample.ts';
import type { DryQuestionTally, DryTally } from '../../llm/dry-run.ts';
import { createMethods } from '../methods/create-methods.ts';
import type { LoadedExperiment } from '../config/load-config.ts';
import { planSessionDatasets } from '../session/datasets.ts';

/** One selected question of the population: its stratum and haystack size. */
interface Member {
  stratum: string;
  size: number;
}

/** The whole selection of one dataset and the questions drawn from it. */
interface DatasetSample {
  dataset: string;
  members: Map<string, Member>;
  drawn: string[];
}

export interface EstimateSample {
  /** The experiment restricted to the drawn questions (`questionIds` per dataset). */
  experiment: LoadedExperiment;
  datasets: DatasetSample[];
  questions: number;
  drawn: number;
}

/** Questions drawn per stratum by default (`--estimate-sample`). */
export const DEFAULT_ESTIMATE_PER_TYPE = 8;

/**
 * The population and its sample, or undefined when the sample would be more than a quarter of the selection (the
 * estimate is then exact: a small experiment, as the committed samples, is computed whole). `perType` 0 asks for the
 * exact estimate.
 */
export async function planEstimateSample(
  exp: LoadedExperiment,
  perType: number,
  dataDir: string | undefined,
  log: (line: string) => void,
): Promise<EstimateSample | undefined> {
  if (perType === 0) return undefined;
  // One question of a stratum gives no estimate of its variance: the error would go unreported.
  if (perType < 2)
    throw new InputError(
      `--estimate-sample ${perType}: a stratum needs 2 questions to estimate its error; give 0 (every question) or 2 or more`,
      exp.path,
    );
  const methods = await createMethods(exp.config, exp.path, exp.configHash);
  const planned = await planSessionDatasets(exp, methods, dataDir, () => {});
  const catalogs = await Promise.all(
    planned.map(async ({ plan }) => (await readCatalog(plan.source)).filter((c) => plan.selected.has(c.questionId))),
  );
  const share = allocation(catalogs, perType);
  const datasets: DatasetSample[] = planned.map(({ plan }, i) => {
    const members = new Map(catalogs[i]!.map((c) => [c.questionId, { stratum: stratum(c), size: 0 }]));
    return { dataset: plan.source.name, members, drawn: drawSample(catalogs[i]!, share, exp.config.seed) };
  });
  const questions = datasets.reduce((s, d) => s + d.members.size, 0);
  const drawn = datasets.reduce((s, d) => s + d.drawn.length, 0);
  // A sample that saves less than 4× the work is not worth its sampling error: every question is computed.
  if (drawn * 4 > questions) return undefined;
  for (const [i, { plan }] of planned.entries()) {
    const members = datasets[i]!.members;
    const stream = readInstances(plan.source, {
      keep: (c) => members.has(c.questionId),
      ...(plan.files ? { files: plan.files } : {}),
    });
    for await (const instance of stream) {
      const m = members.get(instance.query.id);
      if (m) m.size = haystackSize(instance.haystack);
    }
  }
  log(`estimate: ${drawn} of ${questions} questions computed (${perType} per type on average), the rest scaled`);
  return { experiment: sampleExperiment(exp, datasets), datasets, questions, drawn };
}

function haystackSize(haystack: readonly { turns: readonly { text: string }[] }[]): number {
  let n = 0;
  for (const s of haystack) for (const t of s.turns) n += t.text.length;
  return n;
}

/**
 * Questions drawn per stratum: `perType` on average over every stratum of every dataset, shared in proportion to the
 * strata's sizes (proportional allocation, Cochran §5.3: LoCoMo's 1,239 questions in 3 types get more than
 * LongMemEval S's 490 in 6), at least 2 a stratum (its variance) and at most all of it.
 */
function allocation(catalogs: readonly (readonly CatalogEntry[])[], perType: number): (stratumSize: number) => number {
  const strata = catalogs.reduce((s, c) => s + new Set(c.map(stratum)).size, 0);
  const questions = catalogs.reduce((s, c) => s + c.length, 0);
  return (size) => Math.min(size, Math.max(2, Math.round((perType * strata * size) / questions)));
}

/** Each stratum's share of questions, seeded (the same draw for the same selection and seed). */
function drawSample(catalog: readonly CatalogEntry[], share: (stratumSize: number) => number, seed: number): string[] {
  const byType = shuffledByType(catalog, seed, (type) => `estimate:${type}`);
  return [...byType.values()].flatMap((ids) => ids.slice(0, share(ids.length)));
}

/** The experiment with each dataset restricted to its drawn questions. */
function sampleExperiment(exp: LoadedExperiment, datasets: readonly DatasetSample[]): LoadedExperiment {
  if (datasets.length !== exp.config.datasets.length)
    throw new InputError('the estimate could not match the datasets it planned to the experiment', exp.path);
  const config: ExperimentConfig = {
    ...exp.config,
    datasets: exp.config.datasets.map((ref, i) => {
      const { sample: _s, limit: _l, ...rest } = ref as typeof ref & { limit?: number };
      return { ...rest, questionIds: datasets[i]!.drawn } as typeof ref;
    }),
  };
  return { ...exp, config };
}

const FIELDS = ['calls', 'hits', 'inputTokens', 'outputTokens', 'paidInputTokens', 'paidOutputTokens'] as const;
type Field = (typeof FIELDS)[number];

/** A stratum's sample values of one field, and its population size and haystack total. */
interface StratumSample {
  n: number;
  N: number;
  X: number;
  x: number[];
  y: number[][];
}

/**
 * The sample's tallies scaled to the population: one tally per (dataset, method, stage), its figures estimated, and
 * its relative standard error (of the paid input tokens, the figure the dollars follow) in `relStdErr`.
 */
export function scaleTallies(
  sampleTallies: Iterable<DryTally>,
  perQuestion: ReadonlyMap<string, DryQuestionTally>,
  sample: EstimateSample,
): { tally: DryTally; relStdErr: number }[] {
  const out: { tally: DryTally; relStdErr: number }[] = [];
  for (const t of sampleTallies) {
    const d = sample.datasets.find((x) => x.dataset === t.dataset);
    if (!d) throw new InputError(`the estimate's sample has no dataset "${t.dataset}"`, sample.experiment.path);
    const strata = strataOf(d, (id) => perQuestion.get(`${t.dataset}\t${id}\t${t.method}\t${t.stage}`));
    const scaled = { ...t, outputFrom: new Set(t.outputFrom) };
    const errors: number[] = [];
    for (const [f, field] of FIELDS.entries()) {
      // Each figure by the estimator of smaller variance on the sample: calls by the mean, a prompt by its ratio.
      const useRatio = variance(strata, f, true) < variance(strata, f, false);
      scaled[field as Field] = Math.round(estimateTotal(strata, f, useRatio));
      errors.push(Math.sqrt(variance(strata, f, useRatio)));
    }
    const total = scaled.paidInputTokens;
    const paidError = errors[FIELDS.indexOf('paidInputTokens')]!;
    out.push({ tally: scaled, relStdErr: total > 0 ? paidError / total : 0 });
  }
  return out;
}

function strataOf(d: DatasetSample, tallyOf: (id: string) => DryQuestionTally | undefined): StratumSample[] {
  const byStratum = new Map<string, StratumSample>();
  for (const m of d.members.values()) {
    const s = byStratum.get(m.stratum) ?? { n: 0, N: 0, X: 0, x: [], y: [] };
    s.N++;
    s.X += m.size;
    byStratum.set(m.stratum, s);
  }
  for (const id of d.drawn) {
    const m = d.members.get(id)!;
    const s = byStratum.get(m.stratum)!;
    const q = tallyOf(id);
    s.n++;
    s.x.push(m.size);
    s.y.push(FIELDS.map((f) => q?.[f] ?? 0));
  }
  return [...byStratum.values()];
}

const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);

/** A stratum's ratio Σy/Σx (0 when its sample has no haystack text). */
function ratioOf(s: StratumSample, f: number): number {
  const x = sum(s.x);
  return x > 0 ? sum(s.y.map((y) => y[f]!)) / x : 0;
}

function estimateTotal(strata: readonly StratumSample[], f: number, ratio: boolean): number {
  let total = 0;
  for (const s of strata) {
    if (s.n === 0) continue;
    total += ratio ? s.X * ratioOf(s, f) : (s.N * sum(s.y.map((y) => y[f]!))) / s.n;
  }
  return total;
}

/** Estimated variance of the total (finite-population corrected; residuals from the ratio line or the mean). */
function variance(strata: readonly StratumSample[], f: number, ratio: boolean): number {
  let v = 0;
  for (const s of strata) {
    if (s.n < 2) continue;
    const mean = sum(s.y.map((y) => y[f]!)) / s.n;
    const r = ratioOf(s, f);
    const e = s.y.map((y, i) => (ratio ? y[f]! - r * s.x[i]! : y[f]! - mean));
    const s2 = sum(e.map((x) => x * x)) / (s.n - 1);
    v += (s.N * s.N * (1 - s.n / s.N) * s2) / s.n;
  }
  return v;
}

/**
 * Standard error of the estimate's total dollars: per question, the dollars of every method and stage summed
 * (`usdOf` prices a method and stage's paid tokens), scaled as one figure — so the methods that share requests (one
 * pays what another repeats) do not add their opposite errors as if independent.
 */
export function totalStdErr(
  perQuestion: ReadonlyMap<string, DryQuestionTally>,
  sample: EstimateSample,
  usdOf: (methodStage: string, q: DryQuestionTally) => number,
): number {
  let v = 0;
  for (const d of sample.datasets) {
    const usd = new Map<string, number>();
    for (const [key, q] of perQuestion) {
      const [dataset, id, method, stage] = key.split('\t');
      if (dataset === d.dataset) usd.set(id!, (usd.get(id!) ?? 0) + usdOf(`${method}\t${stage}`, q));
    }
    const strata = strataOf(d, (id) => {
      const y = usd.get(id) ?? 0;
      return { calls: y, hits: 0, inputTokens: 0, outputTokens: 0, paidInputTokens: 0, paidOutputTokens: 0 };
    });
    v += Math.min(variance(strata, 0, true), variance(strata, 0, false));
  }
  return Math.sqrt(v);
}
