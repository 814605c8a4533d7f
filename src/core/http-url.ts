/**
 * An endpoint URL in a config: must be http(s) with its scheme. `z.string().url()` alone accepts `localhost:8000/v1`
 * (scheme "localhost:"), which then fails — or hangs in retries — only once questions run. Also the one normal form
 * of an endpoint that every cache key uses.
 */
import { z } from 'zod';
import { registerUrlCredentials } from './secrets.ts';

export const HttpUrlSchema = z
  .string()
  .url()
  .refine((u) => /^https?:\/\/[^/]/i.test(u), 'an http(s) URL with its scheme, e.g. http://localhost:8000/v1');

/**
 * The endpoint as every cache keys it: scheme, host, port (a scheme's default port dropped) and path, with
 * trailing slashes removed and case normalised where URLs are case-insensitive (scheme, host); user name and
 * password — credentials — dropped, never keyed. `http://Host:80/a/v1/` → `http://host/a/v1`. Not a URL: returned
 * trimmed of trailing slashes, as given.
 */
export function normaliseEndpoint(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return url.replace(/\/+$/u, '');
  }
  return `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/u, '')}${u.search}`;
}

/**
 * A URL with its credentials moved out (`http://user:pass@host/v1` → `http://host/v1` and the `Authorization` value
 * `Basic base64(user:pass)`, percent-decoded as RFC 3986 §3.2.1 writes them). WHATWG fetch refuses to construct a
 * request from a URL with credentials, and Node's http drops them when another Authorization header is set, so
 * every client sends them as this header instead. The credentials are registered for redaction.
 */
export function splitUrlCredentials(url: string): { url: string; authorization?: string } {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return { url };
  }
  if (u.username === '' && u.password === '') return { url };
  registerUrlCredentials(url);
  const pair = `${decode(u.username)}:${decode(u.password)}`;
  u.username = '';
  u.password = '';
  // `new URL` adds a trailing slash to a bare origin; keep the caller's form otherwise.
  const stripped = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*$/iu.test(url) ? u.href.replace(/\/$/u, '') : u.href;
  return { url: stripped, authorization: `Basic ${Buffer.from(pair).toString('base64')}` };
}

/**
 * The headers a request to `url` carries for authentication: the URL's own credentials (Basic) when it has them —
 * the endpoint-specific setting wins over a key that is often set globally — else `Bearer <key>` when a key is
 * given. The returned URL has no credentials.
 */
export function endpointAuth(url: string, bearerKey?: string): { url: string; headers: Record<string, string> } {
  const split = splitUrlCredentials(url);
  if (split.authorization !== undefined) return { url: split.url, headers: { authorization: split.authorization } };
  return { url: split.url, headers: bearerKey ? { authorization: `Bearer ${bearerKey}` } : {} };
}

function decode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/**
 * A fetch that sends `authorization` with every request to `origin` (a hub or mirror whose URL held credentials),
 * over any Authorization header the caller set; requests elsewhere (a CDN a download is redirected to) are untouched.
 */
export function fetchWithAuthorization(
  authorization: string,
  origin: string,
  base: typeof fetch = fetch,
): typeof fetch {
  return (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (new URL(url).origin !== origin) return base(input, init);
    const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
    headers.set('authorization', authorization);
    return base(input, { ...init, headers });
  };
}
