/**
 * The token counts of a reply's `usage`, checked: a count that is negative, fractional, not finite or not a number
 * is not a count the provider could have billed, so the reply is refused (`InvalidUsageError`, never retried — the
 * same request would be paid again) instead of being priced as a negative or fractional cost. A reply without
 * usage is counted with the tokenizer by the caller.
 */

/** A reply whose `usage` holds something other than a non-negative integer token count. Not retried. */
export class InvalidUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidUsageError';
  }
}

export interface UsageCounts {
  promptTokens: number;
  completionTokens: number;
}

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/** The counts of `usage`, undefined when it reports none, or InvalidUsageError when it reports one that is not a count. */
export function usageCounts(usage: unknown): UsageCounts | undefined {
  if (typeof usage !== 'object' || usage === null) return undefined;
  const u = usage as { prompt_tokens?: unknown; completion_tokens?: unknown };
  if (u.prompt_tokens === undefined && u.completion_tokens === undefined) return undefined;
  for (const key of ['prompt_tokens', 'completion_tokens'] as const) {
    if (!isCount(u[key]))
      throw new InvalidUsageError(
        `the reply's usage.${key} is ${JSON.stringify(u[key]) ?? 'missing'}, not a count of tokens; the call is not priced`,
      );
  }
  return { promptTokens: u.prompt_tokens as number, completionTokens: u.completion_tokens as number };
}
