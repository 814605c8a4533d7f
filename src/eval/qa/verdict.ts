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
