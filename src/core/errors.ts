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

/**
 * Marks an error with the stage it failed in (a `CallRecord.stage` name: `classify`, `index:embed`, `reader`…), so the
 * runner's summary can count failures per stage. The error keeps its class (an EndpointError stays one); an error
 * already tagged keeps its first, innermost stage. Returns the error, for `throw tagStage(err, 'classify')`.
 */
export function tagStage(err: unknown, stage: string): unknown {
  if (err instanceof Error && Object.isExtensible(err) && stageOf(err) === undefined) {
    Object.defineProperty(err, STAGE, { value: stage, enumerable: false });
  }
  return err;
}

/** The stage `tagStage` recorded on an error, if any. */
export function stageOf(err: unknown): string | undefined {
  return err instanceof Error ? ((err as unknown as Record<symbol, unknown>)[STAGE] as string | undefined) : undefined;
}

const STAGE = Symbol('adaptmr.failedStage');
