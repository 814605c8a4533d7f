/**
 * The mcp-memory method end to end through the runner, against the reference MCP memory server
 * (examples/mcp-memory-typescript) with the ReasoningBank preset — once started over stdio as its users start it
 * (a command line; its requests counted through the request log its `env` names), once over Streamable HTTP with a
 * key — and the loopback LLM server as reader and judge: four LoCoMo questions and five LongMemEval questions, every
 * one written, none an error; the server's name and version from the handshake in the notes; a rerun into a new
 * results file calls no tool (no request reaches either server, nor the LLM); the key reaches no file. A server that
 * never finishes its asynchronous extraction gives error rows naming ingestTimeoutMs, not empty memories.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type McpMemoryHttpServer, startMcpMemoryHttpServer } from '../../examples/mcp-memory-typescript/server.ts';
import { parseExperiment } from './config/load-config.ts';
import { runExperiment } from './runner.ts';
import {
  filesHolding,
  MEMORY_RUN_DATASETS,
  memoryRunLlmYaml,
  useAcceptingLlm,
  useEnvKey,
} from './testing/memory-run.ts';
import { useTestData } from '../../test/data-path.ts';
import { queryFile } from '../store/testing/query-file.ts';

useTestData();

const KEY = 'mcp-memory-key-7c41d2';
const KEY_ENV = 'ADAPTMR_MCP_MEMORY_TEST_KEY';
const SERVER = resolve('examples/mcp-memory-typescript/server.ts');
const fake = useAcceptingLlm('adaptmr-mcpmem-run-');
const dir = fake.dir;
const requestLog = join(dir, 'stdio-requests.log');
let http: McpMemoryHttpServer;
let stalled: McpMemoryHttpServer;
useEnvKey(KEY_ENV, KEY);

beforeAll(async () => {
  http = await startMcpMemoryHttpServer({ apiKey: KEY, delayMs: 5 });
  stalled = await startMcpMemoryHttpServer({ stall: true });
});
afterAll(async () => {
  await http.close();
  await stalled.close();
});

const llmBlock = () => `\n${memoryRunLlmYaml(fake)}`;
const stdioRequests = () => (existsSync(requestLog) ? readFileSync(requestLog, 'utf8').split('\n').length - 1 : 0);

describe('mcp-memory through the runner', () => {
  it('answers LoCoMo and LongMemEval questions through the reference server over stdio and HTTP; a rerun calls no tool', async () => {
    const yaml = `
name: mcp-memory-e2e
${MEMORY_RUN_DATASETS}
methods:
  - id: rb-stdio
    method: mcp-memory
    index: { granularity: turn }
    k: 5
    options:
      transport: stdio
      command: ${JSON.stringify(process.execPath)}
      args: ["--import", "tsx", ${JSON.stringify(SERVER)}, "--delay-ms", "5"]
      env: { MCP_MEMORY_REQUEST_LOG: ${JSON.stringify(requestLog)} }
      preset: reasoningbank
      pollMs: 10
  - id: rb-http
    method: mcp-memory
    index: { granularity: turn }
    k: 5
    options: { transport: http, url: "${http.url}", apiKeyEnv: ${KEY_ENV}, preset: reasoningbank, pollMs: 10 }
${llmBlock()}`;
    const exp = parseExperiment(yaml, 'mcp-memory.yaml');
    const first = join(dir, 'first.duckdb');
    const s1 = await runExperiment(exp, { out: first, progress: false, log: () => {} });
    expect(s1.errors).toBe(0);
    expect(s1.written).toBe(9);
    expect(stdioRequests()).toBeGreaterThan(2);
    expect(http.store.requests).toBeGreaterThan(2);
    const rows = await queryFile<{ method: string; n: number; errors: number; answers: number }>(
      first,
      `select r.method, count(*) n, count(r.error) errors, count(a.answer) answers
         from retrievals r join answers a using (run_id, dataset, question_id, method) group by all order by all`,
    );
    expect(rows).toEqual([
      { method: 'rb-http', n: 9, errors: 0, answers: 9 },
      { method: 'rb-stdio', n: 9, errors: 0, answers: 9 },
    ]);
    // Memories were found (BM25 over the conversation) and the handshake's server is named.
    const ctx = await queryFile<{ method: string; context: string; notes: string }>(
      first,
      `select method, context, notes::varchar notes from retrievals where dataset = 'locomo' order by all`,
    );
    expect(ctx.filter((c) => c.context.startsWith('(1) ')).length).toBeGreaterThan(0);
    for (const c of ctx) expect(c.notes).toContain('adaptmr-mcp-memory-reference@1.0.0');
    // Every request the servers answered is a recorded call.
    const calls = await queryFile<{ n: number }>(
      first,
      `select count(*)::int n from llm_calls where model = 'mcp-memory' and not cached and error is null`,
    );
    expect(calls[0]!.n).toBe(stdioRequests() + http.store.requests);

    const before = [stdioRequests(), http.store.requests, fake.server.requests.length];
    const second = join(dir, 'second.duckdb');
    const s2 = await runExperiment(exp, { out: second, progress: false, log: () => {} });
    expect(s2.written).toBe(9);
    expect(s2.errors).toBe(0);
    expect([stdioRequests(), http.store.requests, fake.server.requests.length]).toEqual(before);
    const answers = `select dataset, question_id, method, answer from answers order by all`;
    expect(await queryFile(second, answers)).toEqual(await queryFile(first, answers));

    expect(filesHolding(dir, KEY)).toEqual([]);
  });

  it('a server still processing after ingestTimeoutMs gives error rows, not empty memories', async () => {
    const yaml = `
name: mcp-memory-stalled
datasets:
  - name: locomo
    limit: 2
methods:
  - id: rb-stalled
    method: mcp-memory
    index: { granularity: turn }
    k: 5
    options: { url: "${stalled.url}", preset: reasoningbank, pollMs: 20, ingestTimeoutMs: 200 }
${llmBlock()}`;
    const exp = parseExperiment(yaml, 'stalled.yaml');
    const out = join(dir, 'stalled.duckdb');
    const s = await runExperiment(exp, { out, progress: false, log: () => {} });
    expect(s.errors).toBe(2);
    const rows = await queryFile<{ error: string | null }>(out, `select error from retrievals order by all`);
    expect(rows).toHaveLength(2);
    for (const r of rows) expect(r.error).toMatch(/not finished after .*ingestTimeoutMs/);
  });
});
