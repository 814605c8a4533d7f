/**
 * Helpers of the SDK contract tests: a request reduced to what must match between the adapter and the official
 * client for the same operation — method, path (ids replaced by their role), the field paths of the JSON body and
 * of the query, and the auth scheme (the header and the word before the key).
 */
import type { Batch } from '../api.ts';
import type { LoggedRequest } from './loopback.ts';

/** The batch every SDK contract test sends through the adapter and the official client: two speakers, Chinese too. */
export const CONTRACT_BATCH: Batch = {
  id: 'b0',
  index: 0,
  messages: [
    {
      unitId: 's1#1',
      sessionId: 's1',
      role: 'user',
      speaker: 'Caroline',
      text: 'I adopted a cat named Miso.',
      at: '2023-05-08T14:00:00Z',
    },
    {
      unitId: 's1#2',
      sessionId: 's1',
      role: 'assistant',
      speaker: 'Melanie',
      text: '米索是个好名字。',
      at: '2023-05-08T14:00:00Z',
    },
  ],
};

/** Requests `server` saw while `fn` ran. */
export async function requestsDuring(
  server: { requests: readonly LoggedRequest[] },
  fn: () => Promise<unknown>,
): Promise<LoggedRequest[]> {
  const from = server.requests.length;
  await fn();
  return server.requests.slice(from);
}

/** Every field path of a JSON value: `messages[].role`, `filters.user_id`… (arrays as `[]`). */
export function fieldPaths(value: unknown, prefix = ''): string[] {
  if (Array.isArray(value)) return [...new Set(value.flatMap((v) => fieldPaths(v, `${prefix}[]`)))].sort();
  if (value !== null && typeof value === 'object') {
    return Object.entries(value as Record<string, unknown>)
      .flatMap(([k, v]) => {
        const path = prefix ? `${prefix}.${k}` : k;
        const inner = fieldPaths(v, path);
        return inner.length > 0 ? inner : [path];
      })
      .sort();
  }
  return [];
}

export interface Shape {
  method: string;
  path: string;
  query: string[];
  body: string[];
  auth: string | undefined;
}

/** The request's shape; `ids` maps concrete ids in the path to placeholders (`{user}`, `{task}`). */
export function shape(r: LoggedRequest, ids: Record<string, string> = {}): Shape {
  let path = r.path;
  for (const [id, name] of Object.entries(ids)) path = path.split(encodeURIComponent(id)).join(name);
  return {
    method: r.method,
    path,
    query: Object.keys(r.query).sort(),
    body: fieldPaths(r.body),
    auth: authScheme(r.headers),
  };
}

/** `Authorization: Token` / `X-API-Key` / …: the header carrying the key and the scheme word before it. */
export function authScheme(headers: Record<string, string | undefined>): string | undefined {
  if (headers.authorization !== undefined) return `authorization: ${headers.authorization.split(' ')[0]}`;
  if (headers['x-api-key'] !== undefined) return 'x-api-key';
  return undefined;
}

/** RFC 3339 date-time with a zone (what both sides must send as message times). */
export const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/;
