/**
 * A judge panel end to end against the loopback OpenAI-compatible server (real HTTP): two judges scripted to
 * disagree on 8 LoCoMo questions × 2 methods store both verdict sets, and judge_agreement holds the kappa of a hand
 * count; the LoCoMo errata give both gold versions (only the changed questions asked twice); leniency probes are
 * judged by both judges. Then `rejudge` adds a third judge on the same file with judge calls only (no retrieval, no
 * reader), is resumable (a second rejudge makes no call), and Fleiss' kappa appears.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadQuestions } from '../../data/index.ts';
import type { ChatRequestBody } from '../../llm/testing/fake-openai-server.ts';
import { runReport } from '../../report/report.ts';
import { rejudgeFile } from '../../tools/rejudge/rejudge.ts';
import { parseExperiment } from '../config/load-config.ts';
import { runExperiment } from '../runner.ts';
import { llmYaml, promptOf, useFakeLlm } from '../testing/fake-llm-run.ts';
import { TEST_DATA_DIR } from '../../../test/data-path.ts';
import { queryFile } from '../../store/testing/query-file.ts';

const READER_ANSWER = 'I think it was in Paris.';
const IDS = [
  'conv-26:q0',
  'conv-26:q1',
  'conv-26:q2',
  'conv-26:q3',
  'conv-26:q4',
  'conv-26:q5',
  'conv-26:q6',
  'conv-26:q7',
];
// Per question (in IDS order), what each judge says of the reader's answer. Hand count over the 8 questions:
// both correct q0 q1 (2), only A q2 q3 (2), only B q7 (1), neither q4 q5 q6 (3).
const SAYS_A = [true, true, true, true, false, false, false, false];
const SAYS_B = [true, true, false, false, false, false, false, true];
let question = new Map<string, number>();

/** The judge's verdict on the prompt's generated answer: the script for the reader's answer; A accepts every probe, B none. */
function verdict(body: ChatRequestBody): string {
  const prompt = promptOf(body);
  // The last "Question:" line (Mem0's prompt has an example question before the real one).
  const q = [...prompt.matchAll(/Question: (.*)\n/gu)].at(-1)?.[1] ?? '';
  const answer = /Generated answer: (.*)\n/u.exec(prompt)?.[1] ?? '';
  const i = question.get(q) ?? -1;
  const onReader = answer === READER_ANSWER;
  const ok =
    body.model === 'judge-a'
      ? onReader
        ? SAYS_A[i]
        : true
      : body.model === 'judge-b'
        ? onReader
          ? SAYS_B[i]
          : false
        : onReader && i % 2 === 0;
  return JSON.stringify({ label: ok ? 'CORRECT' : 'WRONG' });
}

const fake = useFakeLlm('adaptmr-panel-', (prompt, body) => (/CORRECT/u.test(prompt) ? verdict(body) : READER_ANSWER));
const dir = fake.dir;
beforeAll(async () => {
  const { questions } = await loadQuestions({ name: 'locomo', questionIds: IDS }, TEST_DATA_DIR);
  question = new Map(questions.map((q) => [q.query.text, IDS.indexOf(q.query.id)]));
});

const yaml = (cache: string) => `
name: panel
datasets:
  - name: locomo
    questionIds: [${IDS.join(', ')}]
    gold: { answers: errata }
methods:
  - id: embed
    method: unified-embedding
    index: { granularity: session }
    k: 3
  - id: bm25
    method: bm25
    index: { granularity: session }
    k: 3
${llmYaml(fake.server.baseURL, { cacheDir: cache, judgeModel: 'judge-a' })}
qa:
  judges:
    - { id: a, model: judge-a }
    - { id: b, model: judge-b }
  probes: { perType: 2, seed: 7 }
`;

const chats = () =>
  fake.server.requests.filter((r) => r.path === '/v1/chat/completions').map((r) => r.body as ChatRequestBody);

describe('judge panel', () => {
  const file = join(dir, 'panel.duckdb');

  it("stores every judge's verdicts, and kappa matches the hand count", async () => {
    const exp = parseExperiment(yaml(join(dir, 'cache')), 'panel.yaml');
    const summary = await runExperiment(exp, { out: file, progress: false, log: () => {} });
    expect(summary.errors).toBe(0);
    const byJudge = await queryFile<{ judge: string; n: number; correct: number }>(
      file,
      `select judge, count(*)::INT n, sum(correct[1]::INT)::INT correct from answer_verdicts where probe = '' and gold = 'errata' group by judge order by judge`,
    );
    // 8 questions × 2 methods each; A says correct on 4 questions, B on 3
    expect(byJudge).toEqual([
      { judge: 'a', n: 16, correct: 8 },
      { judge: 'b', n: 16, correct: 6 },
    ]);
    // both judges' calls went to their own models
    expect(new Set(chats().map((b) => b.model))).toEqual(new Set(['fake-reader', 'judge-a', 'judge-b']));

    // Hand count over 16 answers: both correct 4, A only 4, B only 2, neither 6. p_o = 10/16; p_A = 8/16, p_B = 6/16;
    // p_e = 0.5·0.375 + 0.5·0.625 = 0.5; κ = (0.625 − 0.5) / 0.5 = 0.25.
    const [all] = await queryFile<{ n: number; agreement: number; kappa: number }>(
      file,
      `select n, agreement, kappa from judge_agreement where dataset = 'locomo' and judge_a = 'a' and judge_b = 'b' and adapt_type = 'all'`,
    );
    expect(all?.n).toBe(16);
    expect(all?.agreement).toBeCloseTo(10 / 16, 12);
    expect(all?.kappa).toBeCloseTo(0.25, 12);
    const columns = await queryFile<{ column_name: string }>(
      file,
      `select column_name from information_schema.columns where table_name = 'judge_agreement' order by ordinal_position`,
    );
    expect(columns.map((c) => c.column_name)).toEqual([
      'dataset',
      'judge_a',
      'judge_b',
      'adapt_type',
      'n',
      'agreement',
      'kappa',
    ]);
  });

  it('scores both gold versions: the accuracy rows follow the errata, the changed questions were judged against the corrected answers', async () => {
    const versions = await queryFile<{ question_id: string; version: string; answer: string }>(
      file,
      `select question_id, version, answer from gold_versions order by all`,
    );
    // locomo_0_qa2 and locomo_0_qa5 are score-corrupting errata in the audit's errors.json
    expect(versions.filter((v) => v.version === 'errata').map((v) => v.question_id)).toEqual([
      'conv-26:q2',
      'conv-26:q5',
    ]);
    expect(versions.find((v) => v.question_id === 'conv-26:q5' && v.version === 'errata')?.answer).toMatch(/Saturday/u);
    const prompts = chats()
      .filter((b) => b.model === 'judge-a')
      .map((b) => b.messages[0]?.content ?? '');
    expect(prompts.some((p) => p.includes('Gold answer: The Saturday before 25 May 2023'))).toBe(true);
    expect(prompts.some((p) => p.includes('Gold answer: The sunday before 25 May 2023'))).toBe(true);
    // every answer has both versions from both judges
    const [n] = await queryFile<{ n: number }>(file, `select count(*)::INT n from answer_verdicts where probe = ''`);
    expect(n?.n).toBe(16 * 2 * 2);
  });

  it("judges the leniency probes with every judge; the report shows each judge's acceptance rate", async () => {
    const probes = await queryFile<{ probe: string; n: number }>(
      file,
      `select probe, count(*)::INT n from probe_answers group by probe order by probe`,
    );
    expect(probes.length).toBeGreaterThan(0);
    const rates = await queryFile<{ judge: string; accepted: number; n: number }>(
      file,
      `select judge, sum(correct[1]::INT)::INT accepted, count(*)::INT n from answer_verdicts where probe <> '' group by judge order by judge`,
    );
    const total = probes.reduce((s, p) => s + p.n, 0);
    expect(rates).toEqual([
      { judge: 'a', accepted: total, n: total },
      { judge: 'b', accepted: 0, n: total },
    ]);
    const report = await runReport(file, { outDir: dir });
    if (process.env.SHOW_REPORT) console.log(report.text);
    expect(report.text).toMatch(/Leniency probes/u);
    expect(report.text).toMatch(/a\s.*100\.0%/u);
    expect(report.text).toMatch(/Judge agreement/u);
    expect(report.text).toMatch(/0\.25/u);
  });

  it("rejudge adds a judge with judge calls only, resumes without calls, and brings Fleiss' kappa", async () => {
    const before = chats().length;
    const result = await rejudgeFile(file, { judges: ['c:judge-c:strict'], log: () => {} });
    const added = chats().slice(before);
    expect(added.length).toBeGreaterThan(0);
    expect(
      added.every(
        (b) =>
          b.model === 'judge-c' &&
          (b.messages[0]?.content ?? '').includes('Label the generated answer CORRECT only if'),
      ),
    ).toBe(true);
    // One verdict per answer and probe; both methods gave the same answer, so identical prompts went out once and the
    // repeats came from the cache: every verdict has its call row, the uncached ones are the HTTP requests.
    const calls = await queryFile<{ n: number; paid: number }>(
      file,
      `select count(*)::INT n, sum((not cached)::INT)::INT paid from llm_calls where stage = 'judge:c'`,
    );
    expect(calls[0]).toEqual({ n: result.judged, paid: added.length });
    const again = await rejudgeFile(file, { judges: ['c:judge-c:strict'], log: () => {} });
    expect(again.judged).toBe(0);
    expect(chats().length).toBe(before + added.length);
    const [fleiss] = await queryFile<{ n: number; kappa: number | null }>(
      file,
      `select n, kappa from judge_agreement where judge_a = 'all' and judge_b = 'all' and adapt_type = 'all'`,
    );
    expect(fleiss?.n).toBe(16);
    await expect(rejudgeFile(file, { judges: ['c:judge-other'], log: () => {} })).rejects.toThrow(
      /judge "c" already judged this run with model judge-c/u,
    );
  });
});
