/**
 * Test fixtures for the spec memory systems (generative-agents, reasoningbank, rago): a tiny deterministic embedder
 * (hashed bag of words, CJK per character — no model file, so tests stay fast), a loopback OpenAI-compatible server
 * scripted to answer each system's prompts in the shape the source expects, LoCoMo conversations from the shared
 * datasets, and a helper that runs a method on several questions of several conversations at once.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallRecord, Ctx, Embedder, IndexSpec, MemoryIndex, Method } from '../../src/core/interfaces.ts';
import type { LlmProvider } from '../../src/core/llm.ts';
import type { Instance, MethodOutput, Query } from '../../src/core/types.ts';
import { loadDataset } from '../../src/data/index.ts';
import { defaultTokenizer } from '../../src/index/tokenizers.ts';
import { createMemoryIndex } from '../../src/index/memory-index.ts';
import { createLlmProvider } from '../../src/llm/index.ts';
import {
  startFakeOpenAiServer,
  type ChatRequestBody,
  type FakeOpenAiServer,
  type FakeReply,
} from '../../src/llm/testing/fake-openai-server.ts';
import { TEST_DATA_DIR } from '../../test/data-path.ts';

const tokenize = defaultTokenizer({ stopwords: true });

/** Hashed bag of words, 64 dimensions, unit length; texts sharing words get a high cosine. */
export const hashEmbedder: Embedder = {
  id: 'test-hash-64',
  dim: 64,
  embed: (texts) =>
    Promise.resolve(
      texts.map((t) => {
        const v = new Float32Array(64);
        for (const tok of tokenize(t)) v[createHash('md5').update(tok).digest().readUInt8(0) % 64]! += 1;
        let n = 0;
        for (const x of v) n += x * x;
        n = Math.sqrt(n) || 1;
        return v.map((x) => x / n);
      }),
    ),
};

/** Embeds each text as the fixed vector given for it (for hand-computed cosines); unknown texts fail. */
export function tableEmbedder(table: Record<string, number[]>): Embedder {
  return {
    id: 'test-table',
    dim: Object.values(table)[0]?.length ?? 1,
    embed: (texts) =>
      Promise.all(
        texts.map((t) => {
          const v = table[t];
          if (!v) return Promise.reject(new Error(`tableEmbedder: no vector for "${t}"`));
          const n = Math.sqrt(v.reduce((a, x) => a + x * x, 0)) || 1;
          return Float32Array.from(v.map((x) => x / n));
        }),
      ),
  };
}

const prompt = (body: ChatRequestBody) => body.messages.map((m) => m.content).join('\n');

/** Replies in the shape each spec system's prompt asks for, derived from the prompt so they vary by input. */
export function seedChat(body: ChatRequestBody): FakeReply {
  const p = prompt(body);
  if (p.includes('rate the likely poignancy')) return { text: String((p.length % 10) + 1) };
  if (p.includes('3 most salient high-level questions'))
    return {
      text: '1. What matters most to Caroline?\n2. How does Melanie spend her time?\n3. What do they plan next?',
    };
  if (p.includes('What high-level insights can you infer')) {
    const idx = [...p.matchAll(/^(\d+)\. /gmu)].map((m) => m[1]!).slice(0, 2);
    return {
      text: idx.length
        ? `1. They care about each other [${idx.join(', ')}]\n2. An insight citing nothing shown [99999]`
        : 'no insight',
    };
  }
  if (p.includes('Please condense the insights generated in this list')) {
    return { text: p.split('Please condense the insights generated in this list:')[1]!.trim() };
  }
  if (p.includes('提取可复用的推理策略')) {
    const first = /步骤 1 \[[^\]]*\]: (.{0,80})/u.exec(p)?.[1] ?? '对话';
    return {
      text: `\`\`\`json\n${JSON.stringify({ memories: [{ title: '对话要点', description: '回忆对话内容', content: first }] })}\n\`\`\``,
    };
  }
  if (p.includes('提炼出一条更通用、更深层的经验'))
    return {
      text: JSON.stringify({
        title: '合并',
        description: '合并的经验',
        content: '合并内容',
        query: '<通用场景：对话>',
        abstraction_level: 1,
      }),
    };
  if (p.includes('Analyze the completed task')) {
    const first = /Task Result: ([^\n]{0,120})/u.exec(p)?.[1] ?? 'conversation';
    return {
      text: JSON.stringify({
        should_store: true,
        reasoning: 'useful',
        memories: [
          { type: 'fact', content: first, importance: 0.8 },
          { type: 'mood', content: 'not a type', importance: 0.1 },
        ],
      }),
    };
  }
  return { text: 'unknown' };
}

export function startSeedServer(): Promise<FakeOpenAiServer> {
  return startFakeOpenAiServer({ chat: seedChat });
}

/** A provider whose every role points at the server, caching into `cacheDir` (read-write). */
export function seedProvider(server: FakeOpenAiServer, cacheDir: string): LlmProvider {
  const role = { baseURL: server.baseURL, model: 'fake-strategy' };
  return createLlmProvider(
    {
      cache: { mode: 'read-write', dir: cacheDir },
      maxRetries: 1,
      retryBaseMs: 1,
      concurrency: 8,
      roles: { strategy: role, reader: role },
    },
    {},
  );
}

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'adaptmr-seed-'));
}

export interface Conversation {
  haystackId: string;
  index: MemoryIndex;
  queries: Query[];
}

/** The first `conversations` LoCoMo conversations, `perConversation` questions each, indexed with `spec`. */
export async function locomoConversations(
  spec: IndexSpec,
  conversations: number,
  perConversation: number,
  embedder: Embedder = hashEmbedder,
): Promise<Conversation[]> {
  const data = await loadDataset({ name: 'locomo' }, TEST_DATA_DIR);
  const byHaystack = new Map<string, Instance[]>();
  for (const i of data.instances) byHaystack.set(i.haystackId, [...(byHaystack.get(i.haystackId) ?? []), i]);
  return [...byHaystack.values()].slice(0, conversations).map((list) => ({
    haystackId: list[0]!.haystackId,
    index: createMemoryIndex(list[0]!.haystack, spec, embedder),
    queries: list
      .slice(0, perConversation)
      .map((i) => Object.freeze({ id: i.query.id, text: i.query.text, askedAt: i.query.askedAt })),
  }));
}

/** Runs every question of every conversation concurrently; returns outputs and each question's calls. */
export async function runAll(
  method: Method,
  convs: readonly Conversation[],
  llm?: LlmProvider,
): Promise<{ out: MethodOutput; calls: CallRecord[]; haystackId: string }[]> {
  return Promise.all(
    convs.flatMap((c) =>
      c.queries.map(async (q) => {
        const ctx: Ctx = { seed: 1, calls: [], ...(llm ? { llm } : {}) };
        const out = await method.run(q, c.index, ctx);
        return { out, calls: ctx.calls, haystackId: c.haystackId };
      }),
    ),
  );
}
