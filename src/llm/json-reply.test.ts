// Tolerant JSON extraction (wrapping only; the JSON itself must parse) and the retry policy.
import { APIConnectionTimeoutError, APIError } from 'openai';
import { describe, expect, it } from 'vitest';
import { MalformedReplyError } from './errors.ts';
import { parseJsonReply } from './json-reply.ts';
import { backoffMs, isRetryable } from './retry.ts';

describe('parseJsonReply', () => {
  it('accepts bare JSON, fenced JSON and JSON inside prose', () => {
    expect(parseJsonReply('{"label": "CORRECT"}')).toEqual({ ok: true, value: { label: 'CORRECT' } });
    expect(parseJsonReply('```json\n{"label": "WRONG"}\n```')).toEqual({ ok: true, value: { label: 'WRONG' } });
    expect(parseJsonReply('The answer matches. {"label": "CORRECT", "why": "a } in a string"} Done.')).toEqual({
      ok: true,
      value: { label: 'CORRECT', why: 'a } in a string' },
    });
    expect(parseJsonReply('Types: ["factual", "temporal"]')).toEqual({ ok: true, value: ['factual', 'temporal'] });
  });

  it('rejects replies without valid JSON', () => {
    expect(parseJsonReply('CORRECT')).toEqual({ ok: false });
    expect(parseJsonReply('{label: CORRECT}')).toEqual({ ok: false });
    expect(parseJsonReply('')).toEqual({ ok: false });
  });
});

describe('retry policy', () => {
  const api = (status: number, headers: Record<string, string> = {}) =>
    APIError.generate(status, { message: 'x' }, 'x', new Headers(headers));

  it('retries 429, 5xx, 408, timeouts and malformed replies, not other 4xx', () => {
    expect([429, 500, 502, 503, 408].map((s) => isRetryable(api(s)))).toEqual([true, true, true, true, true]);
    expect([400, 401, 403, 404, 422].map((s) => isRetryable(api(s)))).toEqual([false, false, false, false, false]);
    expect(isRetryable(new APIConnectionTimeoutError())).toBe(true);
    expect(isRetryable(new SyntaxError('Unexpected end of JSON input'))).toBe(true);
    expect(isRetryable(new MalformedReplyError('no choices'))).toBe(true);
    expect(isRetryable(new Error('other'))).toBe(false);
  });

  it('backs off exponentially with jitter, capped, and honours Retry-After', () => {
    expect(backoffMs(0, 1000, api(500), () => 0)).toBe(500);
    expect(backoffMs(0, 1000, api(500), () => 1)).toBe(1000);
    expect(backoffMs(3, 1000, api(500), () => 1)).toBe(8000);
    expect(backoffMs(10, 1000, api(500), () => 1)).toBe(30_000);
    expect(backoffMs(0, 1000, api(429, { 'retry-after': '7' }), () => 0)).toBe(7000);
    expect(backoffMs(0, 1000, api(429, { 'retry-after-ms': '250' }), () => 0)).toBe(250);
  });
});
