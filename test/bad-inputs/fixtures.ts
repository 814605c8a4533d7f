/**
 * Builders for the malformed-input corpus (cases.ts): tiny LongMemEval / LoCoMo records and experiment YAML written
 * into a case's temp folder, and a loopback HTTP server whose replies misbehave in one chosen way. Formats follow
 * the docs/datasets.md (docs/datasets.md §1 LoCoMo schema, §2 LongMemEval fields).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The API key every case runs with; the corpus asserts it never reaches stderr. */
export const SECRET_KEY = 'sk-badinputs-SECRET-7f3a9c1e5b';

/** One LongMemEval item (docs/datasets.md §2): two sessions, gold in the first. */
export function lmeItem(
  id: string,
  opts: { gold?: string[]; question?: string; date?: string; type?: string } = {},
): Record<string, unknown> {
  return {
    question_id: id,
    question_type: opts.type ?? 'single-session-user',
    question: opts.question ?? 'What colour is my car?',
    answer: 'red',
    question_date: opts.date ?? '2023/05/30 (Tue) 15:53',
    haystack_dates: ['2023/05/27 (Sat) 00:59', '2023/05/28 (Sun) 10:00'],
    haystack_session_ids: ['s1', 's2'],
    haystack_sessions: [
      [
        { role: 'user', content: 'My car is red.', has_answer: true },
        { role: 'assistant', content: 'Nice colour.' },
      ],
      [{ role: 'user', content: 'I like green tea.' }],
    ],
    answer_session_ids: opts.gold ?? ['s1'],
  };
}

/** One LoCoMo conversation (docs/datasets.md §1): two sessions, two QA items. */
export function locomoSample(sampleId: string): Record<string, unknown> {
  return {
    qa: [
      { question: 'What colour is the car?', answer: 'red', evidence: ['D1:1'], category: 4 },
      { question: 'When did they talk about tea?', answer: '8 May 2023', evidence: ['D2:1'], category: 2 },
    ],
    conversation: {
      speaker_a: 'Ana',
      speaker_b: 'Bo',
      session_1_date_time: '1:56 pm on 8 May, 2023',
      session_1: [
        { speaker: 'Ana', dia_id: 'D1:1', text: 'My car is red.' },
        { speaker: 'Bo', dia_id: 'D1:2', text: 'Nice.' },
      ],
      session_2_date_time: '2:00 pm on 9 May, 2023',
      session_2: [{ speaker: 'Ana', dia_id: 'D2:1', text: 'I like green tea.' }],
    },
    event_summary: {},
    observation: {},
    session_summary: {},
    sample_id: sampleId,
  };
}

/** An experiment YAML: `datasets` and `methods` given as YAML text lines (indented by the caller), BM25 by default. */
export function experimentYaml(parts: { datasets: string; methods?: string; extra?: string; name?: string }): string {
  return [
    `name: ${parts.name ?? 'bad-input-case'}`,
    'datasets:',
    parts.datasets,
    'methods:',
    parts.methods ?? '  - { id: bm25, method: bm25, k: 5 }',
    parts.extra ?? '',
  ].join('\n');
}

/** A dataset entry of a custom file. */
export function pathDataset(
  path: string,
  format: 'longmemeval' | 'locomo' | 'beam' | 'memdaily' = 'longmemeval',
  extra = '',
): string {
  return `  - { format: ${format}, path: '${path}'${extra ? `, ${extra}` : ''} }`;
}

/** How the loopback server misbehaves. */
export type ReplyMode =
  | 'echo-key-401'
  | 'error-500'
  | 'html-502'
  | 'not-json'
  | 'rate-limit-429'
  | 'wrong-shape'
  | 'empty-200'
  /** A chunked body that never ends. */
  | 'endless-body'
  /** A JSON reply with a byte that is not UTF-8 (Latin-1 "café"). */
  | 'not-utf8'
  /** The announced length, then a tenth of the bytes, then the connection drops. */
  | 'cut-body';

/** A loopback server answering every request per `mode` (401 echoes the Authorization header, as some proxies do). */
export async function startServer(mode: ReplyMode): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const json = (status: number, body: unknown, headers: Record<string, string> = {}): void => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(JSON.stringify(body));
      };
      switch (mode) {
        case 'echo-key-401':
          return json(401, {
            error: { message: `invalid key: ${req.headers.authorization ?? ''}`, type: 'invalid_request_error' },
          });
        case 'error-500':
          return json(500, { error: { message: 'internal error' } });
        case 'html-502':
          res.writeHead(502, { 'content-type': 'text/html' });
          return res.end(
            '<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1><hr>nginx</body></html>',
          );
        case 'not-json':
          res.writeHead(200, { 'content-type': 'application/json' });
          return res.end('this is not json');
        case 'rate-limit-429':
          return json(429, { error: { message: 'Rate limit reached' } }, { 'retry-after': '0' });
        case 'wrong-shape':
          return json(200, { object: 'list', results: [1, 2, 3] });
        case 'empty-200':
          res.writeHead(200, { 'content-type': 'application/json' });
          return res.end('');
        case 'endless-body': {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.write('{"object":"list","data":[{"object":"embedding","index":0,"embedding":"');
          const chunk = Buffer.alloc(16 * 1024, 0x41);
          const pump = (): void => {
            while (!res.destroyed && res.write(chunk));
            if (!res.destroyed) res.once('drain', pump);
          };
          res.on('close', () => res.removeAllListeners('drain'));
          return pump();
        }
        case 'not-utf8': {
          const bytes = Buffer.from(JSON.stringify({ error: { message: 'caf#' } }), 'latin1');
          bytes[bytes.indexOf('caf#') + 3] = 0xe9;
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': bytes.length });
          return res.end(bytes);
        }
        case 'cut-body':
          res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': 100_000 });
          return res.write(Buffer.alloc(10_000, 0x7b), () => res.destroy());
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A loopback URL nothing listens on (a server started and closed). */
export async function deadUrl(): Promise<string> {
  const s = await startServer('error-500');
  await s.close();
  return s.url;
}
