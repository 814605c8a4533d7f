/**
 * Options every memory-server method shares (the issue's contract: `api`, `baseUrl`, `apiKeyEnv`, `keep`; `k` is the
 * method's own k) and how they resolve: `baseUrlEnv` names a variable whose value, when set, replaces `baseUrl`
 * (one experiment file serves a local server and the cloud); `apiKeyEnv` names the variable holding the key — absent
 * means no auth, named-but-unset is an error (a typo must not send requests unauthenticated).
 */
import { z } from 'zod';
import { HttpUrlSchema } from '../../src/core/http-url.ts';
import { readSecret } from '../../src/core/secrets.ts';
import { InputError } from '../../src/core/errors.ts';
import type { HttpEndpoint } from '../../src/llm/http/index.ts';

const envName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name, not a value');

export const CommonServerOptions = {
  baseUrl: HttpUrlSchema.optional(),
  /** Variable holding the base URL; when set and non-empty it wins over `baseUrl`. */
  baseUrlEnv: envName.optional(),
  /** Variable holding the API key (never the key itself); absent = no auth. */
  apiKeyEnv: envName.optional(),
  /** Keep the namespaces on the server after the run (default: deleted in close()). */
  keep: z.boolean().default(false),
  /** Interval between processing-status polls. */
  pollMs: z.number().int().positive().default(1000),
  /** Give up waiting for processing after this long: the question gets an error row; the next one resumes the wait. */
  ingestTimeoutMs: z
    .number()
    .int()
    .positive()
    .default(30 * 60_000),
};

type Env = NodeJS.ProcessEnv;

export function resolveBaseUrl(
  o: { baseUrl?: string | undefined; baseUrlEnv?: string | undefined },
  fallback: string,
  env: Env = process.env,
): string {
  const fromEnv = o.baseUrlEnv ? env[o.baseUrlEnv] : undefined;
  const url = fromEnv !== undefined && fromEnv !== '' ? fromEnv : (o.baseUrl ?? fallback);
  try {
    new URL(url);
  } catch {
    throw new InputError(`base URL "${url}"${fromEnv ? ` (from ${o.baseUrlEnv})` : ''} is not a URL`);
  }
  return url.replace(/\/+$/, '');
}

/** The key from `apiKeyEnv`, formatted into the header the API documents. */
export function resolveAuth(
  apiKeyEnv: string | undefined,
  header: string,
  scheme: string,
  env: Env = process.env,
): HttpEndpoint['auth'] {
  if (apiKeyEnv === undefined) return undefined;
  const key = readSecret(apiKeyEnv, env);
  if (key === undefined || key === '') throw new InputError(`environment variable ${apiKeyEnv} (apiKeyEnv) is not set`);
  return { header, value: `${scheme}${key}`, secret: key };
}
