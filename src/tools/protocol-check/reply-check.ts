/**
 * A protocol-check reply read as the run reads a memory server's reply (src/llm/http/json-http.ts, through
 * `http-memory`): the body capped while it streams in (`llm.maxReplyBytes`, default 4 MiB — an endless reply stops at
 * the cap), strict UTF-8, JSON; and, as the run's reply schemas (zod numbers) refuse them, no number that is not
 * finite (`1e999` parses to Infinity). So the check fails every server the run would refuse.
 */
import { assertNoLoneSurrogate } from '../../core/utf8.ts';
import { oneLine } from '../../core/errors.ts';
import {
  DEFAULT_MAX_REPLY_BYTES,
  InvalidReplyTextError,
  readBodyCapped,
  ReplyTooLargeError,
  replyText,
} from '../../core/reply-limit.ts';

export type ReadReply = { ok: true; body: unknown } | { ok: false; problem: string };

/** The first path in `value` holding a number that is not finite, or undefined. */
export function nonFiniteAt(value: unknown, at = ''): string | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : at || '(root)';
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) {
      const bad = nonFiniteAt(v, `${at}[${i}]`);
      if (bad) return bad;
    }
  } else if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) {
      const bad = nonFiniteAt(v, at ? `${at}.${k}` : k);
      if (bad) return bad;
    }
  }
  return undefined;
}

export async function readReplyAsRun(res: Response, maxReplyBytes = DEFAULT_MAX_REPLY_BYTES): Promise<ReadReply> {
  let text: string;
  try {
    text = replyText(await readBodyCapped(res, maxReplyBytes, 'llm.maxReplyBytes'));
  } catch (err) {
    if (err instanceof ReplyTooLargeError || err instanceof InvalidReplyTextError)
      return { ok: false, problem: `${err.message}; the run refuses this reply` };
    throw err;
  }
  if (text === '') return { ok: true, body: undefined };
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { ok: false, problem: `a body that is not JSON: ${oneLine(text, 120)}` };
  }
  try {
    assertNoLoneSurrogate(body);
  } catch (err) {
    return { ok: false, problem: `${(err as Error).message}; the run refuses this reply` };
  }
  const bad = nonFiniteAt(body);
  if (bad)
    return { ok: false, problem: `${bad} is a number that is not finite (as 1e999 is); the run refuses this reply` };
  return { ok: true, body };
}
