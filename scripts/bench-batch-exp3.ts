/**
 * Cost figures of plan experiment 3 with an LLM (experiments/exp3-adaptmr-vs-baselines-llm.yaml, real LongMemEval S
 * and LoCoMo data) against the loopback OpenAI stand-in (src/llm/testing/fake-openai-server.ts: Batch API, prompt
 * caching's cached_tokens, usage counted with o200k_base as OpenAI counts it):
 *
 *   1. `--estimate` (nothing sent) — tokens and dollars per method and stage — on an empty cache (output at each
 *      request's limit: a maximum) and after a pilot run of one question per type (output calibrated by the
 *      pilot's cached replies);
 *   2. the run with every call sent singly — recorded tokens and cost;
 *   3. the same run with reader and judge through the Batch API (`--batch reader,judge`) — recorded cost per stage;
 *   4. with `--kill`: that batch run as a child process (`adaptmr run`), SIGKILLed while it polls its first batch, then
 *      resumed — batches and uploads counted, to show nothing was submitted twice.
 *
 * Prints the estimate-vs-recorded token ratio per stage, and batch-vs-single cost per stage.
 *
 *   npx tsx scripts/bench-batch-exp3.ts [--per-type 10] [--kill] [--data-dir …]
 *
 * The classifier models the file names are trained first if missing (npx adaptmr classifier train …). The stand-in's
 * reader names Paris for even-length questions and the judges accept exactly those answers; the LLM classifier gets
 * a JSON type chosen from the question's hash: the figures are about tokens and money, not accuracy.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { parse } from 'yaml';
import { startFakeOpenAiServer } from '../src/llm/testing/fake-openai-server.ts';
import { parisQaChat } from '../src/llm/testing/paris-qa.ts';
import { countChatTokens, countTokens } from '../src/llm/tokens.ts';
import { estimateExperiment } from '../src/run/spend/estimate.ts';
import { loadedFromValue } from '../src/run/config/load-config.ts';
import { REPO_ROOT } from '../src/run/record/provenance.ts';
import { runExperiment } from '../src/run/runner.ts';
import { openResultStore } from '../src/store/index.ts';
import { installBenchmarks } from '../src/run/benchmark-registry.ts';

await installBenchmarks();

const { values } = parseArgs({
  options: {
    'per-type': { type: 'string' },
    kill: { type: 'boolean', default: false },
    'data-dir': { type: 'string' },
  },
});
const FILE = join(REPO_ROOT, 'experiments/exp3-adaptmr-vs-baselines-llm.yaml');
const TYPES = ['factual_extraction', 'temporal_reasoning', 'knowledge_update', 'multi_hop', 'abstention'];

for (const [dataset, out] of [
  ['locomo', 'results/models/classifier-locomo.onnx'],
  ['longmemeval-oracle', 'results/models/classifier-longmemeval.onnx'],
] as const) {
  if (!existsSync(join(REPO_ROOT, out)))
    throw new Error(`train the classifier first: npx adaptmr classifier train --dataset ${dataset} --out ${out}`);
}

const paris = parisQaChat();
const server = await startFakeOpenAiServer({
  promptCache: true,
  countTokens: { prompt: countChatTokens, completion: countTokens },
  chat: (body) => {
    const prompt = body.messages.map((m) => m.content).join('\n');
    if (/query type classifier|查询类型分类器/u.test(prompt)) {
      const h = createHash('sha256').update(prompt).digest()[0]! % TYPES.length;
      return JSON.stringify({
        type: TYPES[h],
        probabilities: Object.fromEntries(TYPES.map((t, i) => [t, i === h ? 0.6 : 0.1])),
      });
    }
    return paris(body);
  },
});
const dir = mkdtempSync(join(tmpdir(), 'adaptmr-exp3-batch-'));

/** The committed file, pointed at the stand-in, with its own cache; `batch` adds the Batch API for reader and judge. */
function config(cache: string, batch: boolean, perType = values['per-type']): Record<string, unknown> {
  // biome-ignore lint/suspicious/noExplicitAny: the experiment YAML, edited by path for the benchmark
  const c = parse(readFileSync(FILE, 'utf8')) as Record<string, any>;
  if (perType) for (const d of c.datasets) d.sample = { perType: Number(perType) };
  for (const role of Object.values(c.llm.roles) as Record<string, unknown>[]) role.baseURL = server.baseURL;
  c.llm.cache = { mode: 'read-write', dir: cache };
  c.llm.maxRetries = 1;
  if (batch) c.llm.batch = { roles: ['reader', 'judge'], pollSeconds: 0.05 };
  return c;
}
const load = (c: Record<string, unknown>) => loadedFromValue(c, FILE);

async function query<T>(file: string, sql: string): Promise<T[]> {
  const store = await openResultStore(file, { readOnly: true });
  try {
    return await store.query<T>(sql);
  } finally {
    await store.close();
  }
}
type StageRow = { stage: string; calls: number; p: number; c: number; cached: number; cost: number };
const byStage = (file: string) =>
  query<StageRow>(
    file,
    `
  SELECT regexp_replace(stage, ':.*', '') AS stage, count(*)::INTEGER AS calls, sum(prompt_tokens)::DOUBLE AS p,
         sum(completion_tokens)::DOUBLE AS c, sum(cached_tokens)::DOUBLE AS cached,
         coalesce(sum(cost_usd) FILTER (WHERE NOT cached), 0) AS cost
  FROM llm_calls WHERE error IS NULL GROUP BY 1 ORDER BY 1`,
  );
const log = (line: string) => process.stderr.write(`${line}\n`);
const t0 = performance.now();
const secs = () => `${((performance.now() - t0) / 1000).toFixed(0)} s`;

// 1. The estimate, before anything is paid (an empty cache), and after a pilot of one question per type.
const estimate = await estimateExperiment(load(config(join(dir, 'cache-sync'), false)), {
  dataDir: values['data-dir'],
});
await runExperiment(load(config(join(dir, 'cache-pilot'), false, '1')), {
  out: join(dir, 'pilot.duckdb'),
  dataDir: values['data-dir'],
  progress: false,
  log: () => {},
});
const calibrated = await estimateExperiment(load(config(join(dir, 'cache-pilot'), false)), {
  dataDir: values['data-dir'],
});
log(`estimates done (${secs()})`);
// 2. Every call sent singly.
const syncFile = join(dir, 'sync.duckdb');
await runExperiment(load(config(join(dir, 'cache-sync'), false)), {
  out: syncFile,
  dataDir: values['data-dir'],
  progress: false,
  log,
});
log(`single-request run done (${secs()})`);
// 3. Reader and judge through the Batch API.
const batchFile = join(dir, 'batch.duckdb');
await runExperiment(load(config(join(dir, 'cache-batch'), true)), {
  out: batchFile,
  dataDir: values['data-dir'],
  progress: false,
  log,
});
log(`batch run done (${secs()})`);

const sync = await byStage(syncFile);
const viaBatch = await byStage(batchFile);
function perStage(rows: typeof estimate.rows): Map<string, { tokens: number; usd: number }> {
  const est = new Map<string, { tokens: number; usd: number }>();
  for (const r of rows) {
    const stage = r.stage.replace(/:.*/u, '');
    const e = est.get(stage) ?? { tokens: 0, usd: 0 };
    e.tokens += r.inputTokens + r.outputTokens;
    e.usd += r.usdList;
    est.set(stage, e);
  }
  return est;
}
const est = perStage(estimate.rows);
const cal = perStage(calibrated.rows);
console.log(
  `exp3 with an LLM, ${estimate.questions} questions (LongMemEval S + LoCoMo), loopback stand-in, prices from the file`,
);
console.log(
  'stage      calls  recorded tokens  estimated tokens  est/rec  calibrated/rec   single-request $  batch $   batch/single  prompt-cached',
);
for (const s of sync) {
  const b = viaBatch.find((r) => r.stage === s.stage);
  const e = est.get(s.stage);
  console.log(
    `${s.stage.padEnd(10)} ${String(s.calls).padStart(5)}  ${String(s.p + s.c).padStart(15)}  ${String(e?.tokens ?? 0).padStart(16)}  ${((e?.tokens ?? 0) / (s.p + s.c)).toFixed(3).padStart(7)}  ${((cal.get(s.stage)?.tokens ?? 0) / (s.p + s.c)).toFixed(3).padStart(14)}` +
      `   ${s.cost.toFixed(4).padStart(15)}  ${(b?.cost ?? 0).toFixed(4).padStart(8)}  ${((b?.cost ?? 0) / (s.cost || 1)).toFixed(3).padStart(12)}  ${((s.cached / (s.p || 1)) * 100).toFixed(1).padStart(12)}%`,
  );
}
const total = (rows: StageRow[]) => rows.reduce((n, r) => n + r.p + r.c, 0);
const sumTokens = (m: Map<string, { tokens: number }>) => [...m.values()].reduce((n, e) => n + e.tokens, 0);
console.log(
  `total tokens: recorded ${total(sync)}, estimated ${sumTokens(est)} (ratio ${(sumTokens(est) / total(sync)).toFixed(3)}), ` +
    `calibrated by the pilot ${sumTokens(cal)} (ratio ${(sumTokens(cal) / total(sync)).toFixed(3)})`,
);
console.log(
  `dollars: estimated at list prices $${estimate.rows.reduce((n, r) => n + r.usdList, 0).toFixed(4)} (calibrated $${calibrated.rows.reduce((n, r) => n + r.usdList, 0).toFixed(4)}, of which the pilot's cache answers part); ` +
    `recorded single-request $${sync.reduce((n, r) => n + r.cost, 0).toFixed(4)}, with reader+judge batched $${viaBatch.reduce((n, r) => n + r.cost, 0).toFixed(4)}`,
);
console.log(
  `answers identical (single vs batch): ${JSON.stringify(await query(syncFile, 'select question_id, method, answer from answers order by all')) === JSON.stringify(await query(batchFile, 'select question_id, method, answer from answers order by all'))}`,
);
console.log(
  `batches: ${server.batches
    .created()
    .map((b) => `${b.model}:${b.request_counts?.total}`)
    .join(', ')}`,
);

// 4. A batch run killed while it polls, then resumed.
if (values.kill) {
  const yaml = join(dir, 'kill.yaml');
  // The file polls every 0.05 s; the --batch flag (as a user would type it) names the roles.
  // biome-ignore lint/suspicious/noExplicitAny: the experiment YAML, edited by path for the benchmark
  const killConfig = config(join(dir, 'cache-kill'), false) as Record<string, any>;
  killConfig.llm.batch = { roles: ['judge'], pollSeconds: 0.05 };
  writeFileSync(yaml, JSON.stringify(killConfig));
  const out = join(dir, 'kill.duckdb');
  const batchesBefore = server.batches.created().length;
  const uploads = () => server.requests.filter((r) => r.method === 'POST' && r.path === '/v1/files').length;
  const polls = () => server.requests.filter((r) => r.method === 'GET' && r.path.startsWith('/v1/batches/')).length;
  server.batches.options.hold = true;
  const pollsBefore = polls();
  const args = [
    join(REPO_ROOT, 'bin/adaptmr.js'),
    'run',
    yaml,
    '--out',
    out,
    '--no-progress',
    '--batch',
    'reader,judge',
    ...(values['data-dir'] ? ['--data-dir', values['data-dir']] : []),
  ];
  await new Promise<void>((resolve) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'inherit'] });
    const timer = setInterval(() => {
      if (polls() - pollsBefore >= 3) child.kill('SIGKILL');
    }, 50);
    child.on('exit', () => {
      clearInterval(timer);
      resolve();
    });
  });
  const killed = server.batches.created().slice(batchesBefore);
  const uploadsAtKill = uploads();
  server.batches.options.hold = false;
  const resumeLog: string[] = [];
  const exp = load(config(join(dir, 'cache-kill'), true));
  await runExperiment(exp, {
    out,
    dataDir: values['data-dir'],
    progress: false,
    log: (l) => {
      resumeLog.push(l);
      log(l);
    },
  });
  const after = server.batches.created().slice(batchesBefore);
  console.log(
    `kill during polling: killed with ${killed.length} batch(es) submitted (${killed.map((b) => `${b.id} ${b.status}`).join(', ')}); ` +
      `after the resume ${after.length} batch(es) in all (${after.map((b) => b.model).join(', ')}), ${uploads() - uploadsAtKill} upload(s) by the resume; ` +
      `resubmitted: ${after.filter((b) => b.model === killed[0]?.model).length > 1 ? 'YES' : 'no'}; ` +
      `answers as the single-request run: ${JSON.stringify(await query(syncFile, 'select question_id, method, answer from answers order by all')) === JSON.stringify(await query(out, 'select question_id, method, answer from answers order by all'))}`,
  );
}
console.log(`wall ${secs()}`);
await server.close();
rmSync(dir, { recursive: true, force: true });
