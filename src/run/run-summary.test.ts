/**
 * Honest run summaries: a run whose retrievals all succeed but whose every judge call fails (HTTP 500 from
 * a loopback server) used to print "0 method errors" and exit 0. Through the real CLI (an asynchronous child: the
 * server runs in this process): the summary counts the judge failures, `adaptmr run` exits 1 with a one-line reason
 * when more than `run.maxFailureShare` of the questions failed, and exits 0 when `--max-failure-share` allows it.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../llm/testing/fake-openai-server.ts';
import type { Classifier, Embedder, IndexSpec } from '../core/interfaces.ts';
import { ADAPT_TYPES, type AdaptType } from '../core/types.ts';
import { createMemoryIndex, createWinkSifEmbedder } from '../index/index.ts';
import { AdaptmrOptionsSchema, createAdaptmrMethod } from '../routing/adaptmr-method.ts';
import { frozenQuery, PLAN_HAYSTACK } from '../strategies/testing/fixtures.ts';
import { methodFailureStage } from './record/failures.ts';
import { REPO_ROOT } from './record/provenance.ts';
import { useTestData } from '../../test/data-path.ts';

useTestData(); // its runs find LoCoMo / LongMemEval by name on the data search path

const QUESTIONS = 3;
const dir = mkdtempSync(join(tmpdir(), 'adaptmr-summary-'));
let server: FakeOpenAiServer;

beforeAll(async () => {
  server = await startFakeOpenAiServer({
    // The reader answers; the judge (its prompt asks for yes or no) always fails.
    chat: (body) => (body.model === 'j' ? { status: 500 } : 'Paris'),
  });
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(REPO_ROOT, 'bin/adaptmr.js'), ...args], {
      env: { ...process.env, ADAPTMR_SUMMARY_TEST_KEY: 'sk-summary-test' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('run summary', () => {
  it('counts reader/judge failures and exits non-zero above the allowed failure share', async () => {
    const yaml = join(dir, 'summary.yaml');
    writeFileSync(
      yaml,
      `
name: summary
datasets:
  - name: longmemeval-oracle
    limit: ${QUESTIONS}
methods:
  - id: bm25
    method: bm25
    k: 3
llm:
  cache: { mode: read-write, dir: ${join(dir, 'llm-cache')} }
  maxRetries: 0
  roles:
    reader: { baseURL: ${server.baseURL}, model: r, apiKeyEnv: ADAPTMR_SUMMARY_TEST_KEY }
    judge: { baseURL: ${server.baseURL}, model: j, apiKeyEnv: ADAPTMR_SUMMARY_TEST_KEY }
qa: {}
`,
    );
    const out = join(dir, 'summary.duckdb');
    const failed = await cli(['run', yaml, '--out', out, '--no-progress']);
    expect(failed.stdout).toContain(`${QUESTIONS} of ${QUESTIONS} questions failed`);
    expect(failed.stdout).toMatch(new RegExp(`method 0, classifier 0, memorising 0, reader 0, judge ${QUESTIONS}\\b`));
    expect(failed.code).toBe(1);
    const reason = failed.stderr.split('\n').filter((l) => l.startsWith('adaptmr run:'));
    expect(reason).toHaveLength(1);
    expect(reason[0]).toMatch(/3 of 3 questions \(100\.0%\) have error rows, more than the allowed share 0\.05/);
    expect(failed.stderr).not.toMatch(/\n\s+at /); // one line, no stack trace

    // The errors kept (no retry) but allowed by the flag: the summary still says so, the exit code is 0.
    const allowed = await cli([
      'run',
      yaml,
      '--out',
      out,
      '--no-progress',
      '--no-retry-errors',
      '--max-failure-share',
      '1',
    ]);
    expect(allowed.stdout).toContain(
      `0 questions written, ${QUESTIONS} already done, ${QUESTIONS} of ${QUESTIONS} questions failed`,
    );
    expect(allowed.code).toBe(0);

    // A share outside 0–1 is refused before any work.
    const bad = await cli(['run', yaml, '--out', out, '--no-progress', '--max-failure-share', '5']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/--max-failure-share.*expected a number from 0 to 1/);
  });
});

describe('failed stage attribution', () => {
  const spec: IndexSpec = { granularity: 'session', roles: ['user', 'assistant'], includeCaptions: true };

  it('a classifier that fails or gives NaN probabilities is a classifier failure', async () => {
    const nan: Classifier = {
      name: 'corrupt',
      classify: async () => ({
        type: 'factual' as AdaptType,
        probs: Object.fromEntries(ADAPT_TYPES.map((t) => [t, Number.NaN])) as Record<AdaptType, number>,
      }),
    };
    const down: Classifier = {
      name: 'down',
      classify: async () => Promise.reject(new Error('classifier endpoint down')),
    };
    for (const classifier of [nan, down]) {
      const m = await createAdaptmrMethod(
        AdaptmrOptionsSchema.parse({ router: { kind: 'fusion' } }),
        { id: 'a', k: 3 },
        classifier,
      );
      const index = createMemoryIndex(PLAN_HAYSTACK, spec, createWinkSifEmbedder());
      const err = await m.run(frozenQuery('Where do I live now?'), index, { seed: 1, calls: [] }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(methodFailureStage(err, [])).toBe('classifier');
    }
  });

  it('embedding the haystack failing is a memorising failure; a failed call names its stage', async () => {
    const broken: Embedder = { id: 'broken', dim: 4, embed: async () => Promise.reject(new Error('embeddings down')) };
    const index = createMemoryIndex(PLAN_HAYSTACK, spec, broken);
    const err = await index.vectors().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(methodFailureStage(err, [])).toBe('memorising');
    const call = {
      model: 'm',
      promptTokens: 0,
      completionTokens: 0,
      latencyMs: 1,
      cached: false,
      costUsd: 0,
      error: 'HTTP 500',
    };
    expect(methodFailureStage(new Error('x'), [{ ...call, stage: 'ingest' }])).toBe('memorising');
    expect(methodFailureStage(new Error('x'), [{ ...call, stage: 'strategy:decompose' }])).toBe('method');
  });
});
