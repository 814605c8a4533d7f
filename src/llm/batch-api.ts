/**
 * The provider's Batch API through the `openai` SDK of one role (its endpoint, key and connection pool): upload a
 * JSONL file of chat requests (`/v1/files`, purpose `batch`), create a batch over it (`/v1/batches`, 24 h window),
 * read its status, download its output and error files, and find a file or batch an earlier process created but did
 * not get to record (so a killed run adopts it instead of submitting again). Every request is retried like a chat
 * request (429, 5xx, timeouts; src/llm/retry.ts), since the SDK's own retries are off.
 *
 * The line formats are OpenAI's (API reference, "The request input object" / "The request output object"):
 * input `{custom_id, method: "POST", url: "/v1/chat/completions", body}`; output and error lines
 * `{id, custom_id, response: {status_code, request_id, body} | null, error: {code, message} | null}`.
 */
import type OpenAI from 'openai';
import { toFile } from 'openai';
import type { Batch } from 'openai/resources/batches';
import type { ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import { APIError } from 'openai';
import { ServiceCallError, errorMessage, oneLine } from '../core/errors.ts';
import { backoffMs, isRetryable, sleep } from './retry.ts';

export const BATCH_ENDPOINT = '/v1/chat/completions';
/** OpenAI's limits on one batch input file. */
export const MAX_BATCH_LINES = 50_000;
export const MAX_BATCH_BYTES = 200 * 1024 * 1024;
export const TERMINAL_STATUSES: readonly Batch['status'][] = ['completed', 'failed', 'expired', 'cancelled'];

export interface BatchLineResult {
  customId: string;
  /** The HTTP status the request got (null when it never ran, e.g. expired). */
  status: number | null;
  body: unknown;
  /** `error.code: message` of a line that never ran. */
  error: string | null;
}

export interface RetryPolicy {
  maxRetries: number;
  retryBaseMs: number;
}

export function inputLine(customId: string, body: ChatCompletionCreateParamsNonStreaming): string {
  return JSON.stringify({ custom_id: customId, method: 'POST', url: BATCH_ENDPOINT, body });
}

export class BatchApi {
  constructor(
    private readonly sdk: OpenAI,
    private readonly retry: RetryPolicy,
  ) {}

  /** Retried as a chat request is; a lasting failure is one line naming the step (the run stops, to be resumed). */
  private async retried<T>(fn: () => Promise<T>, what = 'request'): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await fn();
      } catch (err) {
        if (isRetryable(err) && attempt < this.retry.maxRetries) {
          await sleep(backoffMs(attempt, this.retry.retryBaseMs, err));
          continue;
        }
        if (err instanceof ServiceCallError) throw err;
        const status = err instanceof APIError && err.status !== undefined ? `HTTP ${err.status}: ` : '';
        throw new ServiceCallError(
          `Batch API ${what} failed after ${attempt + 1} attempt(s): ${status}${oneLine(errorMessage(err), 300)}`,
          { cause: err },
        );
      }
    }
  }

  /**
   * Uploads a batch input file. A retry first looks for the file by name: an upload whose reply was lost may have
   * been stored, and uploading it again would leave a second copy.
   */
  async upload(filename: string, jsonl: Buffer, since: number): Promise<string> {
    let attempt = 0;
    return this.retried(async () => {
      if (attempt++ > 0) {
        const found = await this.findFile(filename, since);
        if (found) return found;
      }
      return (await this.sdk.files.create({ file: await toFile(jsonl, filename), purpose: 'batch' })).id;
    }, `upload of ${filename}`);
  }

  /**
   * Creates a batch over an uploaded file. A retry first looks for a batch over that file: a creation whose reply was
   * lost may have started one, and creating it again would pay for every request twice.
   */
  async create(inputFileId: string, metadata: Record<string, string>, since: number): Promise<Batch> {
    let attempt = 0;
    return this.retried(async () => {
      if (attempt++ > 0) {
        const found = await this.findBatch(inputFileId, since);
        if (found) return found;
      }
      return this.sdk.batches.create({
        input_file_id: inputFileId,
        endpoint: BATCH_ENDPOINT,
        completion_window: '24h',
        metadata,
      });
    }, `creation of a batch over ${inputFileId}`);
  }

  async retrieve(batchId: string): Promise<Batch> {
    return this.retried(() => this.sdk.batches.retrieve(batchId), `status of ${batchId}`);
  }

  /** An uploaded batch input file of this name (newest first; stops at files older than `since`, Unix seconds). */
  async findFile(filename: string, since: number): Promise<string | undefined> {
    return this.retried(async () => {
      // Files come newest first by default (order: desc).
      for await (const f of this.sdk.files.list({ purpose: 'batch', order: 'desc' })) {
        if (f.filename === filename) return f.id;
        if (f.created_at < since) return undefined;
      }
      return undefined;
    });
  }

  /** A batch over this input file (newest first; stops at batches older than `since`, Unix seconds). */
  async findBatch(inputFileId: string, since: number): Promise<Batch | undefined> {
    return this.retried(async () => {
      for await (const b of this.sdk.batches.list({ limit: 100 })) {
        if (b.input_file_id === inputFileId) return b;
        if (b.created_at < since) return undefined;
      }
      return undefined;
    });
  }

  /** The lines of an output or error file. */
  async lines(fileId: string): Promise<BatchLineResult[]> {
    const text = await this.retried(async () => (await this.sdk.files.content(fileId)).text(), `download of ${fileId}`);
    const out: BatchLineResult[] = [];
    for (const raw of text.split('\n')) {
      if (raw.trim() === '') continue;
      let line: {
        custom_id?: unknown;
        response?: { status_code?: unknown; body?: unknown } | null;
        error?: { code?: unknown; message?: unknown } | null;
      };
      try {
        line = JSON.parse(raw) as typeof line;
      } catch {
        continue; // a line we cannot read names no request: its request stays unanswered and is sent singly
      }
      if (typeof line.custom_id !== 'string') continue;
      const status = typeof line.response?.status_code === 'number' ? line.response.status_code : null;
      const error = line.error ? `${String(line.error.code ?? 'error')}: ${String(line.error.message ?? '')}` : null;
      out.push({ customId: line.custom_id, status, body: line.response?.body, error });
    }
    return out;
  }
}
