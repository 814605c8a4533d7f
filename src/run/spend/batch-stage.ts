/**
 * `llm.batch`: a run's LLM stages through the provider's Batch API (half price; results within 24 h).
 *
 * How a run uses it (runner.ts): the questions are computed in passes. In a pass, a call of a batched role whose reply
 * is not in the LLM cache is not sent: the client hands the request to this queue and the question is postponed
 * (`PostponedError`, left unwritten). After the pass the queue is flushed — written as JSONL, uploaded, submitted,
 * polled until done — and every reply is folded into the same LLM cache, its paid call recorded in `llm_calls`
 * (`batch = true`, cost at the batch price) for the question and method that asked. The next pass finds those replies
 * in the cache and goes one stage further (the judge's requests exist only once the reader's answers do), so each
 * stage waits for its batch before the stages that need it, and a run ends when a pass postpones nothing.
 *
 * Durability (a killed run never submits twice): before a batch is uploaded its request and bookkeeping files are
 * written beside the LLM cache (`<cache>/llm-batches/<submission>.jsonl`, `.meta.jsonl`) and a record goes into the
 * results file's checkpoints (`batch:<submission>`), updated after the upload (file id) and after the submission
 * (batch id) — each committed before the next step. A resumed run first finishes every recorded batch: it polls a
 * stored batch id; a record with a file id but no batch id finds the batch by its input file (or submits it then);
 * one with neither finds the uploaded file by name (or uploads it). Only then does it compute questions.
 *
 * Failed lines (an HTTP error, an expired line, a reply that is unusable as a synchronous one would be) are recorded
 * as error calls and sent singly on the next pass, where the client's retries apply and a failure becomes the
 * question's error row as usual. Memorising steps (`index:*`, `memorise`) are never batched: a memory's notes are
 * written in order, each after the one before.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChatCompletion, ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import type { Batch } from 'openai/resources/batches';
import { callOwner, type CallOwner } from '../../core/calls.ts';
import { InputError, ServiceCallError, errorMessage } from '../../core/errors.ts';
import type { LlmRole } from '../../core/llm.ts';
import {
  BatchApi,
  inputLine,
  MAX_BATCH_BYTES,
  MAX_BATCH_LINES,
  TERMINAL_STATUSES,
  type BatchLineResult,
} from '../../llm/batch-api.ts';
import type { CacheKeyMaterial, CachedReply } from '../../llm/cache.ts';
import type { LlmBatchConfig, LlmConfig } from '../../llm/config.ts';
import type { AdaptmrLlmProvider } from '../../llm/provider.ts';
import { sleep } from '../../llm/retry.ts';
import type { BatchQueue, DeferredRequest } from '../../llm/spend.ts';
import { InvalidUsageError, usageCounts, type UsageCounts } from '../../llm/usage.ts';
import type { LlmCallRow, ResultStore } from '../../store/types.ts';
import type { BudgetGuard } from './budget.ts';

/** The checkpoints' method column for run-wide records (shared with the runner's warm-up marker). */
const SCOPE = '(run)';
const KEY_PREFIX = 'batch:';

/** The durable record of one submission (a checkpoint row's JSON value). */
export interface BatchRecord {
  submission: string;
  role: LlmRole;
  model: string;
  /** Unix seconds when the submission was prepared (maxWaitHours counts from here, across resumes). */
  preparedAt: number;
  lines: number;
  status: 'prepared' | 'uploaded' | 'submitted' | 'folded';
  inputFileId?: string;
  batchId?: string;
  /** The paid calls of the folded lines are in llm_calls (so a fold resumed after a kill does not write them twice). */
  rowsWritten?: boolean;
  /** Cache keys of lines that failed: sent singly. */
  failed?: string[];
  /**
   * Cache keys of lines answered (so paid) with usage that is not a count of tokens, and why: an error row for their
   * question, never sent again (usage.ts).
   */
  refused?: Record<string, string>;
}

/** One request's bookkeeping beside the upload file: who asked, at which stage, and its reply-cache material. */
interface MetaLine {
  key: string;
  stage: string;
  wantsJson: boolean;
  owner: CallOwner;
  material: Omit<CacheKeyMaterial, 'messages'>;
}

export class BatchStage implements BatchQueue {
  private readonly roles: ReadonlySet<LlmRole>;
  private readonly pending = new Map<string, DeferredRequest>();
  /** Requests whose batch line failed: sent singly from now on. */
  private readonly single = new Set<string>();
  /** Requests answered with unusable usage (paid): refused from now on, never sent again. */
  private readonly refused = new Map<string, string>();
  private readonly dir: string;

  private constructor(
    private readonly llm: AdaptmrLlmProvider,
    private readonly config: LlmBatchConfig | undefined,
    private readonly retry: Pick<LlmConfig, 'maxRetries' | 'retryBaseMs'>,
    private readonly store: ResultStore,
    private readonly runId: string,
    private readonly log: (line: string) => void,
    private readonly budget: BudgetGuard | undefined,
  ) {
    this.roles = new Set(config?.roles ?? []);
    this.dir = join(llm.cacheDir, 'llm-batches');
  }

  /**
   * The run's batch stage: with `llm.batch`, the queue the clients defer to; without it, only the finisher of batches
   * an earlier invocation recorded (a run switched back to single requests still collects what it paid for).
   */
  static async open(
    llm: AdaptmrLlmProvider,
    config: LlmConfig,
    store: ResultStore,
    runId: string,
    log: (line: string) => void,
    budget: BudgetGuard | undefined,
  ): Promise<BatchStage> {
    if (config.batch && llm.cacheMode !== 'read-write') {
      throw new InputError(
        'the Batch API folds its replies into the LLM cache: set llm.cache.mode to read-write',
        'llm.batch',
      );
    }
    for (const role of config.batch?.roles ?? []) {
      if (!llm.has(role))
        throw new InputError(`role "${role}" is batched but not configured (add llm.roles.${role})`, 'llm.batch.roles');
    }
    const stage = new BatchStage(llm, config.batch, config, store, runId, log, budget);
    for (const r of await stage.records()) {
      for (const key of r.failed ?? []) stage.single.add(key);
      for (const [key, why] of Object.entries(r.refused ?? {})) stage.refused.set(key, why);
    }
    return stage;
  }

  /** Throws for a request whose paid batch line was refused: its caller records an error row, nothing is sent. */
  wants(role: LlmRole, stage: string, key: string): boolean {
    const refused = this.refused.get(key);
    if (refused !== undefined) throw new InvalidUsageError(refused);
    return this.roles.has(role) && !stage.startsWith('index:') && stage !== 'memorise' && !this.single.has(key);
  }

  defer(request: DeferredRequest): void {
    if (!this.pending.has(request.key)) this.pending.set(request.key, request);
  }

  /** Requests waiting for the next flush. */
  get waiting(): number {
    return this.pending.size;
  }

  /** Finishes the batches recorded in the results file and not yet folded (a killed or timed-out invocation's). */
  async finishRecorded(): Promise<void> {
    const open = (await this.records()).filter((r) => r.status !== 'folded');
    if (open.length === 0) return;
    this.log(
      `batch: resuming ${open.length} recorded batch(es): ${open.map((r) => r.batchId ?? r.submission).join(', ')} (polled, not submitted again)`,
    );
    const submitted: BatchRecord[] = [];
    for (const r of open) submitted.push(await this.submit(r));
    await this.waitAndFold(submitted);
  }

  /**
   * Submits every waiting request (one batch per role and file-size chunk), waits for them and folds the replies in.
   * Lines the budget cannot cover are not submitted (the run then stops). Returns the number of requests submitted.
   */
  async flush(): Promise<number> {
    const byRole = new Map<LlmRole, DeferredRequest[]>();
    for (const r of [...this.pending.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))) {
      const list = byRole.get(r.role) ?? [];
      list.push(r);
      byRole.set(r.role, list);
    }
    this.pending.clear();
    const submitted: BatchRecord[] = [];
    const tickets: number[] = [];
    for (const [role, requests] of byRole) {
      const client = this.llm.client(role);
      // Each line's worst case is reserved against the budget until the batch is folded (the actual cost is added then);
      // lines the budget cannot cover are not submitted, and the run stops.
      const affordable = requests.filter((r) => {
        if (!this.budget) return true;
        const ticket = this.budget.tryReserve(client.worstCaseCostUsd(r.body, true), `${role} batch line (${r.stage})`);
        if (ticket !== undefined) tickets.push(ticket);
        return ticket !== undefined;
      });
      for (const chunk of chunks(affordable)) {
        const record = this.prepare(role, client.model, chunk);
        submitted.push(await this.submit(record));
        this.log(
          `batch: submitted ${chunk.length} ${role} request(s) as ${record.batchId} (polling every ${this.config?.pollSeconds ?? 30} s)`,
        );
      }
    }
    const count = submitted.reduce((n, r) => n + r.lines, 0);
    try {
      await this.waitAndFold(submitted);
    } finally {
      for (const ticket of tickets) this.budget?.settle(ticket, 0);
    }
    return count;
  }

  private async records(): Promise<BatchRecord[]> {
    const rows = await this.store.query<{ value: string }>(
      'SELECT value FROM checkpoints WHERE run_id = $1 AND method = $2 AND starts_with(key, $3) ORDER BY key',
      [this.runId, SCOPE, KEY_PREFIX],
    );
    return rows.map((r) => JSON.parse(r.value) as BatchRecord);
  }

  private save(record: BatchRecord): Promise<void> {
    const { scope, key, value } = this.checkpointOf(record);
    return this.store.putCheckpoint(this.runId, scope, key, value);
  }

  private checkpointOf(record: BatchRecord): { scope: string; key: string; value: string } {
    return { scope: SCOPE, key: `${KEY_PREFIX}${record.submission}`, value: JSON.stringify(record) };
  }

  private paths(submission: string): { input: string; meta: string } {
    return { input: join(this.dir, `${submission}.jsonl`), meta: join(this.dir, `${submission}.meta.jsonl`) };
  }

  /** Writes the upload file and its bookkeeping beside the cache (atomically), before anything is recorded or sent. */
  private prepare(role: LlmRole, model: string, requests: DeferredRequest[]): BatchRecord {
    // Named by the run and its requests: a resumed run finds its own upload by name, and never another run's.
    const submission = createHash('sha256')
      .update(`${this.runId}\n${role}\n${requests.map((r) => r.key).join('\n')}`)
      .digest('hex')
      .slice(0, 24);
    const paths = this.paths(submission);
    mkdirSync(this.dir, { recursive: true });
    const meta = requests.map((r): MetaLine => {
      const owner = callOwner(r.calls);
      if (!owner) throw new Error(`batch: a ${role} request (${r.stage}) has no question to record its call for`);
      const { messages: _messages, ...material } = r.material;
      return { key: r.key, stage: r.stage, wantsJson: r.wantsJson, owner, material };
    });
    writeAtomic(paths.input, requests.map((r) => `${inputLine(r.key, r.body)}\n`).join(''));
    writeAtomic(paths.meta, meta.map((m) => `${JSON.stringify(m)}\n`).join(''));
    return {
      submission,
      role,
      model,
      preparedAt: Math.floor(Date.now() / 1000),
      lines: requests.length,
      status: 'prepared',
    };
  }

  /** Takes a record to `submitted`, adopting what an earlier process uploaded or created (see the header). */
  private async submit(record: BatchRecord): Promise<BatchRecord> {
    const api = this.api(record.role);
    const since = record.preparedAt - 3600;
    if (record.status === 'prepared') {
      await this.save(record);
      const filename = `${record.submission}.jsonl`;
      const found = await api.findFile(filename, since);
      const path = this.paths(record.submission).input;
      if (!found && !existsSync(path)) return this.abandon(record, 'its request file is gone');
      record.inputFileId = found ?? (await api.upload(filename, readFileSync(path), since));
      record.status = 'uploaded';
      await this.save(record);
    }
    if (record.status === 'uploaded') {
      const found = await api.findBatch(record.inputFileId!, since);
      const batch =
        found ??
        (await api.create(
          record.inputFileId!,
          { adaptmr_submission: record.submission, adaptmr_run: this.runId.slice(0, 500) },
          since,
        ));
      record.batchId = batch.id;
      record.status = 'submitted';
      await this.save(record);
    }
    return record;
  }

  /** A record whose files are gone (the cache folder was cleared): its requests are asked again. */
  private async abandon(record: BatchRecord, why: string): Promise<BatchRecord> {
    this.log(`batch: submission ${record.submission} cannot be resumed (${why}); its requests are asked again`);
    record.status = 'folded';
    await this.save(record);
    return record;
  }

  private api(role: LlmRole): BatchApi {
    return new BatchApi(this.llm.client(role).api, this.retry);
  }

  /** Polls the submitted batches until each ends (or maxWaitHours passes), folding each as it ends. */
  private async waitAndFold(records: BatchRecord[]): Promise<void> {
    const open = records.filter((r) => r.status === 'submitted');
    const pollMs = (this.config?.pollSeconds ?? 30) * 1000;
    const maxWaitS = (this.config?.maxWaitHours ?? 24) * 3600;
    while (open.length > 0) {
      for (const record of [...open]) {
        const batch = await this.api(record.role).retrieve(record.batchId!);
        if (TERMINAL_STATUSES.includes(batch.status)) {
          await this.fold(record, batch);
          open.splice(open.indexOf(record), 1);
        } else if (Date.now() / 1000 - record.preparedAt > maxWaitS) {
          throw new ServiceCallError(
            `batch ${record.batchId} (${record.lines} ${record.role} requests) is still ${batch.status} after ` +
              `${this.config?.maxWaitHours ?? 24} h (llm.batch.maxWaitHours); rerun the same command to keep polling it (nothing is submitted again)`,
          );
        }
      }
      if (open.length > 0) await sleep(pollMs);
    }
  }

  /** Folds an ended batch: paid calls recorded, replies cached, failed lines kept for single requests. */
  private async fold(record: BatchRecord, batch: Batch): Promise<void> {
    const paths = this.paths(record.submission);
    if (!existsSync(paths.meta) || !existsSync(paths.input)) {
      await this.abandon(record, 'its bookkeeping file is gone');
      return;
    }
    const { rows, replies, failed, refused, spent } = await this.readBatch(record, batch, paths);
    // Paid calls first (as a synchronous call is recorded before it is cached), then the replies, then the record.
    if (!record.rowsWritten) {
      record.rowsWritten = true;
      record.failed = failed;
      record.refused = Object.fromEntries(refused);
      // The rows and the record saying they are written commit together: a kill lands before both or after both.
      await this.store.writeCalls(this.runId, rows, this.checkpointOf(record));
      // Counted once: a fold resumed after these rows were written finds them in the file (budget.ts opens from it).
      this.budget?.addSpent(spent);
    }
    for (const [key, material, reply] of replies)
      if (!(await this.llm.cache.get(key))) await this.llm.cache.put(key, material, reply);
    for (const key of failed) this.single.add(key);
    for (const [key, why] of refused) this.refused.set(key, why);
    record.status = 'folded';
    record.failed = failed;
    await this.save(record);
    this.log(
      `batch: ${batch.id} ${batch.status}: ${replies.length} of ${record.lines} ${record.role} replies folded into the cache` +
        (failed.length > 0 ? `, ${failed.length} failed (sent singly)` : '') +
        `, $${spent.toFixed(4)} at the batch price`,
    );
  }

  /** An ended batch's lines matched with their requests: the call rows, the usable replies, the failed lines, the cost. */
  private async readBatch(
    record: BatchRecord,
    batch: Batch,
    paths: { meta: string; input: string },
  ): Promise<FoldedLines> {
    const client = this.llm.client(record.role);
    const api = this.api(record.role);
    // Every line of a request, output file first: a request the error file also lists is answered once (paid once).
    const results = new Map<string, BatchLineResult[]>();
    for (const fileId of [batch.output_file_id, batch.error_file_id]) {
      if (fileId)
        for (const line of await api.lines(fileId))
          results.set(line.customId, [...(results.get(line.customId) ?? []), line]);
    }
    const bodies = new Map<string, ChatCompletionCreateParamsNonStreaming>();
    for (const text of readLines(paths.input)) {
      const line = JSON.parse(text) as { custom_id: string; body: ChatCompletionCreateParamsNonStreaming };
      bodies.set(line.custom_id, line.body);
    }
    const turnaroundMs = Math.max(
      0,
      ((batch.completed_at ?? batch.expired_at ?? batch.cancelled_at ?? batch.failed_at ?? batch.created_at) -
        batch.created_at) *
        1000,
    );
    const out: FoldedLines = { rows: [], replies: [], failed: [], refused: [], spent: 0 };
    for (const text of readLines(paths.meta)) {
      const meta = JSON.parse(text) as MetaLine;
      const lines = results.get(meta.key) ?? [];
      // The answered line if any; every other line of the same request is an error row of its own, never a resend.
      const answered = lines.find((l) => l.status === 200) ?? lines[0];
      this.foldLine(client, record, batch.id, meta, bodies.get(meta.key), answered, turnaroundMs, out);
      for (const extra of lines.filter((l) => l !== answered))
        out.rows.push({
          ...meta.owner,
          stage: meta.stage,
          model: record.model,
          latencyMs: turnaroundMs,
          cached: false,
          batch: true,
          promptTokens: 0,
          completionTokens: 0,
          costUsd: 0,
          error: `batch ${batch.id} listed this request again (${extra.error ?? `HTTP ${extra.status}`}); the first answer is kept, nothing is sent again`,
        });
    }
    return out;
  }

  /** One request of the batch: its call row, and its reply unless the line failed (then it is sent singly). */
  private foldLine(
    client: ReturnType<AdaptmrLlmProvider['client']>,
    record: BatchRecord,
    batchId: string,
    meta: MetaLine,
    body: ChatCompletionCreateParamsNonStreaming | undefined,
    result: BatchLineResult | undefined,
    turnaroundMs: number,
    out: FoldedLines,
  ): void {
    const base = {
      ...meta.owner,
      stage: meta.stage,
      model: record.model,
      latencyMs: turnaroundMs,
      cached: false,
      batch: true,
    };
    if (!body || !result || result.status !== 200) {
      out.failed.push(meta.key);
      const why = !result ? 'no result line' : (result.error ?? `HTTP ${result.status}`);
      out.rows.push({
        ...base,
        promptTokens: 0,
        completionTokens: 0,
        costUsd: 0,
        error: `batch ${batchId} line failed (${why}); sent singly`,
      });
      return;
    }
    let reply: CachedReply;
    try {
      reply = { ...client.replyOf(result.body as ChatCompletion, body, meta.wantsJson, turnaroundMs), batch: true };
    } catch (err) {
      foldUnusableReply(client, result, base, err, out);
      // Usage that is not a count: paid at an unknown price, so refused for good rather than paid for again.
      if (err instanceof InvalidUsageError) out.refused.push([meta.key, `batch ${batchId}: ${err.message}`]);
      else out.failed.push(meta.key);
      return;
    }
    const cost = client.costOf(reply);
    out.spent += cost;
    out.rows.push({
      ...base,
      promptTokens: reply.promptTokens,
      completionTokens: reply.completionTokens,
      costUsd: cost,
      ...(reply.cachedTokens !== undefined ? { cachedTokens: reply.cachedTokens } : {}),
    });
    out.replies.push([meta.key, { ...meta.material, messages: body.messages as CacheKeyMaterial['messages'] }, reply]);
  }
}

/**
 * A line answered (and so paid) but unusable, as a synchronous reply would be: its call row is recorded with its
 * cost, and the request is asked again singly.
 */
function foldUnusableReply(
  client: ReturnType<AdaptmrLlmProvider['client']>,
  result: BatchLineResult,
  base: Omit<FoldedLines['rows'][number], 'promptTokens' | 'completionTokens' | 'costUsd'>,
  err: unknown,
  out: FoldedLines,
): void {
  let counts: UsageCounts | undefined;
  try {
    counts = usageCounts((result.body as { usage?: unknown } | undefined)?.usage);
  } catch {
    counts = undefined; // not a count (usage.ts): recorded unpriced, never at a negative cost
  }
  const p = counts?.promptTokens ?? 0;
  const c = counts?.completionTokens ?? 0;
  const cost = client.costOf({ promptTokens: p, completionTokens: c, batch: true });
  out.spent += cost;
  out.rows.push({
    ...base,
    promptTokens: p,
    completionTokens: c,
    costUsd: cost,
    error: `unusable batch reply: ${errorMessage(err)}${err instanceof InvalidUsageError ? '' : '; sent singly'}`,
  });
}

/** What folding a batch's lines gives. */
interface FoldedLines {
  rows: LlmCallRow[];
  replies: [string, CacheKeyMaterial, CachedReply][];
  failed: string[];
  refused: [string, string][];
  spent: number;
}

/** Groups requests into files within OpenAI's limits (lines and bytes). */
function chunks(requests: DeferredRequest[]): DeferredRequest[][] {
  const out: DeferredRequest[][] = [];
  let current: DeferredRequest[] = [];
  let bytes = 0;
  for (const r of requests) {
    const size = Buffer.byteLength(inputLine(r.key, r.body)) + 1;
    if (current.length > 0 && (current.length >= MAX_BATCH_LINES || bytes + size > MAX_BATCH_BYTES * 0.95)) {
      out.push(current);
      current = [];
      bytes = 0;
    }
    current.push(r);
    bytes += size;
  }
  if (current.length > 0) out.push(current);
  return out;
}

function readLines(path: string): string[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '');
}

function writeAtomic(path: string, text: string): void {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, text, 'utf8');
  renameSync(tmp, path);
}
