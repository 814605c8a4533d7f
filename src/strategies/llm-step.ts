/**
 * The LLM steps the plan gives some strategies (entity extraction, event split, update check, decomposition,
 * intermediate answers, relevance check) go through the shared client for role `strategy` — cached and accounted by
 * src/llm — at temperature 0. A reply with no JSON at all is the client's error (retried there, then raised, and
 * recorded on the question's row by the runner); JSON of the wrong shape is not an error of the question: the step
 * falls back to its offline rule and the strategy records the fallback (`notes.llmFallback`).
 */
import { z } from 'zod';
import type { Ctx } from '../core/interfaces.ts';
import { InputError } from '../core/errors.ts';
import type { LlmClient } from '../core/llm.ts';

export function strategyClient(ctx: Ctx, strategy: string): LlmClient {
  if (!ctx.llm || !ctx.llm.has('strategy')) {
    throw new InputError('mode "llm" needs an LLM for role "strategy" (configure one, or set mode: offline)', `strategy ${strategy}`);
  }
  return ctx.llm.forRole('strategy');
}

/** Extracts the first JSON value from a reply that may wrap it in prose or a ``` fence. */
export function parseJsonLoose(text: string): unknown {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/u.exec(text);
  const body = (fenced ? fenced[1]! : text).trim();
  try {
    return JSON.parse(body);
  } catch {
    const start = body.search(/[[{]/u);
    if (start < 0) return undefined;
    const open = body[start]!;
    const end = body.lastIndexOf(open === '[' ? ']' : '}');
    if (end <= start) return undefined;
    try {
      return JSON.parse(body.slice(start, end + 1));
    } catch {
      return undefined;
    }
  }
}

export type StepResult<T> = { ok: true; value: T } | { ok: false; reply: string };

/** One JSON-returning LLM step. `stage` names the step in the call accounting (`strategy.factual.entities`). */
export async function askJson<T>(
  client: LlmClient,
  ctx: Ctx,
  stage: string,
  prompt: string,
  schema: z.ZodType<T>,
): Promise<StepResult<T>> {
  const result = await client.chat(
    { messages: [{ role: 'user', content: prompt }], temperature: 0, jsonSchema: { name: stage.replace(/[^A-Za-z0-9_-]/gu, '_'), schema: z.toJSONSchema(schema) as Record<string, unknown> } },
    { stage, calls: ctx.calls },
  );
  const parsed = schema.safeParse(result.json ?? parseJsonLoose(result.text));
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, reply: result.text.slice(0, 200) };
}

/** One YES/NO LLM step (plan: `llm_call(prompt).strip() == "YES"`); anything but a leading YES counts as NO, so a
 * "No"/"not sure" is never read as yes. */
export async function askYesNo(client: LlmClient, ctx: Ctx, stage: string, prompt: string): Promise<boolean> {
  const result = await client.chat({ messages: [{ role: 'user', content: prompt }], temperature: 0, maxTokens: 5 }, { stage, calls: ctx.calls });
  return /^\W*yes\b/iu.test(result.text.trim());
}

/** Plain-text LLM step. */
export async function askText(client: LlmClient, ctx: Ctx, stage: string, prompt: string, maxTokens = 200): Promise<string> {
  const result = await client.chat({ messages: [{ role: 'user', content: prompt }], temperature: 0, maxTokens }, { stage, calls: ctx.calls });
  return result.text.trim();
}
