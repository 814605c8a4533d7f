/**
 * Token counting for when an endpoint reports no usage, and for the reader's context-size figures.
 *
 * Uses js-tiktoken's `o200k_base` (the GPT-4o / GPT-4.1 / o-series encoding; the official LongMemEval reader also
 * counts with `tiktoken.get_encoding('o200k_base')`, `src/generation/run_generation.py`). For non-OpenAI models
 * (Llama, Qwen, Mistral…) the count is an approximation of their own tokenizer's, typically within ~10–20 %.
 * The encoder is built lazily once per process (loading the ranks takes ~100 ms).
 */
import { createRequire } from 'node:module';
import type { Tiktoken } from 'js-tiktoken/lite';
import type o200kBase from 'js-tiktoken/ranks/o200k_base';

let encoder: Tiktoken | undefined;

function enc(): Tiktoken {
  // Required on the first count, so processes that never count tokens do not load the ranks module.
  if (!encoder) {
    const require = createRequire(import.meta.url);
    const { Tiktoken: Encoder } = require('js-tiktoken/lite') as typeof import('js-tiktoken/lite');
    encoder = new Encoder(require('js-tiktoken/ranks/o200k_base') as typeof o200kBase);
  }
  return encoder;
}

/** Tokens in a text (o200k_base). Special-token text is counted as ordinary text, never interpreted. */
export function countTokens(text: string): number {
  if (text === '') return 0;
  return enc().encode(text, [], []).length;
}

/** Token ids of a text, for truncation to a budget. */
export function encodeTokens(text: string): number[] {
  return enc().encode(text, [], []);
}

export function decodeTokens(tokens: number[]): string {
  return enc().decode(tokens);
}

/**
 * Prompt tokens of a chat request, following OpenAI's published accounting for chat models: 3 tokens of framing per
 * message, 1 for the role name, and 3 priming the reply.
 */
export function countChatTokens(messages: readonly { role: string; content: string }[]): number {
  let n = 3;
  for (const m of messages) n += 3 + countTokens(m.role) + countTokens(m.content);
  return n;
}
