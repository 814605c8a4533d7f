/**
 * The one redaction mechanism. Every secret the harness reads (API keys for LLMs, embeddings, memory servers, the
 * Hugging Face hub) is read through `readSecret(envName)`, which remembers its value; `redactSecrets(text)` replaces
 * every remembered secret — as given, URL-encoded, or base64-encoded (HTTP Basic) — with `[redacted]`. It is applied
 * where text leaves the process: error messages (`errorMessage`, so every error row and CLI line), every string cell
 * the results store writes, the LLM/search caches and log lines. A server that echoes a key in a header, a JSON body
 * or a URL therefore cannot put it into any file the run writes.
 *
 * Credentials written into a URL (`http://user:password@proxy/v1`, an ordinary basic-auth proxy) are secrets too:
 * `redactSecrets` replaces the user-info part of any URL in the text (`http://[redacted]@proxy/v1`) whether or not it
 * was registered, and `registerUrlCredentials` / `registerCredentialsIn` remember the password and the `user:password`
 * pair (whose base64 form is the Basic header) from every config value and environment variable, so an echo of them
 * outside a URL is redacted as a key is.
 */

const secrets = new Set<string>();
/** Values shorter than this are not treated as secrets (an empty or placeholder variable would redact everything). */
const MIN_LENGTH = 6;

function forms(secret: string): string[] {
  return [...new Set([secret, encodeURIComponent(secret), Buffer.from(secret).toString('base64')])];
}

/** Remembers a secret value so that it is redacted wherever text leaves the process. */
export function registerSecret(value: string | undefined): void {
  if (value === undefined || value.length < MIN_LENGTH) return;
  for (const f of forms(value)) {
    if (!secrets.has(f)) ordered = undefined;
    secrets.add(f);
  }
}

/** The value of an environment variable holding a secret, remembered for redaction; undefined when unset or empty. */
export function readSecret(envName: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const value = env[envName];
  if (value === undefined || value === '') return undefined;
  registerSecret(value);
  return value;
}

/**
 * The user-info of a URL (`scheme://user:password@`): everything between `://` and the last `@` before the host that
 * contains no character a URL's authority cannot hold (so a later `a@b` in prose or JSON is not swallowed).
 */
const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#"'<>`\\]*@/giu;

/** `http://user:pass@host/x` → `http://[redacted]@host/x`, for every URL in `text`. */
export function redactUrlCredentials(text: string): string {
  return text.includes('@') ? text.replace(URL_USERINFO, '$1[redacted]@') : text;
}

/**
 * Remembers the credentials of a URL (`http://user:password@host`) as secrets: the password as written and decoded,
 * and `user:password` (its base64 form is the HTTP Basic header). A URL without them, or not a URL, is ignored.
 */
export function registerUrlCredentials(url: string): void {
  if (!url.includes('@') || !url.includes('://')) return;
  let u: URL;
  try {
    u = new URL(url.trim());
  } catch {
    return;
  }
  if (u.username === '' && u.password === '') return;
  const user = safeDecode(u.username);
  const password = safeDecode(u.password);
  for (const s of [u.password, password, `${user}:${password}`, password === '' ? user : '']) registerSecret(s);
}

/** Registers the URL credentials in every string of a value (a parsed config, `process.env`). */
export function registerCredentialsIn(value: unknown, depth = 0): void {
  if (typeof value === 'string') registerUrlCredentials(value);
  else if (value !== null && typeof value === 'object' && depth < 64) {
    for (const v of Object.values(value as Record<string, unknown>)) registerCredentialsIn(v, depth + 1);
  }
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** The secrets longest first: one that contains another (a Basic pair's base64 holds its password's) goes whole. */
let ordered: string[] | undefined;

export function redactSecrets(text: string): string {
  let out = redactUrlCredentials(text);
  if (secrets.size === 0) return out;
  ordered ??= [...secrets].sort((a, b) => b.length - a.length);
  for (const s of ordered) if (out.includes(s)) out = out.split(s).join('[redacted]');
  return out;
}

/** True when any secret is registered (lets hot paths skip the scan). */
export function hasSecrets(): boolean {
  return secrets.size > 0;
}

/** `redactSecrets` applied to every string inside a value (arrays and plain objects; typed arrays left alone). */
export function redactDeep<T>(value: T): T {
  return deep(value) as T;
}

function deep(value: unknown): unknown {
  if (typeof value === 'string') return redactSecrets(value);
  if (Array.isArray(value)) return value.map(deep);
  if (value !== null && typeof value === 'object' && !ArrayBuffer.isView(value) && !(value instanceof Date)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, deep(v)]));
  }
  return value;
}
