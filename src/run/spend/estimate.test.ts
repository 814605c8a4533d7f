/**
 * `adaptmr run --estimate`: the experiment runs with clients that send nothing (a server that fails every request
 * receives none, even from the CLI), the cache on disk answers what it holds, and after a pilot run calibrates the
 * output lengths the estimate is within 10 % of the tokens and dollars the real run then records, per stage.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../../llm/testing/fake-openai-server.ts';
import { countChatTokens, countTokens } from '../../llm/tokens.ts';
import { openResultStore } from '../../store/index.ts';
import { estimateExperiment } from './estimate.ts';
import { parseExperiment } from '../config/load-config.ts';
import { REPO_ROOT } from '../record/provenance.ts';
import { runExperiment } from '../runner.ts';
import { useTestData } from '../../../test/data-path.ts';

useTestData(); // its runs find LoCoMo / LongMemEval by name on the data search path

const dir = mkdtempSync(join(tmpdir(), 'adaptmr-estimate-'));
let server: FakeOpenAiServer;
let refusing: FakeOpenAiServer;

beforeAll(async () => {
  // Counts tokens as OpenAI does (o200k_base, chat framing), so recorded and estimated tokens are comparable.
  server = await startFakeOpenAiServer({
    countTokens: { prompt: countChatTokens, completion: countTokens },
    chat: (body) => {
      const prompt = body.messages.map((m) => m.content).join('\n');
      if (/Answer yes or no only/i.test(prompt)) return 'yes';
      // Each context gets its own answer, as a real reader's would (so two methods' judge prompts differ too).
      return `根据聊天记录，答案是 Paris, in the spring of 2023 (${createHash('sha256').update(prompt).digest('hex').slice(0, 6)}).`;
    },
  });
  refusing = await startFakeOpenAiServer({
    chat: () => {
      throw new Error('this server answers no request');
    },
  });
});
afterAll(async () => {
  await server.close();
  await refusing.close();
  rmSync(dir, { recursive: true, force: true });
});

function experiment(baseURL: string, cacheDir: string, limit: number, batch = false): string {
  return `
name: estimate
datasets:
  - name: longmemeval-oracle
    limit: ${limit}
methods:
  - id: embed
    method: unified-embedding
    index: { granularity: session }
    k: 3
  - id: full
    method: full-context
    index: { granularity: session }
llm:
  cache: { mode: read-write, dir: ${cacheDir} }
  maxRetries: 0
  prices:
    fake-reader: { inputPerMTok: 0.15, cachedInputPerMTok: 0.075, outputPerMTok: 0.6 }
    fake-judge: { inputPerMTok: 2.5, outputPerMTok: 10 }
  roles:
    reader: { baseURL: ${baseURL}, model: fake-reader, apiKeyEnv: ADAPTMR_ESTIMATE_UNSET_KEY }
    judge: { baseURL: ${baseURL}, model: fake-judge }
${batch ? '  batch: { roles: [judge] }' : ''}
qa: {}
`;
}

async function recorded(file: string): Promise<Map<string, { p: number; c: number; cost: number }>> {
  const store = await openResultStore(file, { readOnly: true });
  try {
    const rows = await store.query<{ method: string; stage: string; p: number; c: number; cost: number }>(
      `select method, stage, sum(prompt_tokens)::DOUBLE AS p, sum(completion_tokens)::DOUBLE AS c, sum(cost_usd) FILTER (WHERE NOT cached) AS cost
       from llm_calls group by all`,
    );
    return new Map(rows.map((r) => [`${r.method}/${r.stage}`, r]));
  } finally {
    await store.close();
  }
}

describe('--estimate', () => {
  it('sends no request, even to a server that would fail every one, and needs no API key', async () => {
    const exp = parseExperiment(experiment(refusing.baseURL, join(dir, 'empty-cache'), 4, true), 'e.yaml');
    const e = await estimateExperiment(exp);
    expect(refusing.requests).toHaveLength(0);
    expect(e.failures).toEqual([]);
    expect(e.rows.map((r) => `${r.method}/${r.stage}`)).toEqual([
      'embed/judge',
      'embed/reader',
      'full/judge',
      'full/reader',
    ]);
    for (const r of e.rows) {
      expect(r.calls).toBe(4);
      expect(r.inputTokens).toBeGreaterThan(0);
      // An empty cache: nothing calibrates the output, which is each request's limit (the official 500 / 10 tokens).
      expect(r.outputFrom).toBe('limit');
      expect(r.outputTokens / r.calls).toBe(r.stage === 'reader' ? 500 : 10);
      expect(r.usdBatch).toBeCloseTo(r.usdList / 2, 12);
      expect(r.usd).toBe(r.stage === 'judge' ? r.usdBatch : r.usdList);
    }
  });

  it('the CLI prints one JSON object per method and stage, and sends nothing', async () => {
    const yaml = join(dir, 'cli.yaml');
    writeFileSync(yaml, experiment(refusing.baseURL, join(dir, 'empty-cache'), 2));
    const { stdout } = await promisify(execFile)(process.execPath, [
      join(REPO_ROOT, 'bin/adaptmr.js'),
      'run',
      yaml,
      '--estimate',
      '--json',
      '--no-progress',
    ]);
    const lines = stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { method: string; stage: string; calls: number; usdList: number });
    expect(lines.map((l) => `${l.method}/${l.stage}`)).toEqual([
      'embed/judge',
      'embed/reader',
      'full/judge',
      'full/reader',
    ]);
    expect(lines.every((l) => l.calls === 2)).toBe(true);
    expect(lines.reduce((sum, l) => sum + l.usdList, 0)).toBeGreaterThan(0);
    expect(refusing.requests).toHaveLength(0);
  });

  it('after a pilot run, is within 10 % of the tokens and cost the run records, per stage; what the cache holds is free', async () => {
    const cache = join(dir, 'cache');
    process.env.ADAPTMR_ESTIMATE_UNSET_KEY = 'sk-real-run';
    // The pilot: 3 questions, paid, their replies cached (the probe of output lengths).
    await runExperiment(parseExperiment(experiment(server.baseURL, cache, 3), 'p.yaml'), {
      out: join(dir, 'pilot.duckdb'),
      progress: false,
      log: () => {},
    });
    const exp = parseExperiment(experiment(server.baseURL, cache, 10), 'e.yaml');
    const before = server.requests.length;
    const e = await estimateExperiment(exp);
    expect(server.requests.length).toBe(before);
    expect(e.passes).toBe(2);
    for (const r of e.rows) {
      expect(r.outputFrom).toBe('cache-mean');
      expect(r.expectedCacheHits).toBeGreaterThanOrEqual(3); // the pilot's questions
    }
    const out = join(dir, 'run.duckdb');
    await runExperiment(exp, { out, progress: false, log: () => {} });
    const actual = await recorded(out);
    for (const r of e.rows) {
      const a = actual.get(`${r.method}/${r.stage}`)!;
      const tokens = r.inputTokens + r.outputTokens;
      expect(Math.abs(tokens - (a.p + a.c)) / (a.p + a.c)).toBeLessThan(0.1);
      if (a.cost > 0) expect(Math.abs(r.usdList - a.cost) / a.cost).toBeLessThan(0.1);
      else expect(r.usdList).toBe(0);
    }
  });
});
