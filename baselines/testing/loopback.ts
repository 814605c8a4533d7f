/**
 * Test helpers for the LLM baselines: a small LoCoMo haystack (the first sessions of the first conversation, read
 * from the real dataset) with two of its questions, and a check against the loopback OpenAI-compatible server that a
 * method memorises once per haystack (the `index:*` calls appear with the first question only) and that a rerun — a
 * fresh method and provider on the same cache directory — makes no request at all.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallRecord, IndexSpec, Method, MethodFactoryContext } from '../../src/core/interfaces.ts';
import type { Query, Session } from '../../src/core/types.ts';
import { loadDataset } from '../../src/data/index.ts';
import { createMemoryIndex, createWinkSifEmbedder } from '../../src/index/index.ts';
import { createLlmProvider } from '../../src/llm/index.ts';
import type { FakeOpenAiServer } from '../../src/llm/testing/fake-openai-server.ts';
import { TEST_DATA_DIR } from '../../test/data-path.ts';

export const TURN_SPEC: IndexSpec = {
  granularity: 'turn',
  roles: ['user', 'assistant'],
  includeCaptions: true,
  speakerPrefix: true,
};

export async function smallLocomo(sessions = 2): Promise<{ haystack: Session[]; queries: Query[] }> {
  const data = await loadDataset({ name: 'locomo', limit: 4 }, TEST_DATA_DIR);
  const first = data.instances[0]!;
  const haystack = first.haystack.slice(0, sessions);
  const queries = data.instances
    .filter((i) => i.haystackId === first.haystackId)
    .slice(0, 2)
    .map((i) => ({ id: i.query.id, text: i.query.text, askedAt: i.query.askedAt }));
  return { haystack, queries };
}

export function factoryContext(
  spec: IndexSpec,
  llmRoles: MethodFactoryContext['llmRoles'] = ['strategy'],
  k = 5,
): MethodFactoryContext {
  return { id: 'm', index: spec, k, seed: 1, runKey: 'test', llmRoles };
}

export interface LoopbackRun {
  /** Calls recorded per question of the first run. */
  firstRun: CallRecord[][];
  /** HTTP requests the server received during the first run and during the rerun. */
  firstRequests: number;
  rerunRequests: number;
  unitCount: number;
  sessionCount: number;
}

/** Runs `make()` twice on the same haystack and cache dir: once cold, once as a rerun. */
export async function runTwice(
  server: FakeOpenAiServer,
  make: () => Method | Promise<Method>,
  haystack: Session[],
  queries: Query[],
  spec: IndexSpec = TURN_SPEC,
): Promise<LoopbackRun> {
  const dir = mkdtempSync(join(tmpdir(), 'baseline-llm-cache-'));
  const embedder = createWinkSifEmbedder();
  try {
    const provider = () =>
      createLlmProvider(
        {
          cache: { mode: 'read-write', dir },
          maxRetries: 0,
          roles: { strategy: { baseURL: server.baseURL, model: 'fake' } },
        },
        {},
      );
    const before = server.requests.length;
    const method = await make();
    const index = createMemoryIndex(haystack, spec, embedder);
    const llm = provider();
    const firstRun: CallRecord[][] = [];
    for (const q of queries) {
      const calls: CallRecord[] = [];
      await method.run(q, index, { seed: 1, calls, llm });
      firstRun.push(calls);
    }
    const firstRequests = server.requests.length - before;
    const again = await make();
    const index2 = createMemoryIndex(haystack, spec, embedder);
    const llm2 = provider();
    for (const q of queries) await again.run(q, index2, { seed: 1, calls: [], llm: llm2 });
    return {
      firstRun,
      firstRequests,
      rerunRequests: server.requests.length - before - firstRequests,
      unitCount: index.units.length,
      sessionCount: new Set(index.units.map((u) => u.sessionId)).size,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function stages(calls: readonly CallRecord[], prefix: string): number {
  return calls.filter((c) => c.stage.startsWith(prefix)).length;
}
