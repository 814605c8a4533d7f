/**
 * LLM-layer benchmark (`npm run bench:llm -- [--delay-ms 50] [--waves 20] [--reps 5]`), against the loopback
 * OpenAI-compatible fake server (src/llm/testing) answering every call after a fixed delay. The server runs in a
 * worker thread (scripts/bench-llm-server.ts), so its own CPU is not spent on the event loop being measured, as
 * with a real endpoint.
 *
 * 1. Throughput at concurrency 1, 4 and 16 against the bound concurrency ÷ delay (goal: ≥ 90 % at 16 with
 *    50 ms): after one untimed warm-up wave (connections opened, code compiled), `--reps` timed batches of
 *    concurrency × `--waves` distinct calls (cache off); the median ratio to the bound and the main thread's CPU time
 *    per call (from /proc, Linux; user+sys of this thread only, so the server thread is not counted) — the figure
 *    that decides how close to the bound a loaded machine can get. Reference: the bare openai SDK (global fetch)
 *    under the same p-limit, alternated with ours in the same window.
 * 2. Cached calls (goal ≤ 0.2 ms each in parallel): 200 entries written, then read back by a fresh provider (nothing
 *    memoised in-process) sequentially and with 2,000 calls in parallel; µs per call, wall and main-thread CPU.
 *
 * Loopback only; bounded in calls and time; stops by itself.
 */
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import OpenAI from 'openai';
import pLimit from 'p-limit';
import { createLlmProvider } from '../src/llm/provider.ts';
import type { CallRecord } from '../src/core/interfaces.ts';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : NaN;
  return Number.isFinite(v) && v > 0 ? v : fallback;
}
const delayMs = arg('delay-ms', 50);
const waves = arg('waves', 20);
const reps = arg('reps', 5);

/** CPU time (user+sys, ms) of this process's main thread; NaN where /proc is not available. */
function threadCpuMs(): number {
  try {
    const fields = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10; // clock ticks (USER_HZ = 100) → ms
  } catch {
    return NaN;
  }
}
const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function startServerThread(): Promise<{ baseURL: string; worker: Worker }> {
  const self = import.meta.url;
  const entry = new URL('./bench-llm-server.ts', self).href;
  // Under tsx the worker registers tsx first (as src/run/parallel/pool.ts does).
  const boot = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((m) => { m.register(); return import(${JSON.stringify(entry)}); })`;
  const worker = new Worker(boot, { eval: true, workerData: { delayMs } });
  return once(worker, 'message').then(([m]) => ({ baseURL: (m as { baseURL: string }).baseURL, worker }));
}

const { baseURL, worker } = await startServerThread();
const dir = await mkdtemp(join(tmpdir(), 'adaptmr-bench-llm-'));
const ask = (content: string) => ({ messages: [{ role: 'user' as const, content }], temperature: 0 });
let serial = 0;

/** Calls/s and main-thread CPU ms per call of `n` distinct calls through `call`. */
async function batch(n: number, call: (i: number) => Promise<unknown>): Promise<{ rate: number; cpuPerCall: number }> {
  const c0 = threadCpuMs();
  const t0 = performance.now();
  await Promise.all(Array.from({ length: n }, (_, i) => call(i)));
  const secs = (performance.now() - t0) / 1000;
  return { rate: n / secs, cpuPerCall: (threadCpuMs() - c0) / n };
}

try {
  console.log(
    `fake server (worker thread) delay ${delayMs} ms per call; cache off; ${reps} timed batches of concurrency × ${waves} calls after a warm-up wave; load average ${loadavg()[0]!.toFixed(1)}\n`,
  );
  console.log('concurrency  bound/s   calls/s  of bound  CPU ms/call  | bare SDK: calls/s  of bound  CPU ms/call');
  const sdk = new OpenAI({ baseURL, apiKey: 'none', maxRetries: 0 });
  for (const concurrency of [1, 4, 16]) {
    const n = concurrency * waves;
    const llm = createLlmProvider(
      { cache: { mode: 'off', dir }, concurrency, roles: { reader: { baseURL, model: 'm' } } },
      {},
    ).forRole('reader');
    const limit = pLimit(concurrency);
    const ours = (i: number) =>
      llm.chat(ask(`c${concurrency}-${serial}-q${i}`), { stage: 'bench', calls: [] as CallRecord[] });
    const bare = (i: number) =>
      limit(() =>
        sdk.chat.completions.create({
          model: 'm',
          messages: [{ role: 'user', content: `raw-c${concurrency}-${serial}-q${i}` }],
          temperature: 0,
        }),
      );
    await batch(concurrency, ours);
    await batch(concurrency, bare);
    const a: { rate: number; cpuPerCall: number }[] = [];
    const b: { rate: number; cpuPerCall: number }[] = [];
    for (let r = 0; r < reps; r++) {
      serial++;
      // Alternate which goes first, so a load spike does not always fall on the same side.
      if (r % 2 === 0) {
        a.push(await batch(n, ours));
        b.push(await batch(n, bare));
      } else {
        b.push(await batch(n, bare));
        a.push(await batch(n, ours));
      }
    }
    const bound = concurrency / (delayMs / 1000);
    const fmt = (xs: typeof a) =>
      `${median(xs.map((x) => x.rate))
        .toFixed(1)
        .padStart(8)}  ${((100 * median(xs.map((x) => x.rate))) / bound).toFixed(1).padStart(7)}%  ${median(
        xs.map((x) => x.cpuPerCall),
      )
        .toFixed(3)
        .padStart(11)}`;
    console.log(
      `${String(concurrency).padStart(11)}  ${bound.toFixed(1).padStart(7)}  ${fmt(a)}  |          ${fmt(b)}`,
    );
  }

  // Cached calls: prime entries, then time hits from a fresh provider (nothing memoised in-process).
  const entries = 200;
  const rounds = 10;
  const cfg = {
    cache: { mode: 'read-write' as const, dir },
    concurrency: 16,
    roles: { reader: { baseURL, model: 'm' } },
  };
  const primer = createLlmProvider(cfg, {}).forRole('reader');
  await Promise.all(
    Array.from({ length: entries }, (_, i) => primer.chat(ask(`cached-${i}`), { stage: 'bench', calls: [] })),
  );
  const seq: number[] = [];
  const par: number[] = [];
  const parCpu: number[] = [];
  let hits = 0;
  for (let r = 0; r < reps; r++) {
    const provider = createLlmProvider(cfg, {});
    const llm = provider.forRole('reader');
    const t0 = performance.now();
    for (let i = 0; i < entries; i++) await llm.chat(ask(`cached-${i}`), { stage: 'bench', calls: [] });
    seq.push(((performance.now() - t0) * 1000) / entries);
    const p = await batch(entries * rounds, (i) =>
      llm.chat(ask(`cached-${i % entries}`), { stage: 'bench', calls: [] }),
    );
    par.push(1e6 / p.rate);
    parCpu.push(p.cpuPerCall * 1000);
    hits += provider.stats().cacheHits;
    if (provider.stats().requests > 0) throw new Error('a cached call reached the server');
  }
  console.log(
    `\ncached calls (median of ${reps}): ${median(seq).toFixed(0)} µs sequential; ${median(par).toFixed(0)} µs/call wall, ` +
      `${median(parCpu).toFixed(0)} µs/call main-thread CPU with ${entries * rounds} in parallel (goal ≤ 200 µs); ${hits} cache hits, 0 HTTP requests`,
  );
} finally {
  worker.postMessage('close');
  await once(worker, 'exit');
  await rm(dir, { recursive: true, force: true });
}
