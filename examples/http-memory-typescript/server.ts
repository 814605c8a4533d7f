/**
 * A reference http-memory server in TypeScript (Node's standard library only): the same protocol as
 * examples/http-memory-python/server.py (docs/http-memory.openapi.yaml), a BM25 memory of the messages it is sent.
 *
 *   npx tsx examples/http-memory-typescript/server.ts --port 8765      (--port 0: any free port; the URL is printed)
 *
 * Words come from `Intl.Segmenter` (ICU's word boundaries, dictionary-based for Chinese and Japanese), so "大提琴"
 * is one term here, where the Python server uses Han characters and their pairs; both rank with Okapi BM25 (k1 1.2,
 * b 0.75, Lucene's IDF), leave out messages later than the question's date, and cite each message's unit id. With
 * the environment variable HTTP_MEMORY_API_KEY (or the one named by --api-key-env) set, requests need
 * `Authorization: Bearer <key>`. Importable: `startHttpMemoryServer({ port })` (tests use it).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const PROTOCOL = 'http-memory/1';
const NAMESPACE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/;
const STOPWORDS = new Set(
  'a an and are as at be by did do does for from had has have he her his i in is it its me my of on or our she so that the their them they this to was we were what when where which who why will with you your'.split(
    ' ',
  ),
);
const K1 = 1.2;
const B = 0.75;
const segmenter = new Intl.Segmenter('zh', { granularity: 'word' });

/** Lower-cased words (ICU word boundaries), English stop words left out. */
export function terms(text: string): string[] {
  const out: string[] = [];
  for (const s of segmenter.segment(text.toLowerCase()))
    if (s.isWordLike && !STOPWORDS.has(s.segment)) out.push(s.segment);
  return out;
}

interface Message {
  unit_id: string;
  role: 'user' | 'assistant';
  speaker: string | null;
  text: string;
  time: string;
  at: number;
  terms: string[];
}

class BadRequest extends Error {}

class Namespace {
  readonly messages: Message[] = [];
  readonly batches = new Set<string>();
  private readonly df = new Map<string, number>();
  private totalLength = 0;

  add(batchId: string, messages: Omit<Message, 'at' | 'terms'>[]): number {
    if (this.batches.has(batchId)) return 0;
    for (const m of messages) {
      const t = terms(m.speaker ? `${m.speaker} ${m.text}` : m.text);
      this.messages.push({ ...m, at: Date.parse(m.time), terms: t });
      for (const term of new Set(t)) this.df.set(term, (this.df.get(term) ?? 0) + 1);
      this.totalLength += t.length;
    }
    this.batches.add(batchId);
    return messages.length;
  }

  search(query: string, k: number, before: number | undefined) {
    const n = this.messages.length;
    if (n === 0) return [];
    const avg = this.totalLength / n;
    const q = new Set(terms(query));
    const scored: { score: number; i: number; m: Message }[] = [];
    this.messages.forEach((m, i) => {
      if (before !== undefined && m.at > before) return;
      const tf = new Map<string, number>();
      for (const term of m.terms) if (q.has(term)) tf.set(term, (tf.get(term) ?? 0) + 1);
      let score = 0;
      for (const [term, f] of tf) {
        const df = this.df.get(term)!;
        score +=
          Math.log(1 + (n - df + 0.5) / (df + 0.5)) *
          ((f * (K1 + 1)) / (f + K1 * (1 - B + (B * m.terms.length) / avg)));
      }
      if (score > 0) scored.push({ score, i, m });
    });
    scored.sort((a, b) => b.score - a.score || a.i - b.i);
    return scored.slice(0, k).map(({ score, m }) => ({
      text: m.speaker ? `${m.speaker}: ${m.text}` : m.text,
      score: Math.round(score * 1e6) / 1e6,
      unit_ids: [m.unit_id],
      time: m.time,
    }));
  }
}

function object(body: unknown): Record<string, unknown> {
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw new BadRequest('the body must be a JSON object');
  return body as Record<string, unknown>;
}
const nonEmpty = (v: unknown): v is string => typeof v === 'string' && v !== '';

function checkIngest(body: unknown): { batchId: string; messages: Omit<Message, 'at' | 'terms'>[] } {
  const b = object(body);
  for (const key of ['batch_id', 'session_id'])
    if (!nonEmpty(b[key])) throw new BadRequest(`${key} must be a non-empty string`);
  if (!Array.isArray(b.messages) || b.messages.length === 0) throw new BadRequest('messages must be a non-empty array');
  const messages = b.messages.map((raw, i) => {
    const m = object(raw);
    if (!nonEmpty(m.unit_id)) throw new BadRequest(`messages[${i}].unit_id must be a non-empty string`);
    if (m.role !== 'user' && m.role !== 'assistant')
      throw new BadRequest(`messages[${i}].role must be user or assistant`);
    if (typeof m.text !== 'string') throw new BadRequest(`messages[${i}].text must be a string`);
    if (typeof m.time !== 'string' || !RFC3339.test(m.time) || Number.isNaN(Date.parse(m.time)))
      throw new BadRequest(`messages[${i}].time must be an RFC 3339 date-time with a zone`);
    if (m.speaker !== undefined && m.speaker !== null && typeof m.speaker !== 'string')
      throw new BadRequest(`messages[${i}].speaker must be a string or null`);
    return {
      unit_id: m.unit_id,
      role: m.role as Message['role'],
      speaker: (m.speaker as string | null | undefined) ?? null,
      text: m.text,
      time: m.time,
    };
  });
  return { batchId: b.batch_id as string, messages };
}

function checkSearch(body: unknown): { query: string; k: number; before: number | undefined } {
  const b = object(body);
  if (!nonEmpty(b.query)) throw new BadRequest('query must be a non-empty string');
  if (typeof b.k !== 'number' || !Number.isInteger(b.k) || b.k < 1 || b.k > 1000)
    throw new BadRequest('k must be an integer from 1 to 1000');
  const date = b.question_date;
  if (date !== undefined && date !== null && (typeof date !== 'string' || !RFC3339.test(date)))
    throw new BadRequest('question_date must be an RFC 3339 date-time with a zone, or null');
  return { query: b.query, k: b.k, before: typeof date === 'string' ? Date.parse(date) : undefined };
}

export interface HttpMemoryServer {
  url: string;
  /** Requests answered so far. */
  readonly requests: number;
  close(): Promise<void>;
}

export async function startHttpMemoryServer(
  opts: { port?: number; host?: string; apiKey?: string } = {},
): Promise<HttpMemoryServer> {
  const namespaces = new Map<string, Namespace>();
  const status = (name: string) => ({ namespace: name, messages: namespaces.get(name)!.messages.length, ready: true });

  const handle = (method: string, path: string, raw: string, auth: string | undefined): [number, unknown] => {
    if (opts.apiKey && auth !== `Bearer ${opts.apiKey}`)
      return [401, { error: 'missing or wrong Authorization: Bearer key' }];
    if (path === '/health' && method === 'GET')
      return [200, { protocol: PROTOCOL, sources: true, name: 'bm25 (typescript reference)' }];
    const m = /^\/namespaces\/([^/]+)(\/sessions|\/search)?$/.exec(path);
    if (!m) return [404, { error: `no such path: ${path}` }];
    const name = decodeURIComponent(m[1]!);
    const tail = m[2];
    if (!NAMESPACE.test(name)) throw new BadRequest(`namespace "${name}" does not match ${NAMESPACE.source}`);
    let body: unknown;
    try {
      body = raw === '' ? undefined : JSON.parse(raw);
    } catch {
      throw new BadRequest('the body is not JSON');
    }
    if (tail === undefined && method === 'PUT') {
      const created = !namespaces.has(name);
      if (created) namespaces.set(name, new Namespace());
      return [created ? 201 : 200, status(name)];
    }
    const ns = namespaces.get(name);
    if (!ns) return [404, { error: `no namespace ${name}` }];
    if (tail === undefined && method === 'GET') return [200, status(name)];
    if (tail === undefined && method === 'DELETE') {
      namespaces.delete(name);
      return [200, { deleted: true }];
    }
    if (tail === '/sessions' && method === 'POST') {
      const { batchId, messages } = checkIngest(body);
      const stored = ns.add(batchId, messages);
      return [200, { batch_id: batchId, stored, duplicate: stored === 0 }];
    }
    if (tail === '/search' && method === 'POST') {
      const { query, k, before } = checkSearch(body);
      return [200, { items: ns.search(query, k, before) }];
    }
    return [405, { error: `${method} is not allowed on ${path}` }];
  };

  let requests = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    requests++;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let reply: [number, unknown];
      try {
        reply = handle(
          req.method ?? 'GET',
          new URL(req.url ?? '/', 'http://x').pathname,
          Buffer.concat(chunks).toString('utf8'),
          req.headers.authorization,
        );
      } catch (err) {
        reply = err instanceof BadRequest ? [400, { error: err.message }] : [500, { error: String(err) }];
      }
      const data = Buffer.from(JSON.stringify(reply[1]));
      res
        .writeHead(reply[0], { 'content-type': 'application/json; charset=utf-8', 'content-length': data.length })
        .end(data);
    });
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', resolve));
  const { address, port } = server.address() as AddressInfo;
  return {
    url: `http://${address}:${port}`,
    get requests() {
      return requests;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

// Run as a program (not when imported).
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '8765' },
      host: { type: 'string', default: '127.0.0.1' },
      'api-key-env': { type: 'string', default: 'HTTP_MEMORY_API_KEY' },
    },
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`--port must be a port number, not ${values.port}\n`);
    process.exit(2);
  }
  const key = process.env[values['api-key-env']!];
  const s = await startHttpMemoryServer({ port, host: values.host!, ...(key ? { apiKey: key } : {}) });
  process.stdout.write(`http-memory server listening on ${s.url}\n`);
}
