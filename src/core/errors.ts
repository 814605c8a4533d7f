/**
 * Error types that carry where a problem is (file, field, question) so the CLI can say what to fix.
 * Every user-facing failure is one of these; the CLI prints `message` without a stack trace.
 */
import { redactSecrets } from './secrets.ts';

/** Bad user input: a config, dataset, model file or reply that cannot be used. */
export class InputError extends Error {
  constructor(
    message: string,
    readonly where?: string,
  ) {
    super(where ? `${where}: ${message}` : message);
    this.name = 'InputError';
  }
}

/** A feature that exists in the design but is not built yet: fails loudly rather than pretending. */
export class NotBuiltError extends Error {
  constructor(what: string) {
    super(`${what} is not built yet`);
    this.name = 'NotBuiltError';
  }
}

/**
 * A service the run depends on cannot be used at all (unreachable server, rejected key). Unlike other method errors
 * it is not recorded per question: the runner stops the run with this one line, naming the URL and what to check.
 */
export class EndpointError extends InputError {
  constructor(message: string) {
    super(message);
    this.name = 'EndpointError';
  }
}

/** The message of any thrown value, with every registered secret redacted (it may end up in a row or on stderr). */
export function errorMessage(err: unknown): string {
  return redactSecrets(err instanceof Error ? err.message : String(err));
}
