/**
 * LLM-layer benchmark (`npx tsx scripts/bench-llm.ts [--delay-ms 50] [--calls 160]`): against the loopback
 * OpenAI-compatible server with a fixed delay per call, measures calls/second at concurrency 1, 4 and 16 against the
 * bound concurrency ÷ delay, then the overhead of a cached call (file cache hit: key hashing, file read, JSON parse,
 * accounting) in microseconds. Loopback only; bounded in calls and time; stops by itself.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import pLimit from 'p-limit';
import { createLlmProvider } from '../src/llm/provider.ts';
import { startFakeOpenAiServer } from '../src/llm/testing/fake-openai-server.ts';
import type { CallRecord } from '../src/core/interfaces.ts';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : NaN;
  return Number.isFinite(v) && v > 0 ? v : fallback;
}

const delayMs = arg('delay-ms', 50);
const callsPerLevel = arg('calls', 160);
const server = await startFakeOpenAiServer({ delayMs });
const dir = await mkdtemp(join(tmpdir(), 'adaptmr-bench-llm-'));
const ask = (content: string) => ({ messages: [{ role: 'user' as const, content }], temperature: 0 });

try {
  console.log(`fake server delay ${delayMs} ms per call, ${callsPerLevel} distinct calls per level, cache off\n`);
  console.log('concurrency  calls/s  bound (c/delay)  efficiency  raw SDK calls/s (same limit, no layer)');
  const sdk = new OpenAI({ baseURL: server.baseURL, apiKey: 'none', maxRetries: 0 });
  for (const concurrency of [1, 4, 16]) {
    const n = concurrency === 1 ? Math.min(callsPerLevel, 40) : callsPerLevel;
    const llm = createLlmProvider(
      { cache: { mode: 'off', dir }, concurrency, roles: { reader: { baseURL: server.baseURL, model: 'm' } } },
      {},
    ).forRole('reader');
    const calls: CallRecord[] = [];
    const t0 = performance.now();
    await Promise.all(Array.from({ length: n }, (_, i) => llm.chat(ask(`c${concurrency}-q${i}`), { stage: 'bench', calls })));
    const secs = (performance.now() - t0) / 1000;
    const rate = n / secs;
    const bound = concurrency / (delayMs / 1000);
    // Reference: the bare SDK under the same p-limit, to separate this layer's cost from the HTTP stack's.
    const limit = pLimit(concurrency);
    const r0 = performance.now();
    await Promise.all(
      Array.from({ length: n }, (_, i) =>
        limit(() => sdk.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: `raw-c${concurrency}-q${i}` }], temperature: 0 })),
      ),
    );
    const rawRate = n / ((performance.now() - r0) / 1000);
    console.log(
      `${String(concurrency).padStart(11)}  ${rate.toFixed(1).padStart(7)}  ${bound.toFixed(1).padStart(15)}  ${((100 * rate) / bound).toFixed(1).padStart(9)}%  ${rawRate.toFixed(1).padStart(8)}`,
    );
  }

  // Cached-call overhead: prime entries, then time hits (new provider, so nothing is memoised in-process).
  const entries = 200;
  const cfg = { cache: { mode: 'read-write' as const, dir }, concurrency: 16, roles: { reader: { baseURL: server.baseURL, model: 'm' } } };
  const primer = createLlmProvider(cfg, {}).forRole('reader');
  await Promise.all(Array.from({ length: entries }, (_, i) => primer.chat(ask(`cached-${i}`), { stage: 'bench', calls: [] })));
  const provider = createLlmProvider(cfg, {});
  const llm = provider.forRole('reader');
  const rounds = 10;
  const before = server.count();
  const t0 = performance.now();
  for (let r = 0; r < rounds; r++) {
    for (let i = 0; i < entries; i++) await llm.chat(ask(`cached-${i}`), { stage: 'bench', calls: [] });
  }
  const perCallUs = ((performance.now() - t0) * 1000) / (rounds * entries);
  const t1 = performance.now();
  await Promise.all(Array.from({ length: entries * rounds }, (_, i) => llm.chat(ask(`cached-${i % entries}`), { stage: 'bench', calls: [] })));
  const parallelUs = ((performance.now() - t1) * 1000) / (rounds * entries);
  console.log(
    `\ncached call overhead: ${perCallUs.toFixed(0)} µs sequential, ${parallelUs.toFixed(0)} µs/call with ${entries * rounds} in parallel ` +
      `(${rounds * entries * 2} hits, ${server.count() - before} HTTP requests, ${provider.stats().cacheHits} cache hits)`,
  );
} finally {
  await server.close();
  await rm(dir, { recursive: true, force: true });
}
