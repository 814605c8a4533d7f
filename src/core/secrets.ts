/**
 * The one redaction mechanism. Every secret the harness reads (API keys for LLMs, embeddings, memory servers, the
 * Hugging Face hub) is read through `readSecret(envName)`, which remembers its value; `redactSecrets(text)` replaces
 * every remembered secret — as given, URL-encoded, or base64-encoded (HTTP Basic) — with `[redacted]`. It is applied
 * where text leaves the process: error messages (`errorMessage`, so every error row and CLI line), every string cell
 * the results store writes, the LLM/search caches and log lines. A server that echoes a key in a header, a JSON body
 * or a URL therefore cannot put it into any file the run writes.
 */

const secrets = new Set<string>();
/** Values shorter than this are not treated as secrets (an empty or placeholder variable would redact everything). */
const MIN_LENGTH = 6;

function forms(secret: string): string[] {
  return [...new Set([secret, encodeURIComponent(secret), Buffer.from(secret).toString('base64')])];
}

/** Remembers a secret value so that it is redacted wherever text leaves the process. */
export function registerSecret(value: string | undefined): void {
  if (value !== undefined && value.length >= MIN_LENGTH) for (const f of forms(value)) secrets.add(f);
}

/** The value of an environment variable holding a secret, remembered for redaction; undefined when unset or empty. */
export function readSecret(envName: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const value = env[envName];
  if (value === undefined || value === '') return undefined;
  registerSecret(value);
  return value;
}

export function redactSecrets(text: string): string {
  if (secrets.size === 0) return text;
  let out = text;
  for (const s of secrets) if (out.includes(s)) out = out.split(s).join('[redacted]');
  return out;
}

/** True when any secret is registered (lets hot paths skip the scan). */
export function hasSecrets(): boolean {
  return secrets.size > 0;
}
