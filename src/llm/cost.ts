/**
 * Cost of one call from the experiment's price table (USD per million tokens). A model absent from the table costs
 * 0: local servers (vLLM, Ollama, llama.cpp) are free per call, and the report lists the table used; a run under a
 * budget refuses such a model unless told it is free (src/run/spend/unpriced.ts), and the estimate prints "unknown".
 *
 * Prompt tokens the provider served from its prompt cache (`cachedTokens`, part of `promptTokens`) cost
 * `cachedInputPerMTok` (default: the input price, i.e. no discount assumed). A Batch API call costs the batch prices,
 * by default half the list prices (OpenAI's published Batch discount, input and output alike); its cached tokens
 * cost the cached price scaled by the same batch/list ratio as the input price.
 */
import type { Price } from './config.ts';

export interface CostOptions {
  /** Of `promptTokens`, those read from the provider's prompt cache. */
  cachedTokens?: number | undefined;
  /** Sent through the Batch API. */
  batch?: boolean | undefined;
}

/** The per-million prices that apply to a call (batch or list). */
export function effectivePrice(price: Price, batch: boolean): { input: number; cachedInput: number; output: number } {
  const cached = price.cachedInputPerMTok ?? price.inputPerMTok;
  if (!batch) return { input: price.inputPerMTok, cachedInput: cached, output: price.outputPerMTok };
  const input = price.batchInputPerMTok ?? price.inputPerMTok / 2;
  const ratio = price.inputPerMTok > 0 ? input / price.inputPerMTok : 0.5;
  return { input, cachedInput: cached * ratio, output: price.batchOutputPerMTok ?? price.outputPerMTok / 2 };
}

export function callCostUsd(
  prices: Readonly<Record<string, Price>>,
  model: string,
  promptTokens: number,
  completionTokens: number,
  options: CostOptions = {},
): number {
  const price = prices[model];
  if (!price) return 0;
  const p = effectivePrice(price, options.batch === true);
  const cached = Math.min(Math.max(options.cachedTokens ?? 0, 0), promptTokens);
  return ((promptTokens - cached) * p.input + cached * p.cachedInput + completionTokens * p.output) / 1_000_000;
}
