/**
 * A child process for the kill-and-resume test (src/llm/resume.test.ts): asks `CHILD_N` questions one at a time
 * through the real provider (file cache at `CHILD_CACHE_DIR`, endpoint `CHILD_BASE_URL`, key from `CHILD_KEY`) and
 * prints one JSON line per answer. The test SIGKILLs it mid-batch, then runs it again.
 */
import { createLlmProvider } from '../provider.ts';

const n = Number(process.env.CHILD_N ?? '0');
const provider = createLlmProvider(
  {
    cache: { mode: 'read-write', dir: process.env.CHILD_CACHE_DIR ?? '' },
    concurrency: 1,
    retryBaseMs: 1,
    roles: { reader: { baseURL: process.env.CHILD_BASE_URL ?? '', model: 'reader-m', apiKeyEnv: 'CHILD_KEY' } },
  },
  process.env,
);
const reader = provider.forRole('reader');
for (let i = 1; i <= n; i++) {
  const r = await reader.chat(
    { messages: [{ role: 'user', content: `question ${i}` }], temperature: 0 },
    { stage: 'reader', calls: [] },
  );
  process.stdout.write(`${JSON.stringify({ i, text: r.text, cached: r.cached })}\n`);
}
