/**
 * A judge panel on BEAM end to end against the loopback OpenAI-compatible server (real HTTP): the run's first judge
 * and the panel's second both ask BEAM's own rubric judge (one call per rubric item) with their own models; judge a
 * gives every item full marks, b none, so on 3 real BEAM 100K questions × 1 method the verdicts are 3 correct and
 * 3 wrong, judge_agreement holds n 3 and agreement 0, and every judge call carried a rubric item of its question.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TEST_DATA_DIR } from '../../../test/data-path.ts';
import { loadQuestions } from '../../data/index.ts';
import type { ChatRequestBody } from '../../llm/testing/fake-openai-server.ts';
import { queryFile } from '../../store/testing/query-file.ts';
import { parseExperiment } from '../config/load-config.ts';
import { runExperiment } from '../runner.ts';
import { llmYaml, promptOf, useFakeLlm } from '../testing/fake-llm-run.ts';

// contradiction resolution, information extraction, knowledge update of chat 1 (ids follow BEAM's ability order).
const IDS = ['100K-1:q2', '100K-1:q6', '100K-1:q10'];
const fake = useFakeLlm('adaptmr-beam-panel-', (_prompt, body) => {
  if (body.model === 'judge-a') return '{"score": 1, "reason": "all there"}';
  if (body.model === 'judge-b') return '{"score": 0, "reason": "missing"}';
  return 'I do not remember.';
});
const dir = fake.dir;

const yaml = (cache: string) => `
name: beam-panel
datasets:
  - name: beam-100k
    questionIds: [${IDS.map((i) => `"${i}"`).join(', ')}]
    index: { granularity: turn }
methods:
  - id: bm25
    method: bm25
    k: 3
${llmYaml(fake.server.baseURL, { cacheDir: cache, judgeModel: 'judge-a' })}
qa:
  judges:
    - { id: a, model: judge-a }
    - { id: b, model: judge-b }
`;

describe('judge panel on BEAM', () => {
  it("every judge asks BEAM's rubric judge; verdicts and agreement match the hand count", async () => {
    const file = join(dir, 'beam.duckdb');
    const exp = parseExperiment(yaml(join(dir, 'cache')), 'beam-panel.yaml');
    const summary = await runExperiment(exp, { out: file, progress: false, log: () => {}, dataDir: TEST_DATA_DIR });
    expect(summary.errors).toBe(0);
    const verdicts = await queryFile<{ judge: string; prompt: string; n: number; correct: number }>(
      file,
      `select judge, prompt, count(*)::INT n, sum(correct[1]::INT)::INT correct from answer_verdicts where probe = '' group by all order by judge`,
    );
    expect(verdicts).toEqual([
      { judge: 'a', prompt: 'beam (benchmark judge)', n: 3, correct: 3 },
      { judge: 'b', prompt: 'beam (benchmark judge)', n: 3, correct: 0 },
    ]);
    const [agreement] = await queryFile<{ n: number; agreement: number }>(
      file,
      `select n, agreement from judge_agreement where dataset = 'beam-100k' and judge_a = 'a' and judge_b = 'b' and adapt_type = 'all'`,
    );
    expect(agreement).toEqual({ n: 3, agreement: 0 });
    // Judge b was asked once per rubric item of each question, with BEAM's prompt.
    const { questions } = await loadQuestions({ name: 'beam-100k', questionIds: IDS }, TEST_DATA_DIR);
    const items = questions.flatMap((q) => q.gold.rubric ?? []);
    const asked = fake.server.requests
      .filter((r) => r.path === '/v1/chat/completions' && (r.body as ChatRequestBody).model === 'judge-b')
      .map((r) => promptOf(r.body as ChatRequestBody));
    expect(asked).toHaveLength(items.length);
    for (const item of items) expect(asked.some((p) => p.includes(item))).toBe(true);
  });
});
