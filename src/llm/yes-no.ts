/**
 * The one yes/no rule for every LLM reply read as a verdict (QA judges, the strategies' YES/NO steps): the first
 * word of the reply, after leading whitespace, quotes, asterisks and other punctuation, lower-cased, must be exactly
 * `yes`. So "Yes.", "**YES**", "yes, but…" are yes; "no", "No.", "incorrect", "The answer is yes", "yesterday",
 * "not sure" and "" are not — a hedge or a "no" is never read as yes.
 *
 * LongMemEval's official script uses `'yes' in reply.lower()` (`src/evaluation/evaluate_qa.py`), which would also count
 * "eyes" or "no, not yes"; with its max_tokens = 10 replies are short and the two rules agree on well-behaved judges.
 * The plan's strategies compare `llm_call(prompt).strip() == "YES"`; this rule accepts the same replies plus
 * punctuation and casing variants.
 */
export function isYes(reply: string): boolean {
  const m = /^[\s"'`*_#>([{.,:;!-]*([A-Za-z]+)/.exec(reply);
  return m?.[1]?.toLowerCase() === 'yes';
}
