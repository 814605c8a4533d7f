/**
 * `adaptmr run <experiment> --estimate [--json]`: what the run will cost before any paid call, per method and stage —
 * calls, input and output tokens, the calls the LLM cache on disk already answers, and dollars at the list and the
 * Batch API prices of the experiment's price table. No request is sent (no-network.ts blocks every connection).
 *
 * How: the experiment runs as it would — the same datasets, sample, methods, retrieval and prompts — into a
 * throw-away results file, with LLM clients that build each request but do not send it (src/llm/dry-run.ts). Input
 * tokens are those of the real prompts, counted with the o200k_base tokenizer (OpenAI's count for gpt-4o-class
 * models). Output tokens: a reply already cached is counted as stored; for the others a first pass takes each
 * request's own limit (a maximum) and, when the cache holds at least 3 replies of the same model and stage (a
 * pilot run of a few questions per type pays for these: `sample: { perType: 2 }`), a second pass uses their mean —
 * the probe that makes the estimate a forecast rather than a bound. Which figure was used is shown per stage.
 * Not estimated: provider-side prompt caching (priced as uncached input: an overestimate), and calls of methods the
 * dry run cannot reach (listed).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Table from 'cli-table3';
import { InputError } from '../../core/errors.ts';
import type { LlmRole } from '../../core/llm.ts';
import { DryLlmProvider, type DryTally } from '../../llm/dry-run.ts';
import { createLlmProvider, type AdaptmrLlmProvider } from '../../llm/provider.ts';
import { openResultStore } from '../../store/index.ts';
import type { LoadedExperiment } from '../config/load-config.ts';
import {
  DEFAULT_ESTIMATE_PER_TYPE,
  type EstimateSample,
  planEstimateSample,
  scaleTallies,
  totalStdErr,
} from './estimate-sample.ts';
import { blockNetwork } from './no-network.ts';
import { runExperiment } from '../runner.ts';

/** One method and stage of the estimate (`--json` prints one per line). */
export interface EstimateRow {
  method: string;
  stage: string;
  role: LlmRole;
  model: string;
  calls: number;
  /** Calls the LLM cache on disk (or an identical earlier call of the run) answers: not paid. */
  expectedCacheHits: number;
  /** Tokens of every call, as the run will record them. */
  inputTokens: number;
  outputTokens: number;
  /** Tokens of the calls that will be paid. */
  paidInputTokens: number;
  paidOutputTokens: number;
  /** The paid calls at the list price, and at the Batch API price. */
  usdList: number;
  usdBatch: number;
  /** Whether the experiment sends this stage through the Batch API (llm.batch.roles), and the cost it will pay. */
  batched: boolean;
  usd: number;
  /** False when `llm.prices` has no entry for the model: its dollars are unknown, not 0 (printed "unknown"). */
  priced: boolean;
  /**
   * Where the output figure of paid calls came from: `limit` (the request's max tokens), `schema` (the largest reply its
   * JSON schema allows) — maxima —, `default` (1,024 assumed for a request with neither), or `cache-mean`.
   */
  outputFrom: string;
  /**
   * True when every question was computed; false when the figures are scaled from the questions the estimate
   * computed (estimate-sample.ts), with `relStdErr` the relative standard error of the paid input tokens.
   */
  exact: boolean;
  relStdErr: number;
  /** The same figures per dataset of the experiment. */
  byDataset: Record<
    string,
    {
      calls: number;
      expectedCacheHits: number;
      inputTokens: number;
      outputTokens: number;
      usdList: number;
      usdBatch: number;
    }
  >;
}

export interface Estimate {
  experiment: string;
  questions: number;
  rows: EstimateRow[];
  /** (question, method) results the dry run could not compute (their later stages are not in the rows). */
  failures: { method: string; error: string; n: number }[];
  passes: number;
  /**
   * When the figures are scaled from a sample: how many questions were computed, per type, and the standard error of
   * the total list-price dollars.
   */
  sample?: { drawn: number; perType: number; usdListStdErr: number };
}

export interface EstimateOptions {
  dataDir?: string | undefined;
  concurrency?: number | undefined;
  progress?: boolean;
  log?: (line: string) => void;
  /**
   * Questions computed per AdaptMR type and dataset when the selection is larger (estimate-sample.ts); 0 computes
   * every question. Default DEFAULT_ESTIMATE_PER_TYPE.
   */
  perType?: number | undefined;
}

/** Mean output tokens of a stage's cached replies count as a calibration from this many replies on. */
const MIN_CALIBRATION_REPLIES = 3;

export async function estimateExperiment(exp: LoadedExperiment, opts: EstimateOptions = {}): Promise<Estimate> {
  const llmConfig = exp.config.llm;
  if (!llmConfig)
    throw new InputError('the experiment configures no LLM (llm:), so its run costs nothing to estimate', exp.path);
  const real = dryRunProvider(llmConfig);
  const batchRoles = new Set(llmConfig.batch?.roles ?? []);
  const dir = mkdtempSync(join(tmpdir(), 'adaptmr-estimate-'));
  const unblock = blockNetwork();
  try {
    const runOnce = async (
      target: LoadedExperiment,
      pass: number,
      outputTokens?: ReadonlyMap<string, number>,
    ): Promise<DryRun> => {
      const dry = new DryLlmProvider(real, outputTokens ? { outputTokens } : {});
      const out = join(dir, `pass${pass}.duckdb`);
      const summary = await runExperiment(target, {
        out,
        dataDir: opts.dataDir,
        concurrency: opts.concurrency,
        workers: 0,
        progress: opts.progress ?? false,
        retryErrors: false,
        llm: dry,
        log: opts.log ?? (() => {}),
      });
      return { dry, out, summary };
    };
    const perType = opts.perType ?? DEFAULT_ESTIMATE_PER_TYPE;
    const sample = await planEstimateSample(exp, perType, opts.dataDir, opts.log ?? (() => {}));
    const target = sample?.experiment ?? exp;
    let result = await runOnce(target, 1);
    let passes = 1;
    const calibration = calibrationOf(result.dry);
    if (calibration) {
      result = await runOnce(target, 2, calibration);
      passes = 2;
    }
    const failures = await dryRunFailures(result.out);
    const tallies = sample
      ? scaleTallies(result.dry.tallies.values(), result.dry.perQuestion, sample)
      : [...result.dry.tallies.values()].map((tally) => ({ tally, relStdErr: 0 }));
    return {
      experiment: exp.config.name,
      questions: sample?.questions ?? result.summary.questions,
      rows: estimateRows(tallies, real, batchRoles, sample === undefined).map((r) => ({
        ...r,
        priced: r.model in llmConfig.prices,
      })),
      failures,
      passes,
      ...(sample
        ? { sample: { drawn: sample.drawn, perType, usdListStdErr: usdStdErr(result.dry, real, sample) } }
        : {}),
    };
  } finally {
    unblock();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The sampled total's standard error in list dollars (estimate-sample.ts `totalStdErr`). */
function usdStdErr(dry: DryLlmProvider, real: AdaptmrLlmProvider, sample: EstimateSample): number {
  const roles = new Map<string, LlmRole>();
  for (const t of dry.tallies.values()) roles.set(`${t.method}\t${t.stage}`, t.role);
  return totalStdErr(dry.perQuestion, sample, (methodStage, q) => {
    const role = roles.get(methodStage);
    return role
      ? real.client(role).costOf({ promptTokens: q.paidInputTokens, completionTokens: q.paidOutputTokens })
      : 0;
  });
}

interface DryRun {
  dry: DryLlmProvider;
  out: string;
  summary: Awaited<ReturnType<typeof runExperiment>>;
}

/** The experiment's provider as the estimate uses it: reading the cache, never writing it, keys not needed. */
function dryRunProvider(llmConfig: NonNullable<LoadedExperiment['config']['llm']>): AdaptmrLlmProvider {
  // The estimate reads the cache and never writes it; batches and budgets are the real run's business.
  const { batch: _batch, budgetUsd: _budget, ...rest } = llmConfig;
  const dryConfig = {
    ...rest,
    cache: { ...rest.cache, mode: rest.cache.mode === 'off' ? ('off' as const) : ('read-only' as const) },
  };
  // Keys are not needed to build requests; a role naming an unset variable gets a placeholder.
  const env: Record<string, string | undefined> = { ...process.env };
  for (const rc of Object.values(dryConfig.roles))
    if (rc?.apiKeyEnv && !env[rc.apiKeyEnv]) env[rc.apiKeyEnv] = 'estimate-no-key';
  return createLlmProvider(dryConfig, env);
}

/**
 * Mean output tokens per model and stage from the cached replies (from MIN_CALIBRATION_REPLIES on), when a paid
 * stage has one: the second pass's output figures. Undefined when no paid stage can be calibrated.
 */
function calibrationOf(dry: DryLlmProvider): Map<string, number> | undefined {
  const calibration = new Map<string, number>();
  for (const [key, values] of dry.observed) {
    if (values.length >= MIN_CALIBRATION_REPLIES)
      calibration.set(key, values.reduce((a, b) => a + b, 0) / values.length);
  }
  const calibrates = [...dry.tallies.values()].some(
    (t) => t.paidOutputTokens > 0 && calibration.has(`${t.model}\t${t.stage}`),
  );
  return calibrates ? calibration : undefined;
}

/** The (question, method) results the dry run could not compute, by method and error. */
async function dryRunFailures(out: string): Promise<Estimate['failures']> {
  const store = await openResultStore(out, { readOnly: true });
  try {
    return await store.query<{ method: string; error: string; n: number }>(
      `SELECT method, error, count(*)::INTEGER AS n FROM (
         SELECT method, error FROM retrievals WHERE error IS NOT NULL UNION ALL SELECT method, error FROM answers WHERE error IS NOT NULL)
       GROUP BY ALL ORDER BY n DESC, method`,
    );
  } finally {
    await store.close();
  }
}

/** The dry run's tallies as one row per method, stage and model, priced with each role's client. */
/** A method and stage's row before its tallies are added. */
function emptyRow(t: DryTally, batchRoles: ReadonlySet<LlmRole>, exact: boolean): EstimateRow {
  return {
    method: t.method,
    stage: t.stage,
    role: t.role,
    model: t.model,
    calls: 0,
    expectedCacheHits: 0,
    inputTokens: 0,
    outputTokens: 0,
    paidInputTokens: 0,
    paidOutputTokens: 0,
    usdList: 0,
    usdBatch: 0,
    batched: batchRoles.has(t.role) && !t.stage.startsWith('index:') && t.stage !== 'memorise',
    usd: 0,
    priced: true,
    outputFrom: '',
    exact,
    relStdErr: 0,
    byDataset: {},
  };
}

function estimateRows(
  tallies: readonly { tally: DryTally; relStdErr: number }[],
  real: AdaptmrLlmProvider,
  batchRoles: ReadonlySet<LlmRole>,
  exact: boolean,
): EstimateRow[] {
  const byMethodStage = new Map<string, EstimateRow>();
  const stdErr = new Map<string, number>();
  for (const { tally: t, relStdErr } of tallies) {
    const id = `${t.method}\t${t.stage}\t${t.model}`;
    const row = byMethodStage.get(id) ?? emptyRow(t, batchRoles, exact);
    // Standard errors of the datasets' estimates add in quadrature (independent samples).
    stdErr.set(id, Math.hypot(stdErr.get(id) ?? 0, relStdErr * t.paidInputTokens));
    const client = real.client(t.role);
    const d = (row.byDataset[t.dataset] ??= {
      calls: 0,
      expectedCacheHits: 0,
      inputTokens: 0,
      outputTokens: 0,
      usdList: 0,
      usdBatch: 0,
    });
    d.calls += t.calls;
    d.expectedCacheHits += t.hits;
    d.inputTokens += t.inputTokens;
    d.outputTokens += t.outputTokens;
    d.usdList += client.costOf({ promptTokens: t.paidInputTokens, completionTokens: t.paidOutputTokens });
    d.usdBatch += client.costOf({ promptTokens: t.paidInputTokens, completionTokens: t.paidOutputTokens, batch: true });
    row.calls += t.calls;
    row.expectedCacheHits += t.hits;
    row.inputTokens += t.inputTokens;
    row.outputTokens += t.outputTokens;
    row.paidInputTokens += t.paidInputTokens;
    row.paidOutputTokens += t.paidOutputTokens;
    row.outputFrom =
      [...new Set([...row.outputFrom.split(',').filter(Boolean), ...t.outputFrom])].sort().join(',') || 'cache';
    byMethodStage.set(id, row);
  }
  const rows = [...byMethodStage.values()].sort((a, b) =>
    a.method === b.method ? (a.stage < b.stage ? -1 : 1) : a.method < b.method ? -1 : 1,
  );
  for (const r of rows) {
    const client = real.client(r.role);
    r.usdList = client.costOf({ promptTokens: r.paidInputTokens, completionTokens: r.paidOutputTokens });
    r.usdBatch = client.costOf({ promptTokens: r.paidInputTokens, completionTokens: r.paidOutputTokens, batch: true });
    r.usd = r.batched ? r.usdBatch : r.usdList;
    const se = stdErr.get(`${r.method}\t${r.stage}\t${r.model}`) ?? 0;
    r.relStdErr = r.paidInputTokens > 0 ? se / r.paidInputTokens : 0;
  }
  return rows;
}

const usd = (x: number): string => `$${x.toFixed(x < 1 ? 4 : 2)}`;
/** A row's dollars, or "unknown" when its model has no price (unpriced.ts). */
const rowUsd = (r: EstimateRow, x: number): string => (r.priced ? usd(x) : 'unknown');

/** The total line's dollars: "unknown" while a model with paid calls has no price, naming the models. */
function totalUsd(rows: readonly EstimateRow[], f: (r: EstimateRow) => number): string {
  const unpriced = [...new Set(rows.filter((r) => !r.priced && r.calls > r.expectedCacheHits).map((r) => r.model))];
  const priced = rows.filter((r) => r.priced).reduce((s, r) => s + f(r), 0);
  return unpriced.length === 0 ? usd(priced) : `unknown (${usd(priced)} + ${unpriced.join(', ')} unpriced)`;
}

/** The estimate table's columns. */
const ESTIMATE_HEAD = [
  'method',
  'stage',
  'model',
  'calls',
  'cache hits',
  'input tok',
  'output tok',
  'list $',
  'batch $',
  'run $',
  'output from',
  'figures',
] as const;

/** The line naming the models without a price (empty when every model has one). */
function unpricedNote(rows: readonly EstimateRow[]): string[] {
  const unpriced = [...new Set(rows.filter((r) => !r.priced).map((r) => r.model))];
  if (unpriced.length === 0) return [];
  return [
    `unknown cost: no price for ${unpriced.map((m) => `"${m}"`).join(', ')} in llm.prices; add one (inputPerMTok, outputPerMTok), ` +
      'or, for a free local model, note that a run with llm.budgetUsd needs --allow-unpriced',
  ];
}

/** The line saying how many questions a sampled estimate computed, and its total's error (none when exact). */
function sampleNote(e: Estimate): string[] {
  if (!e.sample) return [];
  const total = e.rows.reduce((s, r) => s + r.usdList, 0);
  const share = (100 * e.sample.usdListStdErr) / Math.max(1e-12, total);
  return [
    `sampled: ${e.sample.drawn} of the ${e.questions} questions were computed (${e.sample.perType} per AdaptMR type and dataset on average, in proportion to the types' sizes: ` +
      'their real retrievals, prompts and repeated requests); each row is scaled to all questions by type and haystack size, ' +
      `± its standard error (paid input tokens); the total at list prices ± ${usd(e.sample.usdListStdErr)} ` +
      `(${share.toFixed(1)}%). ` +
      '--estimate-sample 0 computes every question (exact, slow).',
  ];
}

/** The estimate as the terminal shows it: one row per method and stage, totals, and what the figures assume. */
export function formatEstimate(e: Estimate): string {
  const table = new Table({ head: [...ESTIMATE_HEAD], style: { head: [], border: [], compact: true } });
  for (const r of e.rows) {
    table.push([
      r.method,
      r.stage,
      r.model,
      r.calls,
      r.expectedCacheHits,
      r.inputTokens,
      r.outputTokens,
      rowUsd(r, r.usdList),
      rowUsd(r, r.usdBatch),
      `${rowUsd(r, r.usd)}${r.batched ? ' (batch)' : ''}`,
      r.outputFrom,
      r.exact ? 'exact' : `scaled ±${(100 * r.relStdErr).toFixed(1)}%`,
    ]);
  }
  const sum = (f: (r: EstimateRow) => number) => e.rows.reduce((s, r) => s + f(r), 0);
  const lines = [
    `Cost estimate for ${e.experiment}: ${e.questions} questions; no request was sent`,
    table.toString(),
    `total: ${totalUsd(e.rows, (r) => r.usdList)} at list prices, ${totalUsd(e.rows, (r) => r.usdBatch)} with every stage batched, ` +
      `${totalUsd(e.rows, (r) => r.usd)} as configured (llm.batch); ${sum((r) => r.inputTokens + r.outputTokens).toLocaleString('en-US')} tokens, ` +
      `${sum((r) => r.expectedCacheHits)} of ${sum((r) => r.calls)} calls answered by the cache`,
    'input tokens: the real prompts, o200k_base; provider-side prompt caching not counted (an overestimate). output tokens: ' +
      'maxima: "limit" = the request\'s max tokens, "schema" = the largest reply its JSON schema allows; "default" = 1,024 ' +
      'assumed (no limit); "cache-mean" = the mean of that stage\'s cached replies (a pilot run calibrates).',
  ];
  const datasets = new Map<string, { list: number; batch: number; tokens: number }>();
  for (const r of e.rows) {
    for (const [name, d] of Object.entries(r.byDataset)) {
      const t = datasets.get(name) ?? { list: 0, batch: 0, tokens: 0 };
      t.list += d.usdList;
      t.batch += d.usdBatch;
      t.tokens += d.inputTokens + d.outputTokens;
      datasets.set(name, t);
    }
  }
  if (datasets.size > 1) {
    lines.push(
      `per dataset: ${[...datasets].map(([name, t]) => `${name} ${usd(t.list)} list / ${usd(t.batch)} batch (${t.tokens.toLocaleString('en-US')} tokens)`).join('; ')}`,
    );
  }
  lines.push(...sampleNote(e));
  lines.push(...unpricedNote(e.rows));
  for (const f of e.failures)
    lines.push(`not estimated: ${f.n} result(s) of ${f.method} failed in the dry run: ${f.error}`);
  return lines.join('\n');
}
