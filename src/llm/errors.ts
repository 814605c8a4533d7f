/**
 * Errors of the LLM layer. `LlmCallError` is what `chat` throws when a call stays broken after its retries (or
 * fails in a way retrying cannot fix); the runner records its message on the question's row and the run goes on,
 * and a command it stops prints it as one line (a ServiceCallError).
 * Messages never contain the API key: `redact` scrubs it from any text that may echo request details.
 */
import { ServiceCallError } from '../core/errors.ts';
import { redactSecrets, registerSecret } from '../core/secrets.ts';

export class LlmCallError extends ServiceCallError {
  constructor(
    message: string,
    readonly stage: string,
    readonly model: string,
    readonly attempts: number,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = 'LlmCallError';
  }
}

/** A reply that arrived but cannot be used (no choices, no text, JSON asked for and none found). Retried. */
export class MalformedReplyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MalformedReplyError';
  }
}

/** Redacts `secret` and every other registered secret (src/core/secrets.ts: the one redaction mechanism). */
export function redact(text: string, secret: string | undefined): string {
  registerSecret(secret);
  return redactSecrets(text);
}
