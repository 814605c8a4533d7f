/**
 * An endpoint URL in a config: must be http(s) with its scheme. `z.string().url()` alone accepts `localhost:8000/v1`
 * (scheme "localhost:"), which then fails — or hangs in retries — only once questions run. Also the one normal form
 * of an endpoint that every cache key uses.
 */
import { z } from 'zod';

export const HttpUrlSchema = z
  .string()
  .url()
  .refine((u) => /^https?:\/\/[^/]/i.test(u), 'an http(s) URL with its scheme, e.g. http://localhost:8000/v1');

/**
 * The endpoint as every cache keys it (issue 16): scheme, host, port (a scheme's default port dropped) and path, with
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
