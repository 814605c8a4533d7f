/**
 * `adaptmr doctor <experiment.yaml>`: checks every endpoint an experiment depends on before anything runs — each
 * configured LLM role, an OpenAI-compatible embedder, and each method's own services (memory servers, through
 * `Method.checkEndpoints`) — and returns one row per endpoint: reachable, key accepted, or the one thing to check.
 * An LLM endpoint is probed with `GET <baseURL>/models`: 401/403 means the key was refused, a 5xx (a proxy's 502 page,
 * a crashed server) that the server is there but failing; any other answer shows it is there and takes the key (a
 * server without that route answers 404, which is fine).
 */
import { errorMessage, oneLine } from '../../core/errors.ts';
import { endpointAuth } from '../../core/http-url.ts';
import { readBodyCapped, ReplyTooLargeError } from '../../core/reply-limit.ts';
import { readSecret, redactSecrets } from '../../core/secrets.ts';
import type { EndpointCheck } from '../../core/interfaces.ts';
import { OPENAI_DEFAULT_BASE_URL } from '../../llm/config.ts';
import { methods } from '../../run/methods/method-registry.ts';
import { configuredRoles } from '../../run/methods/create-methods.ts';
import type { LoadedExperiment } from '../../run/config/load-config.ts';

type Env = NodeJS.ProcessEnv;

export async function probeOpenAiCompatible(
  user: string,
  baseURL: string,
  keyVar: string,
  keyRequired: boolean,
  env: Env,
): Promise<EndpointCheck> {
  const key = readSecret(keyVar, env);
  // Credentials in the URL travel as a Basic header, as a run sends them (fetch refuses a URL that holds them); the
  // row shows the URL without them.
  const endpoint = endpointAuth(baseURL.replace(/\/+$/, ''), key);
  const url = redactSecrets(baseURL.replace(/\/+$/, ''));
  if (keyRequired && (key === undefined || key === ''))
    return { user, url, ok: false, detail: `environment variable ${keyVar} (apiKeyEnv) is not set` };
  try {
    const res = await fetch(`${endpoint.url}/models`, {
      headers: endpoint.headers,
      signal: AbortSignal.timeout(10_000),
    });
    // Only the status matters; the body (quoted when the server fails) is read up to 1 MiB, never without end.
    const body = await readBodyCapped(res, 1024 * 1024, 'doctor').then(
      (b) => Buffer.from(b).toString('utf8'),
      (err: unknown) => (err instanceof ReplyTooLargeError ? '(a reply body over 1 MiB)' : Promise.reject(err)),
    );
    if (res.status === 401 || res.status === 403)
      return { user, url, ok: false, detail: `HTTP ${res.status}: the key was rejected — check ${keyVar}` };
    if (res.status >= 500) {
      return {
        user,
        url,
        ok: false,
        detail: redactSecrets(
          `HTTP ${res.status}: ${oneLine(body, 120) || res.statusText} — the server answers but fails; check it and its upstream`,
        ),
      };
    }
    return { user, url, ok: true, detail: `reachable (HTTP ${res.status})` };
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause?.code;
    return {
      user,
      url,
      ok: false,
      detail: redactSecrets(`unreachable (${cause ?? errorMessage(err)}): is the server running? check baseURL`),
    };
  }
}

export async function doctor(exp: LoadedExperiment, env: Env = process.env): Promise<EndpointCheck[]> {
  const { config } = exp;
  const checks: EndpointCheck[] = [];
  for (const role of configuredRoles(config)) {
    const rc = config.llm!.roles[role]!;
    const baseURL = rc.baseURL ?? env.OPENAI_BASE_URL ?? OPENAI_DEFAULT_BASE_URL;
    checks.push(
      await probeOpenAiCompatible(
        `llm ${role} (${rc.model})`,
        baseURL,
        rc.apiKeyEnv ?? 'OPENAI_API_KEY',
        rc.apiKeyEnv !== undefined,
        env,
      ),
    );
  }
  if (config.embedder.name === 'openai') {
    const o = config.embedder.options as { baseURL?: string; apiKeyEnv?: string; model?: string };
    checks.push(
      await probeOpenAiCompatible(
        `embedder (${o.model ?? 'openai'})`,
        o.baseURL ?? env.OPENAI_BASE_URL ?? OPENAI_DEFAULT_BASE_URL,
        o.apiKeyEnv ?? 'OPENAI_API_KEY',
        true,
        env,
      ),
    );
  }
  const llmRoles = configuredRoles(config);
  for (const m of config.methods) {
    try {
      const impl = await methods.create(
        m.method,
        m.options,
        { id: m.id, index: m.index, k: m.k, seed: config.seed, runKey: exp.configHash.slice(0, 12), llmRoles },
        `method ${m.id}`,
      );
      if (impl.checkEndpoints) checks.push(...(await impl.checkEndpoints()));
    } catch (err) {
      checks.push({ user: `method ${m.id}`, url: '—', ok: false, detail: errorMessage(err) });
    }
  }
  return checks;
}
