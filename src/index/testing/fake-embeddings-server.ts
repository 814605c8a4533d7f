/**
 * A loopback stand-in for an OpenAI-compatible `POST /v1/embeddings` endpoint, for tests. It speaks the real wire
 * format: `{ object: 'list', data: [{ object: 'embedding', index, embedding }], model, usage }`, with `embedding` a
 * base64 string of float32 little-endian values when the request asks `encoding_format: 'base64'` (the openai SDK's
 * default) and a JSON number array otherwise. Vectors are deterministic: a hashed bag of lowercase words (feature
 * hashing), so texts sharing words have a positive cosine. It records every request so tests can count calls.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';

const RequestSchema = z.object({
  model: z.string(),
  input: z.union([z.string(), z.array(z.string())]),
  encoding_format: z.enum(['float', 'base64']).optional(),
  dimensions: z.number().int().positive().optional(),
});
export type EmbeddingsRequest = z.infer<typeof RequestSchema>;

export interface FakeEmbeddingsServer {
  /** e.g. `http://127.0.0.1:41234/v1` — pass as the SDK's baseURL. */
  readonly baseURL: string;
  /** Every parsed request body, in arrival order. */
  readonly requests: EmbeddingsRequest[];
  /** Authorization headers seen (so a test can check the key was sent, never logged). */
  readonly authHeaders: (string | undefined)[];
  close(): Promise<void>;
}

export interface FakeEmbeddingsOptions {
  /** Dimension when the request gives no `dimensions` (default 64). */
  dim?: number;
  /** Answer the first N requests with HTTP 500, to exercise retries. */
  failFirst?: number;
}

/** The deterministic vector the server returns for a text (unnormalised hashed bag of words). */
export function fakeEmbedding(text: string, dim: number): Float32Array {
  const v = new Float32Array(dim);
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    const h = createHash('sha256').update(word).digest();
    v[h.readUInt32LE(0) % dim]! += h[4]! & 1 ? 1 : -1;
  }
  return v;
}

export async function startFakeEmbeddingsServer(options: FakeEmbeddingsOptions = {}): Promise<FakeEmbeddingsServer> {
  const requests: EmbeddingsRequest[] = [];
  const authHeaders: (string | undefined)[] = [];
  let failuresLeft = options.failFirst ?? 0;
  const server: Server = createServer((req, res) => {
    void handle(req, res).catch((err: unknown) => send(res, 500, { error: { message: String(err) } }));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'POST' || req.url !== '/v1/embeddings') {
      send(res, 404, { error: { message: `no route ${req.method} ${req.url}`, type: 'invalid_request_error' } });
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const parsed = RequestSchema.safeParse(JSON.parse(Buffer.concat(chunks).toString('utf8')));
    if (!parsed.success) {
      send(res, 400, { error: { message: parsed.error.message, type: 'invalid_request_error' } });
      return;
    }
    requests.push(parsed.data);
    authHeaders.push(req.headers.authorization);
    if (failuresLeft > 0) {
      failuresLeft--;
      send(res, 500, { error: { message: 'injected failure', type: 'server_error' } });
      return;
    }
    const body = parsed.data;
    const inputs = typeof body.input === 'string' ? [body.input] : body.input;
    const dim = body.dimensions ?? options.dim ?? 64;
    let tokens = 0;
    const data = inputs.map((text, index) => {
      tokens += text.split(/\s+/).filter(Boolean).length;
      const v = fakeEmbedding(text, dim);
      const embedding =
        body.encoding_format === 'base64' ? Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64') : [...v];
      return { object: 'embedding', index, embedding };
    });
    send(res, 200, { object: 'list', data, model: body.model, usage: { prompt_tokens: tokens, total_tokens: tokens } });
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    authHeaders,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        // The SDK keeps connections alive; without this, close() waits for them to time out.
        server.closeAllConnections();
      }),
  };
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
