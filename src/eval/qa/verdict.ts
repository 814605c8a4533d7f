/**
 * Strict verdict parsing for LLM judges. A judge reply counts as correct only when it clearly says so; anything
 * else — "no", "incorrect", an empty reply, a hedge that does not start with yes — counts as not correct.
 *
 * LongMemEval rule: the project's one yes/no rule (src/llm/yes-no.ts). The raw reply is kept with every verdict, so
 * the official rule (`'yes' in reply.lower()`) can be recomputed.
 *
 * LoCoMo (Mem0) rule: the reply's JSON `label` must be exactly `"CORRECT"` (Mem0 scores `label == "CORRECT"`);
 * `"WRONG"`, other casings, a missing label or no JSON count as not correct, as in Mem0 (where any label other than
 * CORRECT scores 0).
 */
import { parseJsonReply } from '../../llm/json-reply.ts';
import { isYes } from '../../llm/yes-no.ts';

export function parseYesNoVerdict(reply: string): boolean {
  return isYes(reply);
}

export type LocomoLabel = 'CORRECT' | 'WRONG';

/** The label of a Mem0-style judge reply, or undefined when the reply holds no JSON object with a string `label`. */
export function parseLocomoLabel(reply: string, json?: unknown): string | undefined {
  const value =
    json !== undefined
      ? json
      : (() => {
          const p = parseJsonReply(reply);
          return p.ok ? p.value : undefined;
        })();
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const label = (value as Record<string, unknown>).label;
  return typeof label === 'string' ? label : undefined;
}

export function isLocomoCorrect(label: string | undefined): boolean {
  return label === 'CORRECT';
}

/**
 * A judge reply that is no verdict at all ("banana", an empty reply, JSON without a label): recorded as an error on
 * the answer's row — never as "wrong", which would lower the method's accuracy for the judge's fault. The run warns
 * when such replies pass 5 % of its answers (src/run/record/unreadable-verdicts.ts).
 */
export class UnreadableVerdictError extends Error {
  constructor(reply: string, expected: string) {
    const shown = reply.length > 80 ? `${reply.slice(0, 80)}…` : reply;
    super(`${UNREADABLE_VERDICT} ${JSON.stringify(shown.replace(/\s+/g, ' '))} (expected ${expected})`);
    this.name = 'UnreadableVerdictError';
  }
}

/** The start of every unreadable-verdict error (the run counts its error rows by it). */
export const UNREADABLE_VERDICT = 'the judge reply is not a verdict:';

/** First words that say "no" (a hedge such as "not sure" included: never read as yes). */
const NO_WORDS = new Set(['no', 'not', 'incorrect', 'wrong', 'false', 'nope']);

/** A yes/no reply: yes (the one yes rule, src/llm/yes-no.ts), a no word, or UnreadableVerdictError. */
export function readYesNoVerdict(reply: string): boolean {
  if (isYes(reply)) return true;
  const first = /^[\s"'`*_#>([{.,:;!-]*([A-Za-z]+)/.exec(reply)?.[1]?.toLowerCase();
  if (first !== undefined && NO_WORDS.has(first)) return false;
  throw new UnreadableVerdictError(reply, 'yes or no');
}

/** A Mem0-style reply: exactly CORRECT is correct (Mem0's rule), another casing of CORRECT / WRONG is not, anything else is UnreadableVerdictError. */
export function readLocomoVerdict(reply: string, json?: unknown): boolean {
  const label = parseLocomoLabel(reply, json);
  if (label === undefined || !/^\s*(correct|wrong)\s*$/i.test(label))
    throw new UnreadableVerdictError(reply, 'JSON with "label": "CORRECT" or "WRONG"');
  return isLocomoCorrect(label);
}
