/**
 * Judge panels and leniency probes on the benchmarks with their own judge — BEAM (rubric judge), MemDaily free-form
 * (LongMemEval's default prompt) and LoCoMo-Plus (the cue judge) — end to end against the loopback OpenAI-compatible
 * server (real HTTP), on real questions. Judge a accepts everything, judge b nothing, whatever the benchmark's reply
 * format, so by hand: every real answer and every probe is correct under a and wrong under b, judge_agreement holds
 * agreement 0 on each dataset, and each probe was asked with its benchmark's own prompt. LoCoMo-Plus's judge reads
 * the cue, which the results file now keeps (`questions.judge_evidence`): every LoCoMo-Plus judge call carries its
 * question's stored cue, its specific probe is another question's cue, and `rejudge` on a file without the cue says
 * in one line that the dataset is not judged again.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DATA_DIR } from '../../../test/data-path.ts';
import {
  startFakeOpenAiServer,
  type ChatRequestBody,
  type FakeOpenAiServer,
} from '../../llm/testing/fake-openai-server.ts';
import { queryFile } from '../../store/testing/query-file.ts';
import { runReport } from '../../report/report.ts';
import { rejudgeFile } from '../../tools/rejudge/rejudge.ts';
import { parseExperiment } from '../config/load-config.ts';
import { runExperiment } from '../runner.ts';

const dir = mkdtempSync(join(tmpdir(), 'adaptmr-benchmark-probes-'));
const BEAM_IDS = ['100K-1:q2', '100K-1:q6', '100K-1:q10'];
const MEMDAILY_IDS = ['01_simple_events:t10', '01_simple_events:t11', '02_conditional_events:t0'];
const PLUS_IDS = ['plus:0', 'plus:1', 'plus:2', 'plus:3'];
let server: FakeOpenAiServer;
const file = join(dir, 'panel.duckdb');
const savedCache = process.env.ADAPTMR_CACHE_DIR;

/** Judge a says right and judge b wrong, in the reply format of the benchmark whose prompt it got. */
function judgeReply(model: string, prompt: string): string {
  const yes = model === 'judge-a' || model === 'judge-c';
  if (prompt.includes('Memory Awareness Judge')) return `{"label": "${yes ? 'correct' : 'wrong'}"}`;
  if (prompt.includes('Answer yes or no only')) return yes ? 'yes' : 'no';
  return `{"score": ${yes ? 1 : 0}, "reason": "-"}`;
}

beforeAll(async () => {
  process.env.ADAPTMR_CACHE_DIR = join(dir, 'cache');
  server = await startFakeOpenAiServer({
    chat: (body: ChatRequestBody) =>
      body.model.startsWith('judge-')
        ? judgeReply(body.model, body.messages.map((m) => m.content).join('\n'))
        : 'I do not remember.',
  });
  const yaml = `
name: benchmark-probes
datasets:
  - name: beam-100k
    questionIds: [${BEAM_IDS.map((i) => `"${i}"`).join(', ')}]
  - name: memdaily
    questionIds: [${MEMDAILY_IDS.map((i) => `"${i}"`).join(', ')}]
  - name: locomo-plus
    questionIds: [${PLUS_IDS.map((i) => `"${i}"`).join(', ')}]
methods:
  - id: bm25
    method: bm25
    index: { granularity: turn }
    k: 3
llm:
  cache: { mode: read-write, dir: ${join(dir, 'cache')} }
  maxRetries: 1
  retryBaseMs: 1
  roles:
    reader: { baseURL: ${server.baseURL}, model: fake-reader }
    judge: { baseURL: ${server.baseURL}, model: judge-a }
qa:
  reader: { choices: free-form }
  judges:
    - { id: a, model: judge-a }
    - { id: b, model: judge-b }
  probes: { perType: 2 }
`;
  const exp = parseExperiment(yaml, 'benchmark-probes.yaml');
  const summary = await runExperiment(exp, { out: file, progress: false, log: () => {}, dataDir: TEST_DATA_DIR });
  expect(summary.errors).toBe(0);
});
afterAll(async () => {
  await server.close();
  if (savedCache === undefined) delete process.env.ADAPTMR_CACHE_DIR;
  else process.env.ADAPTMR_CACHE_DIR = savedCache;
  rmSync(dir, { recursive: true, force: true });
});

describe('judge panels and leniency probes on BEAM, MemDaily and LoCoMo-Plus', () => {
  it("every answer and every probe is judged by both judges with the benchmark's own judge", async () => {
    const verdicts = await queryFile<{
      dataset: string;
      judge: string;
      probe: string;
      prompt: string;
      n: number;
      ok: number;
    }>(
      file,
      `select dataset, judge, probe != '' probe, prompt, count(*)::INT n, sum(correct[1]::INT)::INT ok
       from answer_verdicts group by all order by dataset, probe, judge`,
    );
    const probes = await queryFile<{ dataset: string; n: number }>(
      file,
      'select dataset, count(*)::INT n from probe_answers group by all order by dataset',
    );
    expect(probes.map((p) => p.dataset)).toEqual(['beam-100k', 'locomo-plus', 'memdaily']);
    const nProbes = new Map(probes.map((p) => [p.dataset, p.n]));
    const nQuestions: Record<string, number> = { 'beam-100k': 3, memdaily: 3, 'locomo-plus': 4 };
    const label: Record<string, string> = {
      'beam-100k': 'beam (benchmark judge)',
      memdaily: 'memdaily (benchmark judge)',
      'locomo-plus': 'locomo-plus (benchmark judge)',
    };
    const expected = Object.keys(nQuestions)
      .sort()
      .flatMap((dataset) =>
        [false, true].flatMap((probe) =>
          ['a', 'b'].map((judge) => {
            const n = probe ? nProbes.get(dataset)! : nQuestions[dataset]!;
            return { dataset, judge, probe, prompt: label[dataset]!, n, ok: judge === 'a' ? n : 0 };
          }),
        ),
      );
    expect(verdicts).toEqual(expected);
    const agreement = await queryFile<{ dataset: string; n: number; agreement: number }>(
      file,
      `select dataset, n, agreement from judge_agreement where judge_a = 'a' and judge_b = 'b' and adapt_type = 'all' order by dataset`,
    );
    expect(agreement).toEqual([
      { dataset: 'beam-100k', n: 3, agreement: 0 },
      { dataset: 'locomo-plus', n: 4, agreement: 0 },
      { dataset: 'memdaily', n: 3, agreement: 0 },
    ]);
  });

  it("the report warns of the judge that accepts every probe, on each benchmark's dataset", async () => {
    const { text } = await runReport(file, { outDir: join(dir, 'report') });
    for (const dataset of ['beam-100k', 'memdaily', 'locomo-plus']) {
      expect(text).toContain(`warning: judge a on ${dataset} accepts 100.0% of specific-but-wrong answers`);
      expect(text).not.toContain(`warning: judge b on ${dataset}`);
    }
  });

  it('makes BEAM probes from the rubric, MemDaily probes from the Chinese answer', async () => {
    const rows = await queryFile<{ dataset: string; probe: string; source: string; answer: string; gold: string }>(
      file,
      `select p.dataset, p.probe, p.source, p.answer, q.answer gold from probe_answers p
       join questions q using (run_id, dataset, question_id) where p.dataset in ('beam-100k', 'memdaily')`,
    );
    for (const r of rows) {
      expect(r.answer).not.toBe(r.gold);
      // BEAM's rubric lead ("LLM response should state:") never reaches a probe.
      expect(r.answer).not.toMatch(/LLM response should/u);
    }
    expect(
      rows
        .filter((r) => r.dataset === 'memdaily' && r.probe === 'vague')
        .every((r) => /[\u4e00-\u9fff]/u.test(r.answer)),
    ).toBe(true);
    expect(new Set(rows.map((r) => r.dataset))).toEqual(new Set(['beam-100k', 'memdaily']));
  });

  it("stores LoCoMo-Plus's cue, sends it to every judge, and makes its specific probe another question's cue", async () => {
    const qs = await queryFile<{ question_id: string; judge_evidence: string | null }>(
      file,
      `select question_id, judge_evidence from questions where dataset = 'locomo-plus' order by question_id`,
    );
    expect(qs).toHaveLength(4);
    for (const q of qs) expect(q.judge_evidence).toMatch(/\S/u);
    const cues = qs.map((q) => q.judge_evidence!);
    const judgeB = server.requests
      .filter((r) => r.path === '/v1/chat/completions' && (r.body as ChatRequestBody).model === 'judge-b')
      .map((r) => (r.body as ChatRequestBody).messages.map((m) => m.content).join('\n'))
      .filter((p) => p.includes('Memory Awareness Judge'));
    expect(judgeB.length).toBeGreaterThan(4);
    for (const p of judgeB) expect(cues.some((c) => p.includes(c))).toBe(true);
    const specific = await queryFile<{ question_id: string; source: string; answer: string }>(
      file,
      `select question_id, source, answer from probe_answers where dataset = 'locomo-plus' and probe = 'specific'`,
    );
    expect(specific.length).toBeGreaterThan(0);
    for (const s of specific) {
      expect(s.source).toBe('rules:neighbour');
      const own = qs.find((q) => q.question_id === s.question_id)!.judge_evidence;
      expect(cues.filter((c) => c !== own)).toContain(s.answer);
    }
  });

  it('rejudge on a file without the cue says so in one line and judges the other datasets', async () => {
    const db = await DuckDBInstance.create(file);
    const c = await db.connect();
    await c.run(`UPDATE questions SET judge_evidence = NULL WHERE dataset = 'locomo-plus'`);
    c.closeSync();
    db.closeSync();
    const lines: string[] = [];
    const summary = await rejudgeFile(file, { judges: ['c:judge-c'], log: (l) => lines.push(l) });
    expect(summary.failed).toBe(0);
    const said = lines.filter((l) => l.includes('locomo-plus'));
    expect(said).toEqual([
      'judging: dataset locomo-plus is not judged again: its judge reads evidence this results file does not store (written before schema version 6); rerun the experiment to judge it again',
    ]);
    const byC = await queryFile<{ dataset: string; n: number }>(
      file,
      `select dataset, count(*)::INT n from answer_verdicts where judge = 'c' and probe = '' group by all order by dataset`,
    );
    expect(byC).toEqual([
      { dataset: 'beam-100k', n: 3 },
      { dataset: 'memdaily', n: 3 },
    ]);
  });
});
