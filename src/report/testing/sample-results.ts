/**
 * A small but complete results file for the report, notebook and CI tests: a real run (src/run) on one question
 * per type of LoCoMo and LongMemEval oracle with BM25, AdaptMR (rules classifier, single route) and the oracle
 * router (upper bound), answered and judged through the loopback OpenAI-compatible stand-in (src/llm/testing), so
 * the file has routes, predicted types, answers, verdicts and LLM calls. The fake reader names Paris for questions
 * of even length and the fake judge says yes exactly then, so accuracy is neither 0 nor 1.
 */
import { join } from 'node:path';
import { startFakeOpenAiServer } from '../../llm/testing/fake-openai-server.ts';
import { parseExperiment } from '../../run/load-config.ts';
import { runExperiment } from '../../run/runner.ts';

const questionOf = (prompt: string): string => /Question: (.*)\n/u.exec(prompt)?.[1] ?? '';

export async function makeSampleResults(out: string, cacheDir: string): Promise<void> {
  const server = await startFakeOpenAiServer({
    chat: (body) => {
      const prompt = body.messages.map((m) => m.content).join('\n');
      if (/Answer yes or no only/iu.test(prompt)) return /Paris/u.test(prompt) ? 'yes' : 'no';
      if (/CORRECT/u.test(prompt) && /WRONG/u.test(prompt)) return /Paris/u.test(prompt) ? '{"label": "CORRECT"}' : '{"label": "WRONG"}';
      return questionOf(prompt).length % 2 === 0 ? 'It was in Paris.' : 'I do not know.';
    },
  });
  try {
    const yaml = `
name: sample
datasets:
  - name: longmemeval-oracle
    sample: { perType: 1 }
  - name: locomo
    sample: { perType: 1 }
methods:
  - { id: bm25, method: bm25, index: { granularity: session }, k: 5 }
  - { id: adaptmr-single, method: adaptmr, index: { granularity: session }, k: 5, options: { classifier: { name: rules }, router: { kind: single } } }
  - { id: adaptmr-oracle, method: adaptmr, index: { granularity: session }, k: 5, options: { router: { kind: oracle } } }
metrics: { ks: [1, 5] }
llm:
  cache: { mode: read-write, dir: ${join(cacheDir, 'llm-cache')} }
  maxRetries: 0
  prices: { fake-reader: { inputPerMTok: 1, outputPerMTok: 2 } }
  roles:
    reader: { baseURL: ${server.baseURL}, model: fake-reader }
    judge: { baseURL: ${server.baseURL}, model: fake-judge }
qa: {}
`;
    await runExperiment(parseExperiment(yaml, 'sample.yaml'), { out, progress: false, log: () => {} });
  } finally {
    await server.close();
  }
}
