/**
 * The registry of every method an experiment can name: the baselines (baselines/) and the AdaptMR method
 * (src/routing). Configs refer to entries by name; options are checked against each entry's strict schema before
 * any work starts. Each entry's module is imported when a config first names it (`Registry.registerLazy`), so a run
 * loads the methods it uses and no others (a BM25 run does not load the router, the strategies or the classifiers).
 */
import { Registry } from '../../core/registry.ts';
import type { Method, MethodFactoryContext } from '../../core/interfaces.ts';

export const methods = new Registry<Method, MethodFactoryContext>('method')
  .registerLazy('bm25', async () => (await import('../../../baselines/bm25/bm25-method.ts')).bm25Entry)
  .registerLazy(
    'unified-embedding',
    async () =>
      (await import('../../../baselines/unified-embedding/unified-embedding-method.ts')).unifiedEmbeddingEntry,
  )
  .registerLazy('full-context', async () => (await import('../../../baselines/full-context/index.ts')).fullContextEntry)
  .registerLazy('no-memory', async () => (await import('../../../baselines/no-memory/index.ts')).noMemoryEntry)
  .registerLazy('mem0', async () => (await import('../../../baselines/mem0/index.ts')).mem0Entry)
  .registerLazy('zep', async () => (await import('../../../baselines/zep/index.ts')).zepEntry)
  .registerLazy(
    'http-memory',
    async () => (await import('../../../baselines/http-memory/http-memory-method.ts')).httpMemoryEntry,
  )
  .registerLazy(
    'mcp-memory',
    async () => (await import('../../../baselines/mcp-memory/mcp-memory-method.ts')).mcpMemoryEntry,
  )
  .registerLazy(
    'longmemeval-rag',
    async () => (await import('../../../baselines/longmemeval-rag/longmemeval-rag-method.ts')).longMemEvalRagEntry,
  )
  .registerLazy('a-mem', async () => (await import('../../../baselines/a-mem/a-mem-method.ts')).aMemEntry)
  .registerLazy('rae', async () => (await import('../../../baselines/rae/rae-method.ts')).raeEntry)
  .registerLazy(
    'generative-agents',
    async () => (await import('../../../baselines/generative-agents/index.ts')).generativeAgentsEntry,
  )
  .registerLazy(
    'reasoningbank',
    async () => (await import('../../../baselines/reasoningbank/index.ts')).reasoningBankEntry,
  )
  .registerLazy('rago', async () => (await import('../../../baselines/rago/index.ts')).ragoEntry)
  .registerLazy('adaptmr', async () => (await import('../../routing/adaptmr-method.ts')).adaptmrEntry)
  .registerLazy('strategy', async () => (await import('../../routing/strategy-method.ts')).strategyMethodEntry)
  .freeze();
