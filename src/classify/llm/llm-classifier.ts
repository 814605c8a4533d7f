/**
 * The few-shot LLM classifier (plan §2.2 option A) through the shared LLM client (role `classifier`), which
 * caches and accounts every call. Asks for structured output (or, with `reply: name`, the plan's bare type name)
 * and, unless disabled, for the top-5
 * log-probabilities of each token; probabilities.ts turns the reply into a distribution and says which source it
 * used (logprobs → stated → one-hot).
 */
import { z } from 'zod';
import { InputError } from '../../core/errors.ts';
import type { Classifier, Ctx } from '../../core/interfaces.ts';
import type { LlmClient } from '../../core/llm.ts';
import type { Query } from '../../core/types.ts';
import type { Classification } from '../result.ts';
import { buildPrompt, promptLanguage } from './prompts.ts';
import { readReply, REPLY_JSON_SCHEMA } from './probabilities.ts';

export const LlmClassifierOptionsSchema = z
  .object({
    /** Prompt language; `auto` = Chinese when the question has Han characters. */
    language: z.enum(['auto', 'en', 'zh']).default('auto'),
    /** `json`: ask for {type, probabilities} with a JSON schema; `name`: the plan's own "type name only" reply. */
    reply: z.enum(['json', 'name']).default('json'),
    /** Ask for token log-probabilities (ignored by endpoints that do not give them). */
    logprobs: z.boolean().default(true),
    temperature: z.number().min(0).max(2).default(0),
    maxTokens: z.number().int().positive().default(120),
  })
  .strict();
export type LlmClassifierOptions = z.infer<typeof LlmClassifierOptionsSchema>;

export class LlmClassifier implements Classifier {
  readonly name = 'llm';
  readonly usesLlm = true;
  readonly options: LlmClassifierOptions;
  constructor(
    options: Partial<LlmClassifierOptions> = {},
    /** A fixed client (CLI, benchmarks); otherwise `ctx.llm.forRole('classifier')` per call. */
    private readonly client?: LlmClient,
  ) {
    this.options = LlmClassifierOptionsSchema.parse(options);
  }

  private clientFor(ctx: Ctx | undefined): LlmClient {
    if (this.client) return this.client;
    if (ctx?.llm?.has('classifier')) return ctx.llm.forRole('classifier');
    throw new InputError('the llm classifier needs an LLM configured for the role "classifier"');
  }

  async classify(query: Query, ctx?: Ctx): Promise<Classification> {
    const client = this.clientFor(ctx);
    const o = this.options;
    const result = await client.chat(
      {
        messages: [{ role: 'user', content: buildPrompt(query.text, promptLanguage(query.text, o.language), o.reply) }],
        temperature: o.temperature,
        maxTokens: o.maxTokens,
        ...(o.reply === 'json' ? { jsonSchema: { name: 'query_type', schema: REPLY_JSON_SCHEMA } } : {}),
        ...(o.logprobs ? { logprobs: { top: 5 } } : {}),
      },
      { stage: 'classify', calls: ctx?.calls ?? [] },
    );
    const read = readReply(result.text, result.json, result.logprobs);
    if (!read)
      throw new InputError(
        `classifier reply names no known type: ${JSON.stringify(result.text.slice(0, 200))}`,
        `question ${query.id}`,
      );
    return read;
  }
}
