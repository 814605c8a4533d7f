/**
 * The reader's context-token budget (`qa.reader.contextTokens`, src/core/qa-config.ts): one budget set by the
 * experiment and applied identically to every method's rendered memory before the reader sees it — the same
 * tokenizer (o200k_base, src/llm/tokens.ts) and the same rule for all: keep the first `budget` tokens of the context
 * text (methods render their most relevant memories first, so the cut drops the least relevant tail). A cut that
 * would split a multi-byte character (Chinese text) backs off to the last whole character.
 */
import { countTokens, decodeTokens, encodeTokens } from '../../llm/tokens.ts';

export interface BudgetedContext {
  text: string;
  /** o200k_base tokens of `text` (≤ the budget). */
  tokens: number;
  /** Tokens of the context before the cut, when the budget cut it. */
  cutFrom?: number;
}

/** `context` within `budget` tokens (unchanged when no budget is set or it fits). */
export function applyContextBudget(context: string, budget: number | undefined): BudgetedContext {
  const tokens = countTokens(context);
  if (budget === undefined || tokens <= budget) return { text: context, tokens };
  const ids = encodeTokens(context);
  let end = budget;
  let text = decodeTokens(ids.slice(0, end));
  // A token boundary inside a UTF-8 sequence decodes to U+FFFD; drop tokens until the prefix ends on a whole character.
  while (end > 0 && text.endsWith('\uFFFD') && !context.startsWith(text)) {
    end -= 1;
    text = decodeTokens(ids.slice(0, end));
  }
  return { text, tokens: countTokens(text), cutFrom: tokens };
}
