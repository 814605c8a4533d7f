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
import { parseJsonReply } from '../llm/json-reply.ts';
import { isYes } from '../llm/yes-no.ts';

export function strategyClient(ctx: Ctx, strategy: string): LlmClient {
  if (!ctx.llm?.has('strategy')) {
    throw new InputError(
      'mode "llm" needs an LLM for role "strategy" (configure one, or set mode: offline)',
      `strategy ${strategy}`,
    );
  }
  return ctx.llm.forRole('strategy');
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
    {
      messages: [{ role: 'user', content: prompt }],
      temperature: 0,
      jsonSchema: {
        name: stage.replace(/[^A-Za-z0-9_-]/gu, '_'),
        schema: z.toJSONSchema(schema) as Record<string, unknown>,
      },
    },
    { stage, calls: ctx.calls },
  );
  const loose = parseJsonReply(result.text);
  const parsed = schema.safeParse(result.json ?? (loose.ok ? loose.value : undefined));
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, reply: result.text.slice(0, 200) };
}

/** One YES/NO LLM step (plan: `llm_call(prompt).strip() == "YES"`), read with the project's yes/no rule. */
export async function askYesNo(client: LlmClient, ctx: Ctx, stage: string, prompt: string): Promise<boolean> {
  const result = await client.chat(
    { messages: [{ role: 'user', content: prompt }], temperature: 0, maxTokens: 5 },
    { stage, calls: ctx.calls },
  );
  return isYes(result.text);
}

/** Plain-text LLM step. */
export async function askText(
  client: LlmClient,
  ctx: Ctx,
  stage: string,
  prompt: string,
  maxTokens = 200,
): Promise<string> {
  const result = await client.chat(
    { messages: [{ role: 'user', content: prompt }], temperature: 0, maxTokens },
    { stage, calls: ctx.calls },
  );
  return result.text.trim();
}
