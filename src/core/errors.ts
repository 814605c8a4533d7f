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
 * Something every question depends on cannot be used at all (an unwritable cache folder, an unusable endpoint).
 * Unlike other method errors it is not recorded per question: the runner stops the run with this one line.
 */
export class SetupError extends InputError {
  constructor(message: string, where?: string) {
    super(message, where);
    this.name = 'SetupError';
  }
}

/**
 * A service the run depends on cannot be used at all (unreachable server, rejected key): a SetupError naming the
 * URL and what to check.
 */
export class EndpointError extends SetupError {
  constructor(message: string) {
    super(message);
    this.name = 'EndpointError';
  }
}

/**
 * A call to an outside service (an LLM or embeddings API, a download) failed after its retries or was refused. A
 * run records it on the question's row and goes on; a command it stops prints its message as one line (the user
 * fixes the endpoint, key or network), not a stack trace.
 */
export class ServiceCallError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'ServiceCallError';
  }
}

/**
 * A call that is not made now, so the question cannot be finished in this pass and is written by a later one: its
 * request waits in the Batch API queue (`batch`), or sending it could take the run past `llm.budgetUsd` (`budget`).
 * Not an error of the question: the runner leaves the question's rows unwritten (src/run/question.ts), and no step
 * may turn it into a fallback or an error row (check with `isPostponed`).
 */
export class PostponedError extends Error {
  constructor(
    readonly reason: 'batch' | 'budget',
    message: string,
  ) {
    super(message);
    this.name = 'PostponedError';
  }
}

export function isPostponed(err: unknown): err is PostponedError {
  return err instanceof PostponedError;
}

/**
 * A reply body or error text as one short line: an HTML error page (a proxy's 502) becomes its title or first
 * heading, whitespace collapses, and the text is cut at `max` characters. For messages that quote what a server sent.
 */
export function oneLine(text: string, max = 200): string {
  let t = text;
  if (/<html|<!doctype/iu.test(t)) {
    const title = /<title[^>]*>([^<]*)<\/title>|<h1[^>]*>([^<]*)<\/h1>/iu.exec(t);
    t = t.replace(
      /<html[\s\S]*$|<!doctype[\s\S]*$/iu,
      `an HTML page${title ? ` ("${(title[1] ?? title[2] ?? '').trim()}")` : ''}`,
    );
  }
  t = t.replace(/\s+/gu, ' ').trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
}

/** A failed `fetch` in words: `fetch failed` hides its cause (ECONNREFUSED, ENOTFOUND…); timeouts surface as TimeoutError. */
export function describeNetworkError(err: unknown): string {
  if (err instanceof Error && err.name === 'TimeoutError') return 'timed out';
  const cause = err instanceof Error ? (err as Error & { cause?: unknown }).cause : undefined;
  const code =
    cause && typeof cause === 'object' && 'code' in cause ? String((cause as { code: unknown }).code) : undefined;
  return code ? `${errorMessage(err)} (${code})` : errorMessage(err);
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

/** What a file-system error code means for the user (Node's `err.code`, from libuv / POSIX errno names). */
const FS_REASONS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  ENOTDIR: 'a part of the path is a file, not a folder',
  EEXIST: 'exists and is not a folder',
  EISDIR: 'is a folder, not a file',
  ENOENT: 'no such file or folder',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  ENAMETOOLONG: 'file name too long',
  EMFILE: 'too many open files',
};

/** Node's system errors (fs calls) carry these fields (https://nodejs.org/api/errors.html#class-systemerror). */
interface SystemErrorLike {
  code?: unknown;
  path?: unknown;
  dest?: unknown;
  syscall?: unknown;
}

/** `reason (CODE)` of a Node file-system error with a known code, else undefined. */
export function systemErrorReason(err: unknown): string | undefined {
  const code = err instanceof Error ? (err as SystemErrorLike).code : undefined;
  const reason = typeof code === 'string' ? FS_REASONS[code] : undefined;
  return reason === undefined ? undefined : `${reason} (${String(code)})`;
}

/**
 * The one line the CLI prints for a failure the user can fix: a bad input (InputError and its kinds), a feature not
 * built, a service call that failed (ServiceCallError: LLM calls after their retries, downloads), or a file-system
 * error on a path (an `--out` under a file, a read-only folder, an unwritable cache dir), named by path and reason.
 * Undefined for anything else (a bug: the CLI prints its stack).
 */
export function userFacingMessage(err: unknown): string | undefined {
  if (err instanceof InputError || err instanceof NotBuiltError || err instanceof ServiceCallError)
    return redactSecrets(err.message);
  const full = diskFullMessage(err) ?? damagedFileMessage(err);
  if (full !== undefined) return redactSecrets(full);
  if (err instanceof Error) {
    const sys = err as SystemErrorLike;
    const reason = systemErrorReason(err);
    if (reason !== undefined && typeof sys.path === 'string') {
      const op = typeof sys.syscall === 'string' ? `cannot ${sys.syscall}` : 'cannot use';
      return redactSecrets(`${sys.path}: ${op}: ${reason}`);
    }
  }
  return undefined;
}

/**
 * A full disk said in words by a library (DuckDB: `Could not write file "<path>": No space left on device`, also
 * inside its "database has been invalidated" error), as one line naming the file; Node's own ENOSPC errors are
 * system errors with a path (above). Every write the harness makes is committed whole or not at all, so what was
 * committed before is kept.
 */
export function diskFullMessage(err: unknown): string | undefined {
  const message = err instanceof Error ? err.message : typeof err === 'string' ? err : '';
  // A wrapped error (`writing the row spool <file>: ENOSPC …`) carries the system error as its cause.
  const cause = err instanceof Error && err.cause instanceof Error ? (err.cause as SystemErrorLike) : undefined;
  const code = err instanceof Error ? ((err as SystemErrorLike).code ?? cause?.code) : undefined;
  if (code !== 'ENOSPC' && code !== 'EDQUOT' && !/No space left on device|Disk quota exceeded/iu.test(message))
    return undefined;
  const pathOf = (e: SystemErrorLike | undefined): string | undefined =>
    typeof e?.path === 'string' ? e.path : undefined;
  const file =
    pathOf(err instanceof Error ? (err as SystemErrorLike) : undefined) ??
    pathOf(cause) ??
    /file "([^"]+)"/u.exec(message)?.[1] ??
    /row spool (\S+?):/u.exec(message)?.[1];
  const reason =
    /Disk quota exceeded/iu.test(message) || code === 'EDQUOT'
      ? 'disk quota exceeded (EDQUOT)'
      : 'no space left on the device (ENOSPC)';
  return `${file ?? 'writing a file'}: ${reason}; what was committed before is kept (a results file's questions, a previous page or chart) — free space on that disk (or choose another --out) and run the same command again to go on from there`;
}

/** DuckDB's words for a file whose bytes changed under it (a block checksum that does not match). */
const DAMAGED = /Corrupt database file|computed checksum \d+ does not match stored checksum/u;
/** DuckDB's words for a file shorter than its own block index says (truncated): the file and the offset. */
const TRUNCATED =
  /Could not read enough bytes from file "([^"]+)"(?:: attempted to read \d+ bytes from location (\d+))?/u;

/**
 * A damaged database file (a flipped bit on disk, a torn copy) as one line; `path` names it when the caller knows
 * it (the results store does: ResultStoreImpl.query), else DuckDB's message says which block.
 */
export function damagedFileMessage(err: unknown, path?: string): string | undefined {
  const message = err instanceof Error ? err.message : '';
  const cut = TRUNCATED.exec(message);
  if (cut)
    return `${path ?? cut[1]}: the file is cut short (it ends before byte ${cut[2] ?? '?'} its own index points to), as an interrupted copy or download or a full disk leaves it; restore it from a copy, or rerun the experiment into a new results file`;
  if (!DAMAGED.test(message)) return undefined;
  return `${path ?? 'a DuckDB file'}: the file is damaged (${oneLine(message.replace(/^(IO |Invalid Input |FATAL )?Error: /u, ''), 160)}); restore it from a copy, or rerun the experiment into a new file`;
}
