/**
 * `adaptmr protocol-check --mcp "<command line>" | <url> [--preset <name>]`: checks an MCP memory server the way the
 * `mcp-memory` method will use it, through that method itself (from the registry, so the check and a run cannot
 * disagree): the handshake and tools/list, the mapping checked against each tool's inputSchema (a tool whose schema
 * lacks a mapped argument is named with the field), then a tiny haystack (English and Chinese) ingested into a
 * namespace of its own and searched — a reply whose memories carry no text is named — and an obvious match found in
 * each language. Nothing is served from or written to the user's search cache (a temporary cache folder).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { errorMessage, oneLine } from '../../core/errors.ts';
import type { Embedder, Method } from '../../core/interfaces.ts';
import type { Session } from '../../core/types.ts';
import { createMemoryIndex } from '../../index/index.ts';
import { methods } from '../../run/methods/method-registry.ts';
import type { CheckResult } from './check.ts';

export interface McpCheckOptions {
  preset: string;
  /** Variable holding the key (HTTP). */
  apiKeyEnv?: string;
}

/** A command line split as a shell would split simple words and quoted strings. */
export function splitCommandLine(line: string): string[] {
  const out: string[] = [];
  for (const m of line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) out.push(m[1] ?? m[2] ?? m[3]!);
  return out;
}

const AT = '2023-05-01T09:30:00Z';
const turn = (sessionId: string, index: number, role: 'user' | 'assistant', text: string, at: string) => ({
  id: `${sessionId}#${index + 1}`,
  sessionId,
  index,
  role,
  text,
  at,
});
const HAYSTACK: Session[] = [
  {
    id: 'pc-a',
    at: AT,
    turns: [
      turn('pc-a', 0, 'user', 'I adopted a cat named Miso last week.', AT),
      turn('pc-a', 1, 'assistant', 'Miso is a lovely name for a cat.', AT),
    ],
  },
  {
    id: 'pc-b',
    at: '2023-05-20T18:15:00Z',
    turns: [turn('pc-b', 0, 'user', '我在学习大提琴，每周上两次课。', '2023-05-20T18:15:00Z')],
  },
];
/** The method under check never embeds (the server does its own retrieval): no word vectors are loaded for it. */
const NO_EMBEDDER: Embedder = {
  id: 'none',
  dim: 1,
  embed: async () => {
    throw new Error('protocol-check: the mcp-memory method embedded a text, which it never should');
  },
};
const SEARCHES = [
  { name: 'search finds an English memory', text: 'What is the name of my cat?', expect: 'Miso' },
  { name: 'search finds a Chinese memory', text: '我在学习什么乐器？', expect: '大提琴' },
];

function optionsFor(target: string, o: McpCheckOptions): Record<string, unknown> {
  const base = { preset: o.preset, pollMs: 100, ingestTimeoutMs: 60_000, version: `protocol-check-${Date.now()}` };
  if (/^https?:\/\//i.test(target))
    return { ...base, transport: 'http', url: target, ...(o.apiKeyEnv ? { apiKeyEnv: o.apiKeyEnv } : {}) };
  const [command, ...args] = splitCommandLine(target);
  return { ...base, transport: 'stdio', command, args };
}

async function searches(method: Method): Promise<CheckResult[]> {
  const index = createMemoryIndex(
    HAYSTACK,
    { granularity: 'turn', roles: ['user', 'assistant'], includeCaptions: true },
    NO_EMBEDDER,
  );
  const results: CheckResult[] = [];
  for (const [i, s] of SEARCHES.entries()) {
    try {
      const r = await method.run({ id: `pc-q${i}`, text: s.text, askedAt: '2023-06-01T00:00:00Z' }, index, {
        seed: 1,
        calls: [],
      });
      const found = r.retrieval.context.includes(s.expect);
      results.push({
        name: s.name,
        ok: found,
        ...(found
          ? {}
          : { detail: `no memory containing "${s.expect}" in: ${oneLine(r.retrieval.context).slice(0, 200)}` }),
      });
    } catch (err) {
      results.push({ name: s.name, ok: false, detail: oneLine(errorMessage(err)) });
      break; // one failed ingestion or search reply explains the rest
    }
  }
  return results;
}

export async function runMcpProtocolCheck(target: string, o: McpCheckOptions): Promise<CheckResult[]> {
  const cacheDir = mkdtempSync(join(tmpdir(), 'adaptmr-mcp-check-'));
  const saved = process.env.ADAPTMR_CACHE_DIR;
  process.env.ADAPTMR_CACHE_DIR = cacheDir;
  let method: Method | undefined;
  try {
    const context = {
      id: 'protocol-check',
      index: { granularity: 'turn' as const, roles: ['user', 'assistant'] as const, includeCaptions: true },
      k: 3,
      seed: 1,
      runKey: `pc${Date.now().toString(36)}`,
      llmRoles: [],
    };
    method = await methods.create('mcp-memory', optionsFor(target, o), context as never, 'protocol-check --mcp');
    const [endpoint] = (await method.checkEndpoints?.()) ?? [];
    const handshake: CheckResult = {
      name: 'handshake, tools/list, tool mapping against inputSchema',
      ok: endpoint?.ok ?? false,
      ...(endpoint?.ok ? {} : { detail: oneLine(endpoint?.detail ?? 'no check ran') }),
    };
    if (!handshake.ok) return [handshake];
    return [handshake, ...(await searches(method))];
  } finally {
    await method?.close?.().catch(() => undefined);
    if (saved === undefined) delete process.env.ADAPTMR_CACHE_DIR;
    else process.env.ADAPTMR_CACHE_DIR = saved;
    rmSync(cacheDir, { recursive: true, force: true });
  }
}
