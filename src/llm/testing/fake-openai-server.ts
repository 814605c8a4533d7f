/**
 * A scriptable OpenAI-compatible HTTP server on 127.0.0.1 for tests and benchmarks (docs/design.md §7: the real SDK talks
 * the real wire format to it). It serves
 *
 * - `POST /v1/chat/completions`: `choices[0].message.content`, `usage`, `response_format` (json_schema / json_object;
 *   with `supportsJsonSchema: false` a json_schema request gets HTTP 400 as from servers without structured output),
 *   `logprobs` / `top_logprobs`;
 * - `POST /v1/embeddings`: `encoding_format` `float` or `base64` (little-endian float32, what the SDK asks for by
 *   default), `usage`; vectors are deterministic unit vectors derived from a hash of each input text;
 * - the Batch API's `/v1/files` and `/v1/batches` endpoints (fake-batch-endpoints.ts), whose chat lines are answered
 *   exactly as `/v1/chat/completions` answers;
 * - with `promptCache: true`, `usage.prompt_tokens_details.cached_tokens` as OpenAI's prompt caching reports it: the
 *   longest prefix already seen in a request of the same model and `prompt_cache_key`, counted only from 1,024
 *   tokens on and in steps of 128 (https://platform.openai.com/docs/guides/prompt-caching).
 *
 * Scripting, per request: replies are taken first from a queue (`enqueue` for chat, `enqueueEmbeddings`), else from
 * `options.chat` / `options.embed` handlers, else defaults (chat text `"ok"`). A `FakeReply` can give a reply text,
 * an HTTP status (429, 500…), a delay, a hang (no answer until the client times out), a malformed JSON body, or no
 * usage. Every request is recorded (`requests`) with its body and Authorization header, so a test can check that a
 * key was sent — and then that it was stored nowhere.
 *
 * Usage:
 *   const server = await startFakeOpenAiServer({ delayMs: 0 });
 *   server.enqueue({ status: 429 }, { text: 'yes' });
 *   … createLlmProvider({ roles: { judge: { baseURL: server.baseURL, model: 'm' } }, … }) …
 *   expect(server.count('/v1/chat/completions')).toBe(2);
 *   await server.close();
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BatchEndpoints, type BatchOptions } from './fake-batch-endpoints.ts';
import type { ChatAnswer, ChatRequestBody } from './fake-chat-types.ts';

export type { ChatAnswer, ChatRequestBody } from './fake-chat-types.ts';

export interface FakeReply {
  /** Reply text (chat). Default `"ok"`, or the `chat` handler's. */
  text?: string;
  /** Answer with this HTTP status and an OpenAI-style error body instead of a reply. */
  status?: number;
  /** Sent as the `retry-after` header (seconds) with an error status. */
  retryAfterSec?: number;
  /** Wait this long before answering (added to the server's fixed `delayMs`). */
  delayMs?: number;
  /** Never answer: the client must time out. */
  hang?: boolean;
  /** Answer 200 with a body that is not valid JSON. */
  malformed?: boolean;
  /** Leave `usage` out of the reply. */
  noUsage?: boolean;
  /** Explicit usage; default: whitespace word counts of prompt and reply. */
  usage?: { promptTokens: number; completionTokens: number };
  /** Explicit logprobs for a chat reply (used only when the request asks for logprobs). */
  logprobs?: { token: string; logprob: number; top: { token: string; logprob: number }[] }[];
}

export interface RecordedRequest {
  path: string;
  method: string;
  /** Parsed JSON body (undefined when it did not parse, e.g. a multipart file upload). */
  body: unknown;
  authorization: string | undefined;
}

export interface FakeServerOptions {
  /** Fixed delay added to every answer (benchmarks: throughput bound = concurrency ÷ delay). */
  delayMs?: number;
  /** Default true. False: a `response_format: json_schema` request gets HTTP 400. */
  supportsJsonSchema?: boolean;
  /** Chat reply when the queue is empty; `basePath` is the base path the request came in on (see `basePaths`). */
  chat?: (body: ChatRequestBody, basePath: string) => FakeReply | string | Promise<FakeReply | string>;
  /** Embedding for one input text when the queue is empty; default: deterministic hash-based unit vector. */
  embed?: (text: string, dimensions: number, basePath: string) => number[];
  /**
   * Base paths served (default `['/v1']`): `<base>/chat/completions` and `<base>/embeddings` for each, so one server
   * can stand for two endpoints that differ only in their path (`http://host/a/v1`, `http://host/b/v1`).
   */
  basePaths?: string[];
  /** Dimension of the default embeddings when a request names none (default 8). */
  embeddingDim?: number;
  /** Report `prompt_tokens_details.cached_tokens` as OpenAI's prompt caching does (see the header). Default false. */
  promptCache?: boolean;
  /**
   * Counts a chat request's prompt and reply tokens for `usage` (default: whitespace words). Pass the o200k counter
   * (src/llm/tokens.ts) where recorded tokens are compared with the tokenizer's count, as OpenAI's are.
   */
  countTokens?: { prompt: (messages: ChatRequestBody['messages']) => number; completion: (text: string) => number };
  /** The Batch API stand-in's behaviour (fake-batch-endpoints.ts). */
  batch?: BatchOptions;
}

export interface FakeOpenAiServer {
  /** `http://127.0.0.1:<port>/v1`, to pass as `baseURL`. */
  readonly baseURL: string;
  readonly requests: readonly RecordedRequest[];
  enqueue(...replies: FakeReply[]): void;
  enqueueEmbeddings(...replies: FakeReply[]): void;
  /** Requests received, optionally only those to one path (e.g. `/v1/chat/completions`). */
  count(path?: string): number;
  /** Forget recorded requests and queued replies. */
  reset(): void;
  /** The Batch API stand-in (batches and files it holds; test hooks). */
  readonly batches: BatchEndpoints;
  close(): Promise<void>;
}

export async function startFakeOpenAiServer(options: FakeServerOptions = {}): Promise<FakeOpenAiServer> {
  const requests: RecordedRequest[] = [];
  const chatQueue: FakeReply[] = [];
  const embedQueue: FakeReply[] = [];
  const dim = options.embeddingDim ?? 8;
  const basePaths = options.basePaths ?? ['/v1'];
  const hanging = new Set<ServerResponse>();

  const server = createServer((req, res) => {
    void handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: { message: String(err), type: 'server_error' } });
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const rawBytes = await readBytes(req);
    const raw = rawBytes.toString('utf8');
    let body: unknown;
    try {
      body = raw === '' ? undefined : (JSON.parse(raw) as unknown);
    } catch {
      body = undefined;
    }
    const path = (req.url ?? '').split('?')[0] ?? '';
    const auth = req.headers.authorization;
    requests.push({ path, method: req.method ?? '', body, authorization: typeof auth === 'string' ? auth : undefined });

    if (batchApi.handles(path)) {
      const out = await batchApi.handle(
        req.method ?? '',
        path,
        new URL(req.url ?? '', 'http://x').searchParams,
        rawBytes,
        req.headers['content-type'],
      );
      if (out.bytes !== undefined) {
        res.writeHead(out.status, { 'content-type': 'application/octet-stream', 'content-length': out.bytes.length });
        res.end(out.bytes);
      } else sendJson(res, out.status, out.json);
      return;
    }
    const basePath = basePaths.find((b) => path === `${b}/chat/completions` || path === `${b}/embeddings`);
    if (req.method !== 'POST' || basePath === undefined) {
      sendJson(res, 404, { error: { message: `no route ${req.method} ${path}`, type: 'invalid_request_error' } });
      return;
    }
    const isChat = path === `${basePath}/chat/completions`;
    const reply: FakeReply = isChat
      ? await nextChatReply(body as ChatRequestBody, basePath)
      : (embedQueue.shift() ?? {});
    const delay = (options.delayMs ?? 0) + (reply.delayMs ?? 0);
    if (delay > 0) await new Promise((r) => setTimeout(r, delay));
    if (reply.hang) {
      hanging.add(res);
      res.on('close', () => hanging.delete(res));
      return;
    }
    if (isChat) {
      const answer = chatAnswer(body as ChatRequestBody, reply);
      if (answer.text !== undefined) {
        res.writeHead(answer.status, { 'content-type': 'application/json' });
        res.end(answer.text);
      } else sendJson(res, answer.status, answer.json, answer.headers);
      return;
    }
    if (reply.status !== undefined && reply.status !== 200) {
      sendJson(
        res,
        reply.status,
        { error: { message: `scripted status ${reply.status}`, type: 'scripted_error' } },
        retryAfter(reply),
      );
      return;
    }
    if (reply.malformed) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"object": "list", "data": [ {"embedding": ');
      return;
    }
    answerEmbeddings(res, body, reply, basePath);
  }

  /** The next scripted chat reply: the queue, else the `chat` handler, else the default. */
  async function nextChatReply(body: ChatRequestBody, basePath: string): Promise<FakeReply> {
    const queued = chatQueue.shift() ?? {};
    if (!hasQueued(queued) && options.chat) {
      const r = await options.chat(body, basePath);
      return typeof r === 'string' ? { text: r } : r;
    }
    return queued;
  }

  /** Longest prefix (in characters) of each prompt seen, per model and prompt_cache_key (see the header). */
  const seenPrompts = new Map<string, string[]>();

  function cachedTokensOf(body: ChatRequestBody, promptTokens: number): number {
    const text = (body?.messages ?? []).map((m) => `${m.role}\n${m.content}`).join('\n');
    const bucket = `${body?.model ?? ''}\t${body?.prompt_cache_key ?? ''}`;
    const seen = seenPrompts.get(bucket) ?? [];
    let longest = 0;
    for (const prev of seen) {
      let i = 0;
      const n = Math.min(prev.length, text.length);
      while (i < n && prev.charCodeAt(i) === text.charCodeAt(i)) i++;
      longest = Math.max(longest, i);
    }
    if (seen.length >= 64) seen.shift();
    seen.push(text);
    seenPrompts.set(bucket, seen);
    if (text.length === 0 || promptTokens < 1024) return 0;
    const prefixTokens = Math.floor((promptTokens * longest) / text.length);
    return prefixTokens < 1024 ? 0 : Math.floor(prefixTokens / 128) * 128;
  }

  /** A chat completion's status and body for a request and its scripted reply (shared with the batch lines). */
  function chatAnswer(body: ChatRequestBody, reply: FakeReply): ChatAnswer {
    if (reply.status !== undefined && reply.status !== 200) {
      return {
        status: reply.status,
        json: { error: { message: `scripted status ${reply.status}`, type: 'scripted_error' } },
        headers: retryAfter(reply),
      };
    }
    const problem = chatRequestProblem(body);
    if (problem)
      return {
        status: 400,
        json: { error: { message: problem.message, type: 'invalid_request_error', param: problem.param, code: null } },
      };
    if (reply.malformed) return { status: 200, text: '{"id": "chatcmpl-broken", "choices": [ {"message": ' };
    if (body?.response_format?.type === 'json_schema' && options.supportsJsonSchema === false) {
      return {
        status: 400,
        json: {
          error: {
            message: "response_format 'json_schema' is not supported by this server",
            type: 'invalid_request_error',
          },
        },
      };
    }
    const text = reply.text ?? 'ok';
    const promptWords = options.countTokens
      ? options.countTokens.prompt(body?.messages ?? [])
      : (body?.messages ?? []).reduce((n, m) => n + words(m.content), 0);
    const choice: Record<string, unknown> = {
      index: 0,
      message: { role: 'assistant', content: text, refusal: null },
      finish_reason: 'stop',
      logprobs: null,
    };
    if (body?.logprobs) {
      const top = body.top_logprobs ?? 0;
      choice.logprobs = {
        content: (reply.logprobs ?? defaultLogprobs(text, top)).map((t) => ({
          token: t.token,
          logprob: t.logprob,
          bytes: [...Buffer.from(t.token, 'utf8')],
          top_logprobs: t.top.map((x) => ({
            token: x.token,
            logprob: x.logprob,
            bytes: [...Buffer.from(x.token, 'utf8')],
          })),
        })),
        refusal: null,
      };
    }
    const out: Record<string, unknown> = {
      id: `chatcmpl-fake-${requests.length}`,
      object: 'chat.completion',
      created: 1_700_000_000,
      model: body?.model ?? 'fake-model',
      choices: [choice],
    };
    if (!reply.noUsage) {
      const prompt = reply.usage?.promptTokens ?? promptWords;
      const completion =
        reply.usage?.completionTokens ?? (options.countTokens ? options.countTokens.completion(text) : words(text));
      const usage: Record<string, unknown> = {
        prompt_tokens: prompt,
        completion_tokens: completion,
        total_tokens: prompt + completion,
      };
      if (options.promptCache)
        usage.prompt_tokens_details = { cached_tokens: cachedTokensOf(body, prompt), audio_tokens: 0 };
      out.usage = usage;
    }
    return { status: 200, json: out };
  }

  const batchApi = new BatchEndpoints(basePaths[0] ?? '/v1', options.batch ?? {}, async (body) =>
    chatAnswer(body, await nextChatReply(body, basePaths[0] ?? '/v1')),
  );

  function answerEmbeddings(res: ServerResponse, body: unknown, reply: FakeReply, basePath: string): void {
    const b = (body ?? {}) as { input?: unknown; model?: string; encoding_format?: string; dimensions?: number };
    const inputs = typeof b.input === 'string' ? [b.input] : Array.isArray(b.input) ? b.input.map(String) : [];
    const dimensions = typeof b.dimensions === 'number' ? b.dimensions : dim;
    const data = inputs.map((text, index) => {
      const vec = options.embed ? options.embed(text, dimensions, basePath) : hashVector(text, dimensions);
      const embedding =
        b.encoding_format === 'base64' ? Buffer.from(new Float32Array(vec).buffer).toString('base64') : vec;
      return { object: 'embedding', index, embedding };
    });
    const out: Record<string, unknown> = { object: 'list', data, model: b.model ?? 'fake-embedding' };
    if (!reply.noUsage) {
      const n = reply.usage?.promptTokens ?? inputs.reduce((s, t) => s + words(t), 0);
      out.usage = { prompt_tokens: n, total_tokens: n };
    }
    sendJson(res, 200, out);
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    enqueue: (...r) => void chatQueue.push(...r),
    enqueueEmbeddings: (...r) => void embedQueue.push(...r),
    count: (path) => (path === undefined ? requests.length : requests.filter((r) => r.path === path).length),
    reset() {
      requests.length = 0;
      chatQueue.length = 0;
      embedQueue.length = 0;
    },
    batches: batchApi,
    close: () =>
      new Promise<void>((resolve, reject) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}

/** Parameters of POST /v1/chat/completions (ChatCompletionCreateParams); the API refuses any other. */
const CHAT_PARAMS = new Set([
  'model',
  'messages',
  'audio',
  'frequency_penalty',
  'function_call',
  'functions',
  'logit_bias',
  'logprobs',
  'max_completion_tokens',
  'max_tokens',
  'metadata',
  'modalities',
  'n',
  'parallel_tool_calls',
  'prediction',
  'presence_penalty',
  'prompt_cache_key',
  'prompt_cache_retention',
  'reasoning_effort',
  'response_format',
  'safety_identifier',
  'seed',
  'service_tier',
  'stop',
  'store',
  'stream',
  'stream_options',
  'temperature',
  'tool_choice',
  'tools',
  'top_logprobs',
  'top_p',
  'user',
  'verbosity',
  'web_search_options',
]);

/** What the API would refuse in a chat request (HTTP 400), or undefined. */
function chatRequestProblem(body: ChatRequestBody | undefined): { message: string; param: string | null } | undefined {
  if (body === null || typeof body !== 'object')
    return { message: 'We could not parse the JSON body of your request.', param: null };
  for (const k of Object.keys(body))
    if (!CHAT_PARAMS.has(k)) return { message: `Unrecognized request argument supplied: ${k}`, param: k };
  if (typeof body.model !== 'string' || body.model === '')
    return { message: 'you must provide a model parameter', param: 'model' };
  if (!Array.isArray(body.messages) || body.messages.length === 0)
    return { message: "'messages' must be a non-empty array", param: 'messages' };
  if (body.prompt_cache_key !== undefined && typeof body.prompt_cache_key !== 'string')
    return { message: "'prompt_cache_key' must be a string", param: 'prompt_cache_key' };
  return undefined;
}

/** A queued reply that says anything (an empty object means "use the handler / default"). */
function hasQueued(reply: FakeReply): boolean {
  return Object.keys(reply).length > 0;
}

function words(text: string): number {
  const t = text.trim();
  return t === '' ? 0 : t.split(/\s+/).length;
}

function defaultLogprobs(text: string, top: number): NonNullable<FakeReply['logprobs']> {
  return text.split(/(?=\s)/).map((token) => ({
    token,
    logprob: -0.25,
    top: [
      { token, logprob: -0.25 },
      ...Array.from({ length: Math.max(0, top - 1) }, (_, i) => ({ token: `alt${i + 1}`, logprob: -3 - i })),
    ].slice(0, top),
  }));
}

/**
 * A hashed bag of lowercase words (feature hashing, unnormalised): texts sharing words get a positive cosine, so
 * semantic search over it behaves like a (crude) real embedder. Pass it as `embed` where retrieval must make sense.
 */
export function bagOfWordsVector(text: string, dim: number): number[] {
  const v = new Array<number>(dim).fill(0);
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    const h = createHash('sha256').update(word).digest();
    v[h.readUInt32LE(0) % dim]! += h[4]! & 1 ? 1 : -1;
  }
  return v;
}

/** The embedding requests a server received, as sent (input, model, encoding_format, dimensions). */
export function embeddingRequests(
  server: FakeOpenAiServer,
): { input: string | string[]; model: string; encoding_format?: string; dimensions?: number }[] {
  return server.requests
    .filter((r) => r.path === '/v1/embeddings')
    .map((r) => r.body as { input: string | string[]; model: string; encoding_format?: string; dimensions?: number });
}

/** Deterministic unit vector from sha256(text), so equal texts embed equally and tests can predict cosines. */
export function hashVector(text: string, dim: number): number[] {
  const out: number[] = [];
  let block = createHash('sha256').update(text).digest();
  let offset = 0;
  while (out.length < dim) {
    if (offset + 2 > block.length) {
      block = createHash('sha256').update(block).digest();
      offset = 0;
    }
    out.push((block.readUInt16LE(offset) / 65535) * 2 - 1);
    offset += 2;
  }
  const norm = Math.hypot(...out) || 1;
  return out.map((x) => x / norm);
}

function readBytes(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function retryAfter(reply: FakeReply): Record<string, string> {
  return reply.retryAfterSec !== undefined ? { 'retry-after': String(reply.retryAfterSec) } : {};
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}
