/**
 * `replicates: 3` on an mcp-memory method, end to end against the reference MCP memory server over stdio (its request
 * log names the agent id of every tool call): three replicates `rb:r1` … `rb:r3`, each ingesting into its own
 * namespaces (no agent id shared between replicates), written as three methods; the report shows the across-replicate
 * spread per type. A rerun into a new file calls no tool (each replicate's searches are cached under its own key).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestData } from '../../test/data-path.ts';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../llm/testing/fake-openai-server.ts';
import { runReport } from '../report/report.ts';
import { queryFile } from '../store/testing/query-file.ts';
import { parseExperiment } from './config/load-config.ts';
import { runExperiment } from './runner.ts';

useTestData();

const SERVER = resolve('examples/mcp-memory-typescript/server.ts');
const dir = mkdtempSync(join(tmpdir(), 'adaptmr-mcp-reps-'));
const requestLog = join(dir, 'requests.log');
let llm: FakeOpenAiServer;

beforeAll(async () => {
  llm = await startFakeOpenAiServer({
    chat: (body) => {
      const prompt = body.messages.map((m) => m.content).join('\n');
      if (/CORRECT/.test(prompt) && /WRONG/.test(prompt)) return '{"label": "CORRECT"}';
      return 'An answer.';
    },
  });
});
afterAll(async () => {
  await llm.close();
  rmSync(dir, { recursive: true, force: true });
});

const logLines = () => (existsSync(requestLog) ? readFileSync(requestLog, 'utf8').split('\n').filter(Boolean) : []);

describe('replicates on a memory-system method', () => {
  it('replicates: 3 ingests into three sets of namespaces and the report shows the spread', async () => {
    const yaml = `
name: mcp-replicates
datasets:
  - name: locomo
    limit: 3
methods:
  - id: rb
    method: mcp-memory
    index: { granularity: turn }
    k: 5
    replicates: 3
    options:
      command: ${JSON.stringify(process.execPath)}
      args: ["--import", "tsx", ${JSON.stringify(SERVER)}, "--delay-ms", "5"]
      env: { MCP_MEMORY_REQUEST_LOG: ${JSON.stringify(requestLog)} }
      preset: reasoningbank
      pollMs: 10
llm:
  cache: { mode: read-write, dir: ${join(dir, 'cache')} }
  maxRetries: 0
  roles:
    reader: { baseURL: ${llm.baseURL}, model: fake-reader }
    judge: { baseURL: ${llm.baseURL}, model: fake-judge }
qa: {}
`;
    const exp = parseExperiment(yaml, 'replicates.yaml');
    expect(exp.config.methods.map((m) => m.id)).toEqual(['rb:r1', 'rb:r2', 'rb:r3']);
    const out = join(dir, 'first.duckdb');
    const s = await runExperiment(exp, { out, progress: false, log: () => {} });
    expect(s.errors).toBe(0);
    // Each replicate's tool calls name its own agent ids (namespaces); no agent id is shared between replicates.
    const agents = logLines()
      .filter((l) => l.startsWith('tools/call extract_memory '))
      .map((l) => l.split(' ')[2]!);
    const byReplicate = [1, 2, 3].map((r) => new Set(agents.filter((a) => a.includes(`-r${r}-`))));
    for (const set of byReplicate) expect(set.size).toBeGreaterThan(0);
    expect(new Set(agents).size).toBe(byReplicate.reduce((n, set) => n + set.size, 0));
    const methods = await queryFile<{ method: string; n: number }>(
      out,
      'select method, count(*)::int n from retrievals group by all order by all',
    );
    expect(methods.map((m) => m.method)).toEqual(['rb:r1', 'rb:r2', 'rb:r3']);

    const report = await runReport(out, { outDir: join(dir, 'report') });
    // The preset's memories carry no source ids, so the spread is over judged QA accuracy.
    expect(report.text).toMatch(/Across replicates, QA accuracy/);
    expect(report.text).toMatch(/│ locomo +│ rb +│ 3 +│ .*\[100\.0–100\.0\] sd 0\.0/);

    const before = logLines().length;
    const again = await runExperiment(exp, { out: join(dir, 'second.duckdb'), progress: false, log: () => {} });
    expect(again.errors).toBe(0);
    expect(logLines().length).toBe(before);
  });

  it('refuses replicates on a method that is not a memory system', () => {
    const yaml = `
name: bad-replicates
datasets: [{ name: locomo, limit: 1 }]
methods: [{ id: b, method: bm25, replicates: 2 }]
`;
    expect(() => parseExperiment(yaml, 'bad.yaml')).toThrow(/replicates is for memory-system methods .* not bm25/);
  });
});
