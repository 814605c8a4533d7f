/**
 * LongMemEval with `gold: { answers: errata }` and the no-memory control, end to end against the loopback
 * OpenAI-compatible server (real HTTP), on the real S questions the overlay corrects: 370a8ff4's answer is judged
 * against both keys (the corrected one in the accuracy rows), eac54add's evidence-only erratum changes no answer, and
 * the no-memory method is read with an empty history and gets no retrieval rows. The report shows the ceiling per key.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TEST_DATA_DIR } from '../../test/data-path.ts';
import { LONGMEMEVAL_ERRATA } from '../../benchmarks/longmemeval/errata.ts';
import { loadQuestions } from '../data/index.ts';
import type { ChatRequestBody } from '../llm/testing/fake-openai-server.ts';
import { readerPrompt } from '../eval/qa/reader.ts';
import { runReport } from '../report/report.ts';
import { queryFile } from '../store/testing/query-file.ts';
import { parseExperiment } from './config/load-config.ts';
import { runExperiment } from './runner.ts';
import { llmYaml, promptOf, useFakeLlm } from './testing/fake-llm-run.ts';

const IDS = ['370a8ff4', 'eac54add', '852ce960'];
const READER = 'It was 11 weeks.';
// The judge says yes exactly when the gold it is shown is the corrected 370a8ff4 answer; the reader always answers the
// same.
const fake = useFakeLlm('adaptmr-lme-errata-', (prompt) =>
  /Answer yes or no only/u.test(prompt) ? (/Correct Answer: 11 weeks/u.test(prompt) ? 'yes' : 'no') : READER,
);
const dir = fake.dir;

const yaml = (cache: string) => `
name: lme-errata
datasets:
  - name: longmemeval-s
    questionIds: [${IDS.join(', ')}]
    gold: { answers: errata }
methods:
  - id: no-memory
    method: no-memory
    index: { granularity: session }
  - id: bm25
    method: bm25
    index: { granularity: session }
    k: 3
${llmYaml(fake.server.baseURL, { cacheDir: cache })}
qa: {}
`;

describe('LongMemEval errata overlay and the no-memory control', () => {
  const file = join(dir, 'lme.duckdb');

  it('the overlay matches the real questions it corrects', async () => {
    const { questions } = await loadQuestions({ name: 'longmemeval-s', questionIds: IDS }, TEST_DATA_DIR);
    for (const e of LONGMEMEVAL_ERRATA) {
      const q = questions.find((x) => x.query.id === e.questionId)!;
      expect(q.query.text).toBe(e.question);
      expect(q.gold.answer).toBe(e.originalAnswer);
    }
  });

  it('judges both keys, the accuracy rows under the corrected one; no-memory is read with no history', async () => {
    const exp = parseExperiment(yaml(join(dir, 'cache')), 'lme-errata.yaml');
    const summary = await runExperiment(exp, { out: file, progress: false, log: () => {}, dataDir: TEST_DATA_DIR });
    expect(summary.errors).toBe(0);
    const versions = await queryFile<{ question_id: string; version: string; answer: string }>(
      file,
      'select question_id, version, answer from gold_versions order by all',
    );
    // Only the answer erratum gives versions; eac54add's is evidence only.
    expect(versions).toEqual([
      { question_id: '370a8ff4', version: 'errata', answer: '11 weeks (81 days, about 11.6 weeks)' },
      { question_id: '370a8ff4', version: 'original', answer: '15' },
    ]);
    const acc = await queryFile<{ question_id: string; method: string; value: number }>(
      file,
      `select question_id, method, value from scores where metric = 'accuracy' order by all`,
    );
    expect(acc.filter((a) => a.value === 1).map((a) => `${a.method}:${a.question_id}`)).toEqual([
      'bm25:370a8ff4',
      'no-memory:370a8ff4',
    ]);
    const [noMemoryRows] = await queryFile<{ n: number }>(
      file,
      `select count(*)::INT n from scores where method = 'no-memory' and level <> 'qa'`,
    );
    expect(noMemoryRows?.n).toBe(0);
    const readerPrompts = fake.server.requests
      .filter((r) => r.path === '/v1/chat/completions')
      .map((r) => promptOf(r.body as ChatRequestBody))
      .filter((p) => !/Answer yes or no only/u.test(p));
    // The no-memory prompts are LongMemEval's reader prompt with an empty history, one per question; bm25's hold more.
    const { questions } = await loadQuestions({ name: 'longmemeval-s', questionIds: IDS }, TEST_DATA_DIR);
    const closedBook = new Set(questions.map((q) => readerPrompt(q.query, '', false)));
    expect(readerPrompts.filter((p) => closedBook.has(p))).toHaveLength(3);
    expect(readerPrompts.filter((p) => !closedBook.has(p))).toHaveLength(3);
  });

  it('the report shows the ceiling per key and the gain over no memory', async () => {
    const report = await runReport(file, { outDir: dir });
    expect(report.text).toMatch(/longmemeval-s\s+│?\s*ceiling\s+│?\s*original/u);
    expect(report.text).toMatch(/QA gain over no memory/u);
  });
});

describe('a gold option that cannot apply', () => {
  it('gold.answers: errata without a qa: block prints a one-line notice and runs', async () => {
    const lines: string[] = [];
    const exp = parseExperiment(
      `
name: lme-errata-retrieval
datasets:
  - name: longmemeval-s
    questionIds: [370a8ff4]
    gold: { answers: errata }
methods:
  - id: bm25
    method: bm25
    index: { granularity: session }
    k: 3
`,
      'retrieval.yaml',
    );
    const summary = await runExperiment(exp, {
      out: join(dir, 'retrieval.duckdb'),
      progress: false,
      log: (l) => lines.push(l),
      dataDir: TEST_DATA_DIR,
    });
    expect(summary.errors).toBe(0);
    const notice = lines.filter((l) => /gold\.answers: errata/u.test(l));
    expect(notice).toEqual([
      'longmemeval-s: gold.answers: errata changes the judged answers only; without a qa: block it does nothing here',
    ]);
  });
});
