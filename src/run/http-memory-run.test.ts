/**
 * The http-memory method end to end through the runner, with the two reference servers behind counting proxies —
 * the Python one started as its users start it (`python3 server.py --port 0`), with an API key — and the loopback LLM
 * server as reader and judge: a LoCoMo conversation and five LongMemEval questions; retrieval metrics from the cited
 * unit ids; a rerun into a new results file makes no request to either server nor to the LLM; the namespaces are
 * gone after the run; the key reaches the server but no file.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HttpMemoryServer, startHttpMemoryServer } from '../../examples/http-memory-typescript/server.ts';
import {
  type Proxy as CountingProxy,
  type Running,
  startProxy,
  startPythonServer,
} from '../../baselines/http-memory/testing/reference-servers.ts';
import { parseExperiment } from './config/load-config.ts';
import { runExperiment } from './runner.ts';
import { filesUnder } from './testing/fake-llm-run.ts';
import {
  filesHolding,
  MEMORY_RUN_DATASETS,
  memoryRunLlmYaml,
  useAcceptingLlm,
  useEnvKey,
} from './testing/memory-run.ts';
import { useTestData } from '../../test/data-path.ts';
import { queryFile } from '../store/testing/query-file.ts';

useTestData(); // its runs find LoCoMo / LongMemEval by name on the data search path

const KEY = 'py-memory-key-5be1f0';
const KEY_ENV = 'ADAPTMR_HTTP_MEMORY_TEST_KEY';
const fake = useAcceptingLlm('adaptmr-httpmem-run-');
const dir = fake.dir;
let py: Running;
let ts: HttpMemoryServer;
let pyProxy: CountingProxy;
let tsProxy: CountingProxy;
const namespaces = new Map<string, Set<string>>();

useEnvKey(KEY_ENV, KEY);

beforeAll(async () => {
  py = await startPythonServer({ HTTP_MEMORY_API_KEY: KEY });
  ts = await startHttpMemoryServer();
  // The proxies count requests and note which namespaces exist (created, not yet deleted).
  const track = (name: string) => (method: string, path: string, status: number) => {
    const set = namespaces.get(name) ?? new Set<string>();
    namespaces.set(name, set);
    const m = /^\/namespaces\/([^/]+)$/.exec(path);
    if (m && method === 'PUT' && status < 300) set.add(m[1]!);
    if (m && method === 'DELETE' && status < 300) set.delete(m[1]!);
    return undefined;
  };
  pyProxy = await startProxy(py.url, track('python'));
  tsProxy = await startProxy(ts.url, track('typescript'));
});
afterAll(async () => {
  await pyProxy.close();
  await tsProxy.close();
  await py.close();
  await ts.close();
});

describe('http-memory through the runner', () => {
  it('answers a LoCoMo conversation and five LongMemEval questions through both reference servers; a rerun makes no request', async () => {
    const yaml = `
name: http-memory-e2e
${MEMORY_RUN_DATASETS}
methods:
  - id: python-bm25
    method: http-memory
    index: { granularity: turn }
    k: 5
    options: { url: "${pyProxy.url}", apiKeyEnv: ${KEY_ENV} }
  - id: typescript-bm25
    method: http-memory
    index: { granularity: turn }
    k: 5
    options: { url: "${tsProxy.url}" }
${memoryRunLlmYaml(fake)}`;
    const exp = parseExperiment(yaml, 'http-memory.yaml');
    const first = join(dir, 'first.duckdb');
    const s1 = await runExperiment(exp, { out: first, progress: false, log: () => {} });
    expect(s1.errors).toBe(0);
    expect(s1.written).toBe(9);
    expect(pyProxy.requests).toBeGreaterThan(0);
    expect(tsProxy.requests).toBeGreaterThan(0);
    for (const [name, set] of namespaces) expect([...set], `${name}: namespaces deleted after the run`).toEqual([]);

    const rows = await queryFile<{ method: string; n: number; errors: number; answers: number }>(
      first,
      `select r.method, count(*) n, count(r.error) errors, count(a.answer) answers
         from retrievals r join answers a using (run_id, dataset, question_id, method) group by all order by all`,
    );
    expect(rows).toEqual([
      { method: 'python-bm25', n: 9, errors: 0, answers: 9 },
      { method: 'typescript-bm25', n: 9, errors: 0, answers: 9 },
    ]);
    // The servers cite unit ids: retrieval metrics exist, and the retrieved units are real ones, ranked.
    const metrics = await queryFile<{ method: string; n: number }>(
      first,
      `select method, count(*) n from scores where level <> 'qa' group by all order by all`,
    );
    expect(metrics.map((m) => m.method)).toEqual(['python-bm25', 'typescript-bm25']);
    const stages = await queryFile<{ model: string; stage: string }>(
      first,
      `select distinct model, stage from llm_calls where model = 'http-memory' order by all`,
    );
    expect(stages.map((s) => s.stage)).toEqual(expect.arrayContaining(['ingest', 'search']));
    const ctx = await queryFile<{ context: string }>(
      first,
      `select context from retrievals where method = 'python-bm25' and dataset = 'locomo' limit 1`,
    );
    expect(ctx[0]!.context).toMatch(/^\(1\) \[20\d\d\/\d\d\/\d\d \(\w{3}\) \d\d:\d\d\] /);

    const before = [pyProxy.requests, tsProxy.requests, fake.server.requests.length];
    const second = join(dir, 'second.duckdb');
    const s2 = await runExperiment(exp, { out: second, progress: false, log: () => {} });
    expect(s2.written).toBe(9);
    expect([pyProxy.requests, tsProxy.requests, fake.server.requests.length]).toEqual(before);
    const answers = `select dataset, question_id, method, answer from answers order by all`;
    expect(await queryFile(second, answers)).toEqual(await queryFile(first, answers));
    const contexts = `select dataset, question_id, method, context from retrievals order by all`;
    expect(await queryFile(second, contexts)).toEqual(await queryFile(first, contexts));

    // The key went to the Python server (the proxy forwarded it) and into no file.
    expect(filesUnder(dir).length).toBeGreaterThan(5);
    expect(filesHolding(dir, KEY)).toEqual([]);
  });
});
