/**
 * Cost of one call from the experiment's price table (USD per million tokens). A model absent from the table costs
 * 0: local servers (vLLM, Ollama, llama.cpp) are free per call, and the report lists the table used.
 */
import type { Price } from './config.ts';

export function callCostUsd(
  prices: Readonly<Record<string, Price>>,
  model: string,
  promptTokens: number,
  completionTokens: number,
): number {
  const price = prices[model];
  if (!price) return 0;
  return (promptTokens * price.inputPerMTok + completionTokens * price.outputPerMTok) / 1_000_000;
}
