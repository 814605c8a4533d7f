/**
 * A small but complete results file for the report, notebook and CI tests: a real run (src/run) on one question
 * per type of LoCoMo and LongMemEval oracle with BM25, AdaptMR (rules classifier, single route) and the oracle
 * router (gold-type routing), answered and judged through the loopback OpenAI-compatible stand-in (src/llm/testing), so
 * the file has routes, predicted types, answers, verdicts and LLM calls. The fake reader names Paris for questions
 * of even length and the fake judge says yes exactly then, so accuracy is neither 0 nor 1. It reads the real
 * datasets (test/data-path.ts), so a test that uses it is in the full tier.
 */
import { join } from 'node:path';
import { startFakeOpenAiServer } from '../../llm/testing/fake-openai-server.ts';
import { parisQaChat } from '../../llm/testing/paris-qa.ts';
import { parseExperiment } from '../../run/config/load-config.ts';
import { runExperiment } from '../../run/runner.ts';
import { TEST_DATA_DIR } from '../../../test/data-path.ts';

export async function makeSampleResults(out: string, cacheDir: string): Promise<void> {
  const server = await startFakeOpenAiServer({ chat: parisQaChat() });
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
    await runExperiment(parseExperiment(yaml, 'sample.yaml'), {
      out,
      dataDir: TEST_DATA_DIR,
      progress: false,
      log: () => {},
    });
  } finally {
    await server.close();
  }
}
