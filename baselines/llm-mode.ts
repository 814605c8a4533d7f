/**
 * How the spec/paper baselines with LLM steps (longmemeval-rag, a-mem, rae) pick and use their LLM. Each has the
 * options `mode` (`auto`: LLM steps when the experiment configures the method's role, else the offline stand-ins;
 * `llm`; `offline`) and `llmRole` (default `strategy`, the role the contract names; an experiment that gives
 * no `strategy` role may point a method at another one). The mode is decided once at creation from
 * `MethodFactoryContext.llmRoles`, so `capabilities.llmRoles` says exactly what the runner must provide.
 *
 * Replies are read with the project's lenient JSON parsing (src/llm/json-reply.ts) and checked with zod; a reply that
 * does not parse is not an error of the question: the step falls back (as the sources do — LongMemEval's expansion
 * scripts store `None`, A-mem's `analyze_content` returns empty metadata) and the method counts the fallback in its
 * notes. No `response_format` is sent: the official prompts already state the JSON shape, and the client treats a
 * non-JSON reply to a structured request as a failed call.
 */
import { z } from 'zod';
import { InputError } from '../src/core/errors.ts';
import type { Ctx, MethodFactoryContext } from '../src/core/interfaces.ts';
import { LLM_ROLES, type ChatMessage, type LlmRole } from '../src/core/llm.ts';
import { parseJsonReply } from '../src/llm/json-reply.ts';

export const LlmModeOptionsShape = {
  /** `auto`: LLM steps when the experiment configures `llmRole`, offline stand-ins otherwise. */
  mode: z.enum(['auto', 'llm', 'offline']).default('auto'),
  /** The LLM role the method's steps use. */
  llmRole: z.enum(LLM_ROLES).default('strategy'),
};

export interface LlmMode {
  /** The role the LLM steps use, or undefined when the method runs its offline stand-ins. */
  role: LlmRole | undefined;
}

export function resolveLlmMode(
  options: { mode: 'auto' | 'llm' | 'offline'; llmRole: LlmRole },
  context: MethodFactoryContext,
): LlmMode {
  if (options.mode === 'offline') return { role: undefined };
  if (options.mode === 'llm') return { role: options.llmRole };
  return { role: context.llmRoles.includes(options.llmRole) ? options.llmRole : undefined };
}

/** One chat call through the shared client (cached, accounted under `stage`); returns the reply text. */
export async function chatText(
  ctx: Ctx,
  role: LlmRole,
  stage: string,
  messages: ChatMessage[],
  maxTokens: number,
  where: string,
): Promise<string> {
  if (!ctx.llm?.has(role))
    throw new InputError(`needs an LLM for role "${role}" (configure one, or set mode: offline)`, where);
  const result = await ctx.llm.forRole(role).chat({ messages, temperature: 0, maxTokens }, { stage, calls: ctx.calls });
  return result.text;
}

/** The reply's JSON checked against `schema`, or undefined when it holds none or the wrong shape. */
export function readJson<T>(text: string, schema: z.ZodType<T>): T | undefined {
  const loose = parseJsonReply(text);
  if (!loose.ok) return undefined;
  const parsed = schema.safeParse(loose.value);
  return parsed.success ? parsed.data : undefined;
}

/** Min-max normalisation to [0, 1] (all equal → all 0), the fusion the offline stand-ins use. */
export function minMax(scores: ArrayLike<number>): Float64Array {
  const out = new Float64Array(scores.length);
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = 0; i < scores.length; i++) {
    lo = Math.min(lo, scores[i]!);
    hi = Math.max(hi, scores[i]!);
  }
  const span = hi - lo;
  for (let i = 0; i < scores.length; i++) out[i] = span > 0 ? (scores[i]! - lo) / span : 0;
  return out;
}

/** Units ranked by score, best first, ties by index position (deterministic). */
export function rankByScore(scores: ArrayLike<number>): number[] {
  return Array.from({ length: scores.length }, (_, i) => i).sort((a, b) => scores[b]! - scores[a]! || a - b);
}
