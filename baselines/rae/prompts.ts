/**
 * The LLM prompts of the retrieval-augmented experience pipeline (its source design, trace mode: ① query rewrite,
 * ④ rerank, ⑤ summary, ⑥ sufficiency check) and the parsing of their replies. The spec names the steps and their
 * inputs/outputs but gives no prompt text, so these are ours, written for conversations instead of agent traces:
 * a "similar task" is a past conversation unit, the "experience" is what those conversations say that helps answer
 * the question. Every prompt asks the model to keep the question's language, so Chinese questions get Chinese queries
 * and summaries; parsing is language-neutral.
 */
import { z } from 'zod';
import type { ChatMessage } from '../../src/core/llm.ts';
import { formatDate } from '../../src/core/render.ts';
import type { MemoryUnit } from '../../src/core/types.ts';
import { readJson } from '../llm-mode.ts';

const MAX_UNIT_CHARS = 600;

function clip(text: string): string {
  return text.length > MAX_UNIT_CHARS ? `${text.slice(0, MAX_UNIT_CHARS)}…` : text;
}

function numbered(units: readonly MemoryUnit[]): string {
  return units.map((u, i) => `[${i + 1}] (${formatDate(u.at)}) ${u.speaker ?? u.role}: ${clip(u.text)}`).join('\n');
}

/** ① Rewrite: several search queries for the question; later rounds also see what was found and judged insufficient. */
export function rewritePrompt(
  question: string,
  askedAt: string,
  n: number,
  previous?: { queries: string[]; experience: string },
): ChatMessage[] {
  const feedback = previous
    ? `\n\nQueries already tried: ${JSON.stringify(previous.queries)}\nWhat they found (judged not sufficient to answer):\n${previous.experience}\n\nWrite new queries that look for the information still missing.`
    : '';
  return [
    {
      role: 'user',
      content: `You search a user's past conversations for the memories that answer a question. Rewrite the question into ${n} short, different search queries (names, events, objects, times it depends on), in the question's language.${feedback}\n\nQuestion date: ${formatDate(askedAt)}\nQuestion: ${question}\n\nReply with JSON only: {"queries": ["…", "…"]}`,
    },
  ];
}

export function parseQueries(reply: string, n: number): string[] | undefined {
  const v = readJson(reply, z.union([z.object({ queries: z.array(z.unknown()) }), z.array(z.unknown())]));
  if (!v) return undefined;
  const list = (Array.isArray(v) ? v : v.queries)
    .filter((q): q is string => typeof q === 'string' && q.trim() !== '')
    .map((q) => q.trim());
  return list.length > 0 ? [...new Set(list)].slice(0, n) : undefined;
}

/** ④ Listwise rerank of the candidates. */
export function rerankPrompt(question: string, candidates: readonly MemoryUnit[]): ChatMessage[] {
  return [
    {
      role: 'user',
      content: `Rank the memories below by how useful each is for answering the question, most useful first.\n\nQuestion: ${question}\n\nMemories:\n${numbered(candidates)}\n\nReply with JSON only: the list of memory numbers, most useful first, e.g. [3, 1, 2].`,
    },
  ];
}

/**
 * The candidate positions (0-based) in the model's order; numbers out of range or repeated are dropped and the
 * candidates it left out follow in their retrieval order, so a partial ranking still ranks everything.
 */
export function parseRanking(reply: string, count: number): number[] | undefined {
  const v = readJson(reply, z.union([z.array(z.unknown()), z.object({ ranking: z.array(z.unknown()) })]));
  if (!v) return undefined;
  const seen = new Set<number>();
  const order: number[] = [];
  for (const x of Array.isArray(v) ? v : v.ranking) {
    const n = typeof x === 'number' ? x : typeof x === 'string' ? Number(/\d+/u.exec(x)?.[0]) : NaN;
    if (Number.isInteger(n) && n >= 1 && n <= count && !seen.has(n - 1)) {
      seen.add(n - 1);
      order.push(n - 1);
    }
  }
  if (order.length === 0) return undefined;
  for (let i = 0; i < count; i++) if (!seen.has(i)) order.push(i);
  return order;
}

/** ⑤ Summary of the experience the top memories hold for this question. */
export function summaryPrompt(question: string, askedAt: string, units: readonly MemoryUnit[]): ChatMessage[] {
  return [
    {
      role: 'user',
      content: `Below are memories from a user's past conversations, with their dates. Summarize what they say that helps answer the question: keep every relevant fact, name, number and date (write dates out), note conflicts and which statement is newer, and leave out what is irrelevant. Write in the question's language. If nothing is relevant, say so.\n\nQuestion date: ${formatDate(askedAt)}\nQuestion: ${question}\n\nMemories:\n${numbered(units)}\n\nSummary:`,
    },
  ];
}

/** ⑥ Sufficiency check (read with the project's yes/no rule). */
export function sufficiencyPrompt(question: string, experience: string): ChatMessage[] {
  return [
    {
      role: 'user',
      content: `Question: ${question}\n\nRetrieved experience:\n${experience}\n\nIs this enough to answer the question? Answer YES or NO only.`,
    },
  ];
}
