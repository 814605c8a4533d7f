/**
 * The setup the memory-server run tests (mcp-memory, http-memory) share: the loopback LLM as a reader that always
 * answers and judges that always accept, the two datasets they answer (five LongMemEval questions, four LoCoMo
 * ones), the experiment's `llm:` block, an API key in the environment for the file's tests, and the check that the
 * key reached no file.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { filesUnder, llmYaml, useFakeLlm, type FakeLlmRun } from './fake-llm-run.ts';

/** `useFakeLlm` whose judges accept every answer (LongMemEval's yes/no, LoCoMo's JSON label). */
export function useAcceptingLlm(prefix: string): FakeLlmRun {
  return useFakeLlm(prefix, (prompt) => {
    if (/Answer yes or no only/i.test(prompt)) return 'yes';
    if (/CORRECT/.test(prompt) && /WRONG/.test(prompt)) return '{"label": "CORRECT"}';
    return 'An answer.';
  });
}

/** One question per LongMemEval oracle type and four LoCoMo questions (one conversation). */
export const MEMORY_RUN_DATASETS = `datasets:
  - name: longmemeval-oracle
    sample: { perType: 1 }
  - name: locomo
    limit: 4`;

/** The `llm:` block and `qa: {}`: cache under the test's folder, 4 at once, 2 retries. */
export const memoryRunLlmYaml = (fake: FakeLlmRun): string =>
  `${llmYaml(fake.server.baseURL, { cacheDir: join(fake.dir, 'cache'), concurrency: 4, maxRetries: 2 })}\nqa: {}\n`;

/** Sets `name` to `value` for the file's tests; deletes it after them. */
export function useEnvKey(name: string, value: string): void {
  beforeAll(() => {
    process.env[name] = value;
  });
  afterAll(() => {
    delete process.env[name];
  });
}

/** The files under `dir` whose bytes hold `secret`. */
export const filesHolding = (dir: string, secret: string): string[] =>
  filesUnder(dir).filter((f) => readFileSync(f).includes(secret));
