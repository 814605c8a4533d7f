/**
 * The Batch API of the loopback OpenAI stand-in (fake-openai-server.ts), following OpenAI's API reference for Files
 * and Batches (the shapes are those of the `openai` SDK's types, resources/files.ts and resources/batches.ts, which
 * are generated from that reference):
 *
 * - `POST /v1/files` (multipart: `file`, `purpose`), `GET /v1/files[?purpose&limit&after&order]`, `GET /v1/files/{id}`,
 *   `GET /v1/files/{id}/content`, `DELETE /v1/files/{id}`;
 * - `POST /v1/batches` (`input_file_id`, `endpoint`, `completion_window: "24h"`, `metadata`), `GET /v1/batches/{id}`,
 *   `GET /v1/batches[?after&limit]` (newest first), `POST /v1/batches/{id}/cancel`.
 *
 * Every request is checked as the real service checks it: unknown ids are 404, a bad parameter is 400 naming it, and a
 * batch whose input file breaks the documented input format (one JSON object per line with a unique `custom_id`,
 * `method: "POST"`, `url` equal to the batch's endpoint, a `body` naming the same `model` on every line, at most 50,000
 * lines and 200 MB) is created and then goes to `failed` with `errors.data[]` naming the line, as OpenAI validates
 * asynchronously. A valid batch moves validating → in_progress → finalizing → completed over successive status
 * requests (`stepsToComplete`), or stays in progress while `hold` is set; its chat lines are answered by the server's
 * own chat logic (the queue / `chat` handler), so a test scripts a line's failure exactly as a synchronous one. The
 * output file holds `{id, custom_id, response: {status_code: 200, request_id, body}, error: null}` lines; failed lines
 * (HTTP status ≠ 200) and lines the test marks expired (`error.code: "batch_expired"`) go to the error file.
 */
import { randomBytes } from 'node:crypto';
import type { ChatAnswer, ChatRequestBody } from './fake-chat-types.ts';

export interface BatchOptions {
  /** Status requests a valid batch takes to complete (validating → in_progress → … → completed). Default 2. */
  stepsToComplete?: number;
  /** While true, batches stay `in_progress` however often they are polled. */
  hold?: boolean;
  /** Lines (by custom_id) that expire unanswered, as when the 24 h window runs out. */
  expire?: (customId: string) => boolean;
  /**
   * Replies lost after the work was done: the next `n` uploads / batch creations are stored, then answered with HTTP
   * 502 (a proxy dropping the reply), as a client that retries blindly would create a second copy.
   */
  loseReplies?: { upload?: number; create?: number };
  /**
   * Answered lines (by custom_id) the error file lists as well, with a 500 — a provider's files disagreeing about one
   * request, which a client must not take as a reason to send (and pay for) it again.
   */
  alsoInErrorFile?: (customId: string) => boolean;
}

interface StoredFile {
  id: string;
  bytes: Buffer;
  filename: string;
  purpose: string;
  created_at: number;
}

interface StoredBatch {
  id: string;
  object: 'batch';
  endpoint: string;
  errors: {
    object: 'list';
    data: { code: string; message: string; param: string | null; line: number | null }[];
  } | null;
  input_file_id: string;
  completion_window: string;
  status: 'validating' | 'failed' | 'in_progress' | 'finalizing' | 'completed' | 'expired' | 'cancelling' | 'cancelled';
  output_file_id: string | null;
  error_file_id: string | null;
  created_at: number;
  in_progress_at: number | null;
  expires_at: number;
  finalizing_at: number | null;
  completed_at: number | null;
  failed_at: number | null;
  expired_at: number | null;
  cancelling_at: number | null;
  cancelled_at: number | null;
  request_counts: { total: number; completed: number; failed: number };
  metadata: Record<string, string> | null;
  model?: string;
  usage?: {
    input_tokens: number;
    input_tokens_details: { cached_tokens: number };
    output_tokens: number;
    output_tokens_details: { reasoning_tokens: number };
    total_tokens: number;
  };
}

interface BatchState {
  batch: StoredBatch;
  polls: number;
  lines: { custom_id: string; body: ChatRequestBody }[];
}

export interface BatchReply {
  status: number;
  json?: unknown;
  bytes?: Buffer;
}

const MAX_LINES = 50_000;
const MAX_BYTES = 200 * 1024 * 1024;
const FILE_PURPOSES = ['assistants', 'batch', 'fine-tune', 'vision', 'user_data', 'evals'];
const BATCH_ENDPOINTS = [
  '/v1/responses',
  '/v1/chat/completions',
  '/v1/embeddings',
  '/v1/completions',
  '/v1/moderations',
];
const BATCH_PARAMS = new Set(['input_file_id', 'endpoint', 'completion_window', 'metadata', 'output_expires_after']);

const now = (): number => Math.floor(Date.now() / 1000);
const newId = (prefix: string): string => `${prefix}-${randomBytes(12).toString('hex')}`;
const invalid = (message: string, param: string | null = null, status = 400): BatchReply => ({
  status,
  json: { error: { message, type: 'invalid_request_error', param, code: null } },
});

export class BatchEndpoints {
  private readonly files = new Map<string, StoredFile>();
  private readonly batches = new Map<string, BatchState>();
  /** Batch ids in creation order. */
  private readonly order: string[] = [];

  constructor(
    private readonly base: string,
    readonly options: BatchOptions,
    /** Answers one chat line as the synchronous endpoint would. */
    private readonly answer: (body: ChatRequestBody) => Promise<ChatAnswer>,
  ) {}

  handles(path: string): boolean {
    return (
      path === `${this.base}/files` ||
      path.startsWith(`${this.base}/files/`) ||
      path === `${this.base}/batches` ||
      path.startsWith(`${this.base}/batches/`)
    );
  }

  /** Batches created so far (oldest first), as the API shows them. */
  created(): StoredBatch[] {
    return this.order.map((id) => structuredClone(this.batches.get(id)!.batch));
  }

  /** The text of a stored file (input, output or error file). */
  fileText(id: string): string | undefined {
    return this.files.get(id)?.bytes.toString('utf8');
  }

  async handle(
    method: string,
    path: string,
    query: URLSearchParams,
    raw: Buffer,
    contentType: string | undefined,
  ): Promise<BatchReply> {
    const rest = path.slice(this.base.length).split('/').filter(Boolean);
    if (rest[0] === 'files') {
      if (rest.length === 1 && method === 'POST') return this.upload(raw, contentType);
      if (rest.length === 1 && method === 'GET') {
        const files = [...this.files.values()]
          .filter((f) => !query.has('purpose') || f.purpose === query.get('purpose'))
          .map(fileObject);
        return this.list(query.get('order') === 'asc' ? files : files.reverse(), query);
      }
      const file = this.files.get(rest[1] ?? '');
      if (!file) return invalid(`No such File object: ${rest[1]}`, 'id', 404);
      if (rest.length === 2 && method === 'GET') return { status: 200, json: fileObject(file) };
      if (rest.length === 2 && method === 'DELETE') {
        this.files.delete(file.id);
        return { status: 200, json: { id: file.id, object: 'file', deleted: true } };
      }
      if (rest.length === 3 && rest[2] === 'content' && method === 'GET') return { status: 200, bytes: file.bytes };
      return invalid(`no route ${method} ${path}`, null, 404);
    }
    if (rest.length === 1 && method === 'POST') return this.create(raw);
    if (rest.length === 1 && method === 'GET')
      return this.list(
        [...this.order].reverse().map((id) => this.view(id)),
        query,
      );
    const state = this.batches.get(rest[1] ?? '');
    if (!state) return invalid(`No batch found with id '${rest[1]}'.`, 'batch_id', 404);
    if (rest.length === 2 && method === 'GET') {
      await this.advance(state);
      return { status: 200, json: this.view(state.batch.id) };
    }
    if (rest.length === 3 && rest[2] === 'cancel' && method === 'POST') {
      const b = state.batch;
      if (!['validating', 'in_progress', 'finalizing'].includes(b.status))
        return invalid(`Cannot cancel a batch with status '${b.status}'.`);
      b.status = 'cancelled';
      b.cancelling_at = b.cancelled_at = now();
      return { status: 200, json: this.view(b.id) };
    }
    return invalid(`no route ${method} ${path}`, null, 404);
  }

  private view(id: string): StoredBatch {
    return structuredClone(this.batches.get(id)!.batch);
  }

  /** A cursor page as the list endpoints return it (`after` = the last id of the previous page). */
  private list(items: { id: string }[], query: URLSearchParams): BatchReply {
    const limit = Number(query.get('limit') ?? 20);
    if (!Number.isInteger(limit) || limit < 1 || limit > 10_000)
      return invalid('limit must be an integer between 1 and 10000', 'limit');
    const after = query.get('after');
    let start = 0;
    if (after !== null) {
      const i = items.findIndex((x) => x.id === after);
      if (i < 0) return invalid(`No object found with id '${after}'`, 'after');
      start = i + 1;
    }
    const data = items.slice(start, start + limit);
    return {
      status: 200,
      json: {
        object: 'list',
        data,
        first_id: data[0]?.id ?? null,
        last_id: data.at(-1)?.id ?? null,
        has_more: start + limit < items.length,
      },
    };
  }

  private async upload(raw: Buffer, contentType: string | undefined): Promise<BatchReply> {
    if (!contentType?.startsWith('multipart/form-data'))
      return invalid('file uploads must be multipart/form-data', 'file');
    let form: FormData;
    try {
      form = await new Request('http://upload.invalid/', {
        method: 'POST',
        headers: { 'content-type': contentType },
        body: raw,
      }).formData();
    } catch {
      return invalid('could not parse the multipart body', 'file');
    }
    const purpose = form.get('purpose');
    const file = form.get('file');
    if (typeof purpose !== 'string' || !FILE_PURPOSES.includes(purpose))
      return invalid(`'purpose' must be one of ${FILE_PURPOSES.join(', ')}`, 'purpose');
    if (file === null || typeof file === 'string') return invalid("'file' is a required property", 'file');
    const bytes = Buffer.from(await file.arrayBuffer());
    if (purpose === 'batch' && !file.name.endsWith('.jsonl'))
      return invalid(`Invalid file format for Batch API. Must be .jsonl`, 'file');
    if (purpose === 'batch' && bytes.length > MAX_BYTES)
      return invalid('Batch input files are limited to 200 MB', 'file');
    const stored: StoredFile = { id: newId('file'), bytes, filename: file.name, purpose, created_at: now() };
    this.files.set(stored.id, stored);
    if (this.lose('upload')) return { status: 502, json: { error: { message: 'Bad gateway', type: 'server_error' } } };
    return { status: 200, json: fileObject(stored) };
  }

  private create(raw: Buffer): BatchReply {
    let params: Record<string, unknown>;
    try {
      params = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
    } catch {
      return invalid('We could not parse the JSON body of your request.');
    }
    if (params === null || typeof params !== 'object' || Array.isArray(params))
      return invalid('the body must be a JSON object');
    for (const k of Object.keys(params))
      if (!BATCH_PARAMS.has(k)) return invalid(`Unrecognized request argument supplied: ${k}`, k);
    if (typeof params.input_file_id !== 'string')
      return invalid("'input_file_id' is a required property", 'input_file_id');
    if (typeof params.endpoint !== 'string' || !BATCH_ENDPOINTS.includes(params.endpoint))
      return invalid(`'endpoint' must be one of ${BATCH_ENDPOINTS.join(', ')}`, 'endpoint');
    if (params.completion_window !== '24h') return invalid("'completion_window' must be '24h'", 'completion_window');
    const metadataProblem = checkMetadata(params.metadata);
    if (metadataProblem) return invalid(metadataProblem, 'metadata');
    const file = this.files.get(params.input_file_id);
    if (!file) return invalid(`No such File object: ${params.input_file_id}`, 'input_file_id', 404);
    if (file.purpose !== 'batch')
      return invalid(`File ${file.id} was not uploaded with purpose 'batch'`, 'input_file_id');
    const t = now();
    const batch: StoredBatch = {
      id: newId('batch'),
      object: 'batch',
      endpoint: params.endpoint,
      errors: null,
      input_file_id: file.id,
      completion_window: '24h',
      status: 'validating',
      output_file_id: null,
      error_file_id: null,
      created_at: t,
      in_progress_at: null,
      expires_at: t + 86_400,
      finalizing_at: null,
      completed_at: null,
      failed_at: null,
      expired_at: null,
      cancelling_at: null,
      cancelled_at: null,
      request_counts: { total: 0, completed: 0, failed: 0 },
      metadata: (params.metadata as Record<string, string> | undefined) ?? null,
    };
    const { lines, errors } = validateInput(file.bytes, params.endpoint);
    if (errors.length > 0) {
      batch.status = 'failed';
      batch.failed_at = t;
      batch.errors = { object: 'list', data: errors };
    } else {
      batch.request_counts.total = lines.length;
      if (lines[0]) batch.model = lines[0].body.model;
    }
    this.batches.set(batch.id, { batch, polls: 0, lines });
    this.order.push(batch.id);
    if (this.lose('create')) return { status: 502, json: { error: { message: 'Bad gateway', type: 'server_error' } } };
    return { status: 200, json: structuredClone(batch) };
  }

  private lose(what: 'upload' | 'create'): boolean {
    const left = this.options.loseReplies?.[what] ?? 0;
    if (left <= 0) return false;
    this.options.loseReplies![what] = left - 1;
    return true;
  }

  /** One status request's worth of progress (see the header). */
  private async advance(state: BatchState): Promise<void> {
    const b = state.batch;
    if (b.status !== 'validating' && b.status !== 'in_progress') return;
    if (b.status === 'validating') {
      b.status = 'in_progress';
      b.in_progress_at = now();
    }
    if (this.options.hold) return;
    state.polls++;
    if (state.polls < (this.options.stepsToComplete ?? 2)) return;
    b.finalizing_at = now();
    const out: string[] = [];
    const errs: string[] = [];
    const usage = {
      input_tokens: 0,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 0,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 0,
    };
    for (const line of state.lines) {
      const id = newId('batch_req');
      if (this.options.expire?.(line.custom_id)) {
        errs.push(
          JSON.stringify({
            id,
            custom_id: line.custom_id,
            response: null,
            error: {
              code: 'batch_expired',
              message: 'This request could not be executed before the completion window expired.',
            },
          }),
        );
        continue;
      }
      const a = await this.answer(line.body);
      const status = a.text !== undefined ? 500 : a.status;
      const body =
        a.text !== undefined
          ? { error: { message: 'The server had an error processing your request.', type: 'server_error' } }
          : a.json;
      const record = JSON.stringify({
        id,
        custom_id: line.custom_id,
        response: { status_code: status, request_id: randomBytes(8).toString('hex'), body },
        error: null,
      });
      if (status === 200) {
        out.push(record);
        if (this.options.alsoInErrorFile?.(line.custom_id))
          errs.push(
            JSON.stringify({
              id: newId('batch_req'),
              custom_id: line.custom_id,
              response: { status_code: 500, request_id: randomBytes(8).toString('hex'), body: { error: {} } },
              error: null,
            }),
          );
        const u = (
          body as {
            usage?: {
              prompt_tokens: number;
              completion_tokens: number;
              prompt_tokens_details?: { cached_tokens?: number };
            };
          }
        ).usage;
        if (u) {
          usage.input_tokens += u.prompt_tokens;
          usage.output_tokens += u.completion_tokens;
          usage.input_tokens_details.cached_tokens += u.prompt_tokens_details?.cached_tokens ?? 0;
          usage.total_tokens += u.prompt_tokens + u.completion_tokens;
        }
      } else errs.push(record);
    }
    const t = now();
    b.request_counts.completed = out.length;
    b.request_counts.failed = errs.length;
    b.output_file_id = this.storeOutput(out, b.id, 'output');
    b.error_file_id = errs.length > 0 ? this.storeOutput(errs, b.id, 'error') : null;
    b.usage = usage;
    b.status = 'completed';
    b.completed_at = t;
  }

  private storeOutput(lines: string[], batchId: string, kind: string): string {
    const file: StoredFile = {
      id: newId('file'),
      bytes: Buffer.from(lines.map((l) => `${l}\n`).join(''), 'utf8'),
      filename: `${batchId}_${kind}.jsonl`,
      purpose: 'batch_output',
      created_at: now(),
    };
    this.files.set(file.id, file);
    return file.id;
  }
}

function fileObject(f: StoredFile): { id: string } & Record<string, unknown> {
  const out: { id: string } & Record<string, unknown> = {
    id: f.id,
    object: 'file',
    bytes: f.bytes.length,
    created_at: f.created_at,
    filename: f.filename,
    purpose: f.purpose,
    status: 'processed',
    status_details: null,
  };
  // Batch files expire after 30 days by default (FileCreateParams.expires_after).
  if (f.purpose === 'batch' || f.purpose === 'batch_output') out.expires_at = f.created_at + 30 * 86_400;
  return out;
}

/** Metadata: at most 16 pairs, keys ≤ 64 characters, string values ≤ 512 (Shared.Metadata). */
function checkMetadata(metadata: unknown): string | undefined {
  if (metadata === undefined || metadata === null) return undefined;
  if (typeof metadata !== 'object' || Array.isArray(metadata)) return "'metadata' must be an object";
  const entries = Object.entries(metadata);
  if (entries.length > 16) return "'metadata' holds at most 16 key-value pairs";
  for (const [k, v] of entries) {
    if (k.length > 64) return `metadata key '${k.slice(0, 20)}…' is longer than 64 characters`;
    if (typeof v !== 'string' || v.length > 512)
      return `metadata value of '${k}' must be a string of at most 512 characters`;
  }
  return undefined;
}

/** The documented input format, line by line; errors name the (1-based) line. */
function validateInput(
  bytes: Buffer,
  endpoint: string,
): { lines: BatchState['lines']; errors: NonNullable<StoredBatch['errors']>['data'] } {
  const errors: NonNullable<StoredBatch['errors']>['data'] = [];
  const lines: BatchState['lines'] = [];
  const err = (line: number, code: string, message: string, param: string | null = null) =>
    errors.push({ code, message, param, line });
  if (bytes.length > MAX_BYTES) {
    err(1, 'file_too_large', 'The input file is larger than 200 MB.');
    return { lines, errors };
  }
  const texts = bytes.toString('utf8').split('\n');
  if (texts.at(-1) === '') texts.pop();
  if (texts.length === 0) err(1, 'empty_file', 'The input file is empty.');
  if (texts.length > MAX_LINES) err(MAX_LINES + 1, 'too_many_requests', `A batch holds at most ${MAX_LINES} requests.`);
  const ids = new Set<string>();
  let model: string | undefined;
  texts.forEach((text, i) => {
    const n = i + 1;
    let line: Record<string, unknown>;
    try {
      line = JSON.parse(text) as Record<string, unknown>;
    } catch {
      err(n, 'invalid_json_line', 'This line is not parseable as valid JSON.');
      return;
    }
    if (line === null || typeof line !== 'object' || Array.isArray(line))
      return err(n, 'invalid_json_line', 'Each line must be a JSON object.');
    if (typeof line.custom_id !== 'string' || line.custom_id === '')
      return err(n, 'missing_required_parameter', "'custom_id' is a required string", 'custom_id');
    if (ids.has(line.custom_id))
      return err(
        n,
        'duplicate_custom_id',
        `The custom_id '${line.custom_id}' is used more than once in this file.`,
        'custom_id',
      );
    ids.add(line.custom_id);
    if (line.method !== 'POST') return err(n, 'invalid_method', "'method' must be 'POST'", 'method');
    if (line.url !== endpoint)
      return err(
        n,
        'mismatched_endpoint',
        `The url '${String(line.url)}' does not match the batch endpoint '${endpoint}'.`,
        'url',
      );
    const body = line.body as ChatRequestBody | undefined;
    if (body === null || typeof body !== 'object' || typeof body.model !== 'string')
      return err(n, 'missing_required_parameter', "'body.model' is a required string", 'body.model');
    if (!Array.isArray(body.messages) || body.messages.length === 0)
      return err(n, 'missing_required_parameter', "'body.messages' must be a non-empty array", 'body.messages');
    model ??= body.model;
    if (body.model !== model)
      return err(
        n,
        'mismatched_model',
        `All requests in a batch must use the same model ('${model}' and '${body.model}').`,
        'body.model',
      );
    lines.push({ custom_id: line.custom_id, body });
  });
  return { lines, errors };
}
