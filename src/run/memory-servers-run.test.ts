/**
 * Mem0 and Zep end to end through the runner, one loopback stand-in per API (baselines/*\/testing) plus the loopback
 * LLM server as reader and judge: a LoCoMo conversation and five LongMemEval questions through every API; a rerun
 * into a new results file makes zero HTTP requests; namespaces are gone after the run; the key reaches the servers
 * but no file; a SIGKILLed CLI run resumes ingestion without adding any message twice (checked on the servers).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY_ENV, type Subject, SYSTEMS, TEST_KEY } from '../../baselines/memory-server/testing/systems.ts';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../llm/testing/fake-openai-server.ts';
import { runReport } from '../report/report.ts';
import { parseExperiment } from './config/load-config.ts';
import { REPO_ROOT } from './record/provenance.ts';
import { runExperiment } from './runner.ts';
import { useTestData } from '../../test/data-path.ts';
import { queryFile } from '../store/testing/query-file.ts';

useTestData(); // its runs find LoCoMo / LongMemEval by name on the data search path

const dir = mkdtempSync(join(tmpdir(), 'adaptmr-memrun-'));
let llm: FakeOpenAiServer;
const subjects = new Map<string, Subject>();

beforeAll(async () => {
  llm = await startFakeOpenAiServer({
    chat: (body) => {
      const prompt = body.messages.map((m) => m.content).join('\n');
      if (/Answer yes or no only/i.test(prompt)) return 'yes';
      if (/CORRECT/.test(prompt) && /WRONG/.test(prompt)) return '{"label": "CORRECT"}';
      return 'An answer.';
    },
  });
  for (const sys of SYSTEMS) subjects.set(sys.name, await sys.start(1));
  process.env[KEY_ENV] = TEST_KEY;
});
afterAll(async () => {
  await llm.close();
  for (const s of subjects.values()) await s.server.close();
  rmSync(dir, { recursive: true, force: true });
});

const id = (name: string) => name.replace(' ', '-');

function experiment(name: string, cacheDir: string, datasets: string, extra: Record<string, unknown> = {}): string {
  const methods = SYSTEMS.map((sys) => {
    const options = { ...subjects.get(sys.name)!.options, pollMs: 5, ...extra };
    return `  - id: ${id(sys.name)}\n    method: ${sys.method}\n    index: { granularity: turn }\n    k: 5\n    options: ${JSON.stringify(options)}`;
  }).join('\n');
  return `
name: ${name}
datasets:
${datasets}
methods:
${methods}
llm:
  cache: { mode: read-write, dir: ${cacheDir} }
  concurrency: 4
  maxRetries: 2
  retryBaseMs: 1
  roles:
    reader: { baseURL: ${llm.baseURL}, model: fake-reader }
    judge: { baseURL: ${llm.baseURL}, model: fake-judge }
qa: {}
`;
}

const DATASETS = `  - name: longmemeval-oracle\n    sample: { perType: 1 }\n  - name: locomo\n    limit: 4`;

const requestsNow = () => [...subjects.values()].reduce((n, s) => n + s.server.requests.length, 0);

describe('memory servers through the runner', () => {
  it('answers a LoCoMo conversation and five LongMemEval questions through every API; a rerun makes no request', async () => {
    const cache = join(dir, 'cache');
    const exp = parseExperiment(experiment('mem-e2e', cache, DATASETS), 'mem.yaml');
    const first = join(dir, 'first.duckdb');
    const s1 = await runExperiment(exp, { out: first, progress: false, log: () => {} });
    expect(s1.errors).toBe(0);
    expect(s1.written).toBe(9);
    for (const [name, s] of subjects) {
      expect(s.server.violations, name).toEqual([]);
      expect(s.namespaces(), `${name}: namespaces deleted after the run`).toEqual([]);
      // LoCoMo's conversation (419 turns) and five LongMemEval haystacks, each ingested once.
      expect(
        s.server.requests.some((r) => /memories|messages/.test(r.path) && r.method === 'POST'),
        name,
      ).toBe(true);
    }
    const rows = await queryFile<{ method: string; n: number; errors: number; answers: number }>(
      first,
      `select r.method, count(*) n, count(r.error) errors, count(a.answer) answers
         from retrievals r join answers a using (run_id, dataset, question_id, method) group by all order by all`,
    );
    expect(rows).toEqual(
      SYSTEMS.map((s) => ({ method: id(s.name), n: 9, errors: 0, answers: 9 })).sort((a, b) =>
        a.method.localeCompare(b.method),
      ),
    );
    // Zep returns source episodes → retrieval metrics; Mem0 does not → none (NULL, "n/a"), never 0.
    const retrieval = await queryFile<{ method: string; n: number }>(
      first,
      `select method, count(*) n from scores where level <> 'qa' group by all order by all`,
    );
    expect(retrieval.map((r) => r.method)).toEqual(['zep-graphiti', 'zep-v3', 'zep-v4']);
    const outputs = await queryFile<{ method: string; output: string }>(
      first,
      `select method, output from methods order by all`,
    );
    expect(outputs.filter((o) => o.output === 'text').map((o) => o.method)).toEqual(['mem0-oss', 'mem0-platform']);
    const stages = await queryFile<{ model: string; stage: string }>(
      first,
      `select distinct model, stage from llm_calls where stage in ('ingest', 'search') order by all`,
    );
    expect(new Set(stages.map((s) => s.model))).toEqual(
      new Set(['mem0:oss', 'mem0:platform', 'zep:v3', 'zep:v4', 'zep:graphiti']),
    );
    expect(new Set(stages.map((s) => s.stage))).toEqual(new Set(['ingest', 'search']));
    const report = await runReport(first, { outDir: join(dir, 'report') });
    expect(report.text).toContain('mem0-oss: n/a — the system returns no source ids');
    expect(report.text).toContain('mem0-platform: n/a — the system returns no source ids');
    expect(report.text).not.toContain('zep-v3: n/a');
    const ctx = await queryFile<{ context: string }>(
      first,
      `select context from retrievals where method = 'mem0-oss' and dataset = 'locomo' limit 1`,
    );
    expect(ctx[0]!.context).toMatch(/^\(1\) \[20\d\d\/\d\d\/\d\d \(\w{3}\) \d\d:\d\d\]/);

    const before = requestsNow();
    const llmBefore = llm.requests.length;
    const second = join(dir, 'second.duckdb');
    const s2 = await runExperiment(exp, { out: second, progress: false, log: () => {} });
    expect(s2.written).toBe(9);
    expect(requestsNow()).toBe(before);
    expect(llm.requests.length).toBe(llmBefore);
    const answers = `select dataset, question_id, method, answer from answers order by all`;
    expect(await queryFile(second, answers)).toEqual(await queryFile(first, answers));
  });

  it('a SIGKILL during ingestion resumes without adding any message twice', async () => {
    const cache = join(dir, 'kill-cache');
    const yaml = join(dir, 'kill.yaml');
    // keep: true so the servers can be inspected after the run; a slow add keeps the child inside ingestion.
    writeFileSync(yaml, experiment('mem-kill', cache, `  - name: locomo\n    limit: 2`, { keep: true }));
    for (const s of subjects.values())
      for (let i = 0; i < 400; i++) s.server.faults.push({ match: 'POST', delayMs: 15 });
    const out = join(dir, 'kill.duckdb');
    const addsBefore = [...subjects.values()].reduce((n, s) => n + s.adds(), 0);
    await new Promise<void>((resolve, reject) => {
      const child = spawn(
        process.execPath,
        [join(REPO_ROOT, 'bin/adaptmr.js'), 'run', yaml, '--out', out, '--no-progress'],
        { stdio: 'ignore', env: { ...process.env } },
      );
      const timer = setInterval(() => {
        if ([...subjects.values()].reduce((n, s) => n + s.adds(), 0) - addsBefore >= 12) child.kill('SIGKILL');
      }, 5);
      child.on('exit', (_code, signal) => {
        clearInterval(timer);
        if (signal === 'SIGKILL') resolve();
        else reject(new Error(`child was not killed (${signal ?? _code})`));
      });
    });
    for (const s of subjects.values()) s.server.faults.length = 0;
    const s = await runExperiment(parseExperiment(readFileSync(yaml, 'utf8'), yaml), {
      out,
      progress: false,
      log: () => {},
    });
    expect(s.errors).toBe(0);
    for (const [name, subject] of subjects) {
      const stored = subject.stored();
      expect(stored.length, name).toBe(419); // one conversation, every turn once
      expect(new Set(stored).size, name).toBe(419);
      expect(subject.namespaces(), `${name}: kept`).toHaveLength(1);
      expect(subject.server.violations, name).toEqual([]);
    }
  });

  it('an unreachable memory server stops the run with one line naming the URL, and no question is written', async () => {
    const yaml = `
name: mem-dead
datasets: [{ name: locomo, limit: 2 }]
methods:
  - { id: bm25, method: bm25, index: { granularity: turn } }
  - { id: zep-dead, method: zep, index: { granularity: turn }, options: { api: graphiti, baseUrl: "http://127.0.0.1:9" } }
llm:
  cache: { mode: read-write, dir: ${join(dir, 'dead-cache')} }
  roles:
    reader: { baseURL: ${llm.baseURL}, model: fake-reader }
    judge: { baseURL: ${llm.baseURL}, model: fake-judge }
qa: {}
`;
    const out = join(dir, 'dead.duckdb');
    const err = await runExperiment(parseExperiment(yaml, 'dead.yaml'), { out, progress: false, log: () => {} }).catch(
      (e: unknown) => e,
    );
    expect(String(err)).toMatch(
      /^EndpointError: zep:graphiti at http:\/\/127\.0\.0\.1:9: unreachable .*compose\/graphiti\.yaml/,
    );
    expect(String(err)).not.toContain('\n');
    expect(await queryFile(out, 'select * from retrievals')).toEqual([]);
  });

  it('sends the key to the servers but stores it in no file', () => {
    for (const sys of SYSTEMS.filter((x) => x.auth)) {
      const headers = subjects.get(sys.name)!.server.requests.map((r) => JSON.stringify(r.headers));
      expect(
        headers.some((h) => h.includes(TEST_KEY)),
        sys.name,
      ).toBe(true);
    }
    const files = readdirSync(dir, { recursive: true, encoding: 'utf8' })
      .map((f) => join(dir, f))
      .filter((f) => statSync(f).isFile());
    expect(files.length).toBeGreaterThan(10);
    expect(files.filter((f) => readFileSync(f).includes(TEST_KEY))).toEqual([]);
  });
});
