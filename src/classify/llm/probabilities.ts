/**
 * Turns an LLM reply into a type distribution. Two reply formats are read: the JSON object this harness asks for
 * (`{"type": …, "probabilities": {…}}`, parsed tolerantly by src/llm/json-reply.ts), and the plan's own format —
 * the type name alone (plan §2.2 option A: "请只返回类型名称"), as an id, a Chinese or English type name, `T2`, …
 * (labels.ts `labelInText`). Then the issue's fallback chain:
 *  1. log-probabilities — the token that holds the first character of the type (the `"type"` value of a JSON
 *     reply, or the first letter of a bare reply); its
 *     top alternatives (which the endpoint returns when asked `logprobs: { top: 5 }`) are mapped to labels by
 *     prefix: an alternative (with any text that precedes the value inside that same token removed, e.g. a
 *     leading `"`) names label L when it is a non-empty prefix of L's id or of its Chinese name. The five ids
 *     start with different letters (f t k m a), the Chinese names with different characters (事 时 知 多 拒), so
 *     each alternative names at most one label. exp(logprob) is summed per label and
 *     renormalised over the five; mass on other tokens is dropped. Used when at least one alternative maps.
 *  2. the stated distribution — the reply's `probabilities` object, renormalised, when valid;
 *  3. one-hot on the stated type.
 * The source used is returned with the distribution.
 */
import { z } from 'zod';
import type { TokenLogprob } from '../../core/llm.ts';
import { ADAPT_TYPES, oneHot, type AdaptType } from '../../core/types.ts';
import { parseJsonReply } from '../../llm/json-reply.ts';
import { labelInText, labelToType, PLAN_ZH_NAMES, PROMPT_LABELS } from '../labels.ts';
import { normalise, type ProbSource } from '../result.ts';

export const ReplySchema = z.object({
  type: z.string(),
  probabilities: z.record(z.string(), z.number()).optional(),
});

/** JSON schema sent as structured output (`ChatRequest.jsonSchema`). */
export const REPLY_JSON_SCHEMA: Record<string, unknown> = {
  type: 'object',
  additionalProperties: false,
  required: ['type', 'probabilities'],
  properties: {
    type: { type: 'string', enum: ADAPT_TYPES.map((t) => PROMPT_LABELS[t]) },
    probabilities: {
      type: 'object',
      additionalProperties: false,
      required: ADAPT_TYPES.map((t) => PROMPT_LABELS[t]),
      properties: Object.fromEntries(ADAPT_TYPES.map((t) => [PROMPT_LABELS[t], { type: 'number' }])),
    },
  },
};

/** The names a first-token alternative is matched against, per type. */
const namesOf = (t: AdaptType): readonly string[] => [PROMPT_LABELS[t], ...PLAN_ZH_NAMES[t]];

function nameOf(rest: string): AdaptType | undefined {
  return ADAPT_TYPES.find((t) =>
    namesOf(t).some((n) => n.startsWith(rest) || (rest.length > n.length && rest.startsWith(n))),
  );
}

/** Where the type name starts: the `"type"` value of a JSON reply, else the first letter of a bare reply. */
function typeStart(text: string, bare: boolean): number | undefined {
  if (!bare) {
    const m = /"type"\s*:\s*"/.exec(text);
    return m ? m.index + m[0].length : undefined;
  }
  const m = /[\p{L}\p{N}]/u.exec(text);
  return m?.index;
}

/**
 * Distribution over the five labels from the logprobs of the reply's type token; undefined when not readable.
 * `bare`: the reply is the type name alone (the plan's format), not JSON.
 */
export function probsFromLogprobs(
  text: string,
  logprobs: readonly TokenLogprob[] | undefined,
  bare = false,
): Record<AdaptType, number> | undefined {
  if (!logprobs?.length) return undefined;
  const valueStart = typeStart(text, bare);
  if (valueStart === undefined) return undefined;
  // Token texts concatenate to the reply; find the token covering valueStart.
  let offset = 0;
  for (const tok of logprobs) {
    const end = offset + tok.token.length;
    if (valueStart < end) {
      const lead = text.slice(offset, valueStart); // part of this token before the value, e.g. `"`
      const mass = Object.fromEntries(ADAPT_TYPES.map((t) => [t, 0])) as Record<AdaptType, number>;
      let mapped = false;
      const alternatives = tok.top.length ? tok.top : [{ token: tok.token, logprob: tok.logprob }];
      for (const alt of alternatives) {
        if (!alt.token.startsWith(lead)) continue;
        const rest = alt.token.slice(lead.length).toLowerCase();
        if (!rest) continue;
        const label = nameOf(rest);
        if (!label) continue;
        mass[label] += Math.exp(alt.logprob);
        mapped = true;
      }
      return mapped ? normalise(mass) : undefined;
    }
    offset = end;
  }
  return undefined;
}

export interface ReadReply {
  type: AdaptType;
  probs: Record<AdaptType, number>;
  source: Extract<ProbSource, 'logprobs' | 'stated' | 'one-hot'>;
}

/** Parses the reply (already-parsed JSON when the client gives it) and applies the fallback chain. */
export function readReply(
  text: string,
  json: unknown,
  logprobs: readonly TokenLogprob[] | undefined,
): ReadReply | undefined {
  let value = json;
  if (value === undefined) {
    const p = parseJsonReply(text);
    value = p.ok ? p.value : undefined; // not JSON: read as the plan's bare type name below
  }
  const parsed = ReplySchema.safeParse(value);
  const statedType = parsed.success ? labelToType(parsed.data.type) : labelInText(text);
  if (!statedType) return undefined;
  const fromLogprobs = probsFromLogprobs(text, logprobs, !parsed.success);
  if (fromLogprobs) return { type: statedType, probs: fromLogprobs, source: 'logprobs' };
  if (parsed.success && parsed.data.probabilities) {
    const scores = Object.fromEntries(ADAPT_TYPES.map((t) => [t, 0])) as Record<AdaptType, number>;
    let valid = true;
    for (const [label, p] of Object.entries(parsed.data.probabilities)) {
      const t = labelToType(label);
      if (!t) valid = false;
      else scores[t] += p;
    }
    const probs = valid ? normalise(scores) : undefined;
    if (probs) return { type: statedType, probs, source: 'stated' };
  }
  return { type: statedType, probs: oneHot(statedType), source: 'one-hot' };
}
