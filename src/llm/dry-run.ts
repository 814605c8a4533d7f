/**
 * A provider whose clients build every request exactly as the real ones do (src/llm/client.ts `prepare`: the same
 * messages, structured-output form and reply-cache key) but send nothing: the cost estimate (`adaptmr run
 * --estimate`, src/run/spend/estimate.ts) runs the whole experiment through it.
 *
 * Per call: a reply already in the LLM cache on disk (or asked earlier in the same estimate: a real run pays an
 * identical request once) is an expected cache hit, served with its stored text so the next stage sees what the run
 * will see. Otherwise the prompt is counted with the tokenizer (o200k_base, src/llm/tokens.ts, OpenAI's chat framing
 * included) and the output is taken as `outputTokens(model, stage)` — the estimate's calibration from replies of that
 * stage found in the cache — else as a maximum: the request's own limit (`max_tokens`), or, for a reply bound to
 * a JSON schema with no free text (enums, numbers, booleans: the LLM classifier's, the LoCoMo judge's), the largest
 * instance of that schema when that is less; failing both, 1,024 (an assumption: such a request has no bound). The made-up reply has that many tokens and
 * differs per request (as real answers do), so a judge prompt quoting a reader's answer is counted at that length and
 * each method's judge call is its own; a reply that must be JSON is the smallest instance of the requested schema,
 * and a judge's (stage `judge…`) or a yes/no step's (limit ≤ 5 tokens) is "yes", so the pipeline runs on as far as
 * the real one does.
 */
import type { CallRecord } from '../core/calls.ts';
import { callOwner, recordCall } from '../core/calls.ts';
import type { ChatRequest, ChatResult, LlmClient, LlmProvider, LlmRole } from '../core/llm.ts';
import type { LlmCache } from './cache.ts';
import { parseJsonReply } from './json-reply.ts';
import type { AdaptmrLlmProvider } from './provider.ts';
import { countChatTokens, countTokens, decodeTokens, encodeTokens } from './tokens.ts';

/** Output assumed for a request that sets no limit. */
export const DEFAULT_OUTPUT_LIMIT = 1024;

/** One (dataset, method, stage) of the estimate. */
export interface DryTally {
  dataset: string;
  method: string;
  stage: string;
  role: LlmRole;
  model: string;
  calls: number;
  /** Calls answered by the LLM cache on disk or by an identical earlier call of this estimate. */
  hits: number;
  /** Tokens of every call (what the run records), and of the calls that will be paid. */
  inputTokens: number;
  outputTokens: number;
  paidInputTokens: number;
  paidOutputTokens: number;
  /** Where the output figure of paid calls came from. */
  outputFrom: Set<'limit' | 'schema' | 'cache-mean' | 'default'>;
}

/** One question's calls of one method and stage (the sampled estimate scales these: src/run/spend/estimate-sample.ts). */
export interface DryQuestionTally {
  calls: number;
  hits: number;
  inputTokens: number;
  outputTokens: number;
  paidInputTokens: number;
  paidOutputTokens: number;
}

export interface DryRunOptions {
  /** Calibrated output tokens per `${model}\t${stage}` (means of cached replies), from a first estimate pass. */
  outputTokens?: ReadonlyMap<string, number>;
}

export class DryLlmProvider implements LlmProvider {
  readonly tallies = new Map<string, DryTally>();
  /** The same figures per question: `${dataset}\t${questionId}\t${method}\t${stage}` → its calls. */
  readonly perQuestion = new Map<string, DryQuestionTally>();
  /** Completion tokens of cache hits per `${model}\t${stage}`, to calibrate a second pass. */
  readonly observed = new Map<string, number[]>();
  private readonly seen = new Set<string>();
  private readonly clients = new Map<LlmRole, LlmClient>();

  constructor(
    private readonly real: AdaptmrLlmProvider,
    private readonly options: DryRunOptions = {},
  ) {}

  has(role: LlmRole): boolean {
    return this.real.has(role);
  }

  forRole(role: LlmRole): LlmClient {
    let client = this.clients.get(role);
    if (!client) {
      const real = this.real.client(role);
      client = { role, model: real.model, chat: (request, meta) => this.chat(role, request, meta) };
      this.clients.set(role, client);
    }
    return client;
  }

  private get cache(): LlmCache {
    return this.real.cache;
  }

  private tallyQuestion(id: string, promptTokens: number, completionTokens: number, hit: boolean): void {
    let q = this.perQuestion.get(id);
    if (!q) {
      q = { calls: 0, hits: 0, inputTokens: 0, outputTokens: 0, paidInputTokens: 0, paidOutputTokens: 0 };
      this.perQuestion.set(id, q);
    }
    addToQuestion(q, promptTokens, completionTokens, hit);
  }

  /** The tally of the calling dataset, method and stage, created on its first call. */
  private tallyOf(role: LlmRole, model: string, meta: { stage: string; calls: CallRecord[] }) {
    const owner = callOwner(meta.calls) ?? { dataset: '', questionId: '', method: '' };
    const id = `${owner.dataset}\t${owner.method}\t${meta.stage}`;
    let tally = this.tallies.get(id);
    if (!tally) {
      tally = {
        dataset: owner.dataset,
        method: owner.method,
        stage: meta.stage,
        role,
        model,
        calls: 0,
        hits: 0,
        inputTokens: 0,
        outputTokens: 0,
        paidInputTokens: 0,
        paidOutputTokens: 0,
        outputFrom: new Set(),
      };
      this.tallies.set(id, tally);
    }
    return tally;
  }

  private async chat(
    role: LlmRole,
    request: ChatRequest,
    meta: { stage: string; calls: CallRecord[] },
  ): Promise<ChatResult> {
    const real = this.real.client(role);
    const { body, key } = real.prepare(request);
    const tally = this.tallyOf(role, real.model, meta);
    const stageKey = `${real.model}\t${meta.stage}`;
    const stored = this.cache.mode === 'off' ? undefined : await this.cache.get(key);
    const promptTokens = stored?.promptTokens ?? countChatTokens(body.messages as { role: string; content: string }[]);
    let text: string;
    let completionTokens: number;
    const hit = stored !== undefined || this.seen.has(key);
    if (stored) {
      text = stored.text;
      completionTokens = stored.completionTokens;
      const list = this.observed.get(stageKey) ?? [];
      list.push(completionTokens);
      this.observed.set(stageKey, list);
    } else {
      const limit = (body.max_tokens ?? body.max_completion_tokens ?? undefined) as number | undefined;
      const [tokens, from] = expectedOutput(request, limit, this.options.outputTokens?.get(stageKey));
      completionTokens = Math.max(1, Math.round(tokens));
      tally.outputFrom.add(from);
      text = madeUpReply(meta.stage, request, completionTokens, key);
    }
    this.seen.add(key);
    tally.calls++;
    tally.inputTokens += promptTokens;
    tally.outputTokens += completionTokens;
    if (hit) tally.hits++;
    else {
      tally.paidInputTokens += promptTokens;
      tally.paidOutputTokens += completionTokens;
    }
    const owner = callOwner(meta.calls) ?? { dataset: '', questionId: '', method: '' };
    this.tallyQuestion(
      `${owner.dataset}\t${owner.questionId}\t${owner.method}\t${meta.stage}`,
      promptTokens,
      completionTokens,
      hit,
    );
    const costUsd = real.costOf({ promptTokens, completionTokens });
    // Recorded like a real call (a hit as cached), so the run's rows and failure accounting behave as in a real run.
    await recordCall(meta.calls, {
      stage: meta.stage,
      model: real.model,
      promptTokens,
      completionTokens,
      latencyMs: 0,
      cached: hit,
      costUsd,
    });
    const result: ChatResult = {
      text,
      model: real.model,
      cached: hit,
      promptTokens,
      completionTokens,
      latencyMs: 0,
      costUsd,
    };
    if (stored?.logprobs) result.logprobs = stored.logprobs;
    if (request.jsonSchema) {
      const parsed = parseJsonReply(text);
      if (parsed.ok) result.json = parsed.value;
    }
    return result;
  }
}

/** Adds one call to its question's tally. */
function addToQuestion(q: DryQuestionTally, promptTokens: number, completionTokens: number, hit: boolean): void {
  q.calls++;
  q.inputTokens += promptTokens;
  q.outputTokens += completionTokens;
  if (hit) q.hits++;
  else {
    q.paidInputTokens += promptTokens;
    q.paidOutputTokens += completionTokens;
  }
}

/**
 * The output tokens a call not in the cache is expected to produce, and from what: the cache's mean for its model
 * and stage, else the reply schema's bound when below the request's limit, else that limit, else the default.
 */
function expectedOutput(
  request: ChatRequest,
  limit: number | undefined,
  calibrated: number | undefined,
): [number, 'cache-mean' | 'schema' | 'limit' | 'default'] {
  if (calibrated !== undefined) return [calibrated, 'cache-mean'];
  const bound = request.jsonSchema ? schemaBoundTokens(request.jsonSchema.schema) : undefined;
  if (bound !== undefined && (limit === undefined || bound < limit)) return [bound, 'schema'];
  return limit !== undefined ? [limit, 'limit'] : [DEFAULT_OUTPUT_LIMIT, 'default'];
}

/** A reply of about `tokens` tokens the next stage can use (see the header). */
function madeUpReply(stage: string, request: ChatRequest, tokens: number, key: string): string {
  if (request.jsonSchema) return JSON.stringify(schemaExample(request.jsonSchema.schema));
  if (stage.startsWith('judge') || tokens <= 5) return 'yes';
  return filler(tokens, key);
}

/**
 * Text of about `tokens` o200k tokens that names its request (the start of its cache key), so two different requests
 * get different replies — and the prompts quoting them differ — while an identical request gets the same one.
 */
function filler(tokens: number, key: string): string {
  const ids = encodeTokens(`${key.slice(0, 12)}:`);
  const unit = encodeTokens(' answer');
  while (ids.length < tokens) ids.push(...unit);
  const text = decodeTokens(ids.slice(0, tokens)).trim();
  return countTokens(text) > 0 ? text : 'answer';
}

/**
 * Tokens of the largest reply a JSON schema allows, when it allows no free text (every leaf an enum, a constant, a
 * boolean, a number, null; objects of such): the longest enum value, 12 tokens a number. Undefined for a schema with
 * free strings or lists (no bound).
 */
export function schemaBoundTokens(schema: unknown): number | undefined {
  const largest = largestInstance(schema);
  return largest === undefined ? undefined : countTokens(JSON.stringify(largest, null, 1)) + 2;
}

function largestInstance(schema: unknown): unknown {
  if (schema === null || typeof schema !== 'object') return undefined;
  const s = schema as Record<string, unknown>;
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum) && s.enum.length > 0) {
    return s.enum.reduce((a, b) => (countTokens(JSON.stringify(b)) > countTokens(JSON.stringify(a)) ? b : a));
  }
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  if (type === 'object') {
    const props = (s.properties ?? {}) as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(props)) {
      const value = largestInstance(v);
      if (value === undefined) return undefined;
      out[k] = value;
    }
    return out;
  }
  if (type === 'number') return -0.12345678901234;
  if (type === 'integer') return -1234567890;
  if (type === 'boolean') return false;
  if (type === 'null') return null;
  return undefined;
}

/** The smallest value a JSON Schema accepts: required properties only, first enum value, empty strings and lists. */
export function schemaExample(schema: unknown): unknown {
  if (schema === null || typeof schema !== 'object') return null;
  const s = schema as Record<string, unknown>;
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  for (const k of ['anyOf', 'oneOf', 'allOf']) {
    const options = s[k];
    if (Array.isArray(options) && options.length > 0) return schemaExample(options[0]);
  }
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (type) {
    case 'object': {
      const props = (s.properties ?? {}) as Record<string, unknown>;
      const required = Array.isArray(s.required) ? (s.required as string[]) : [];
      return Object.fromEntries(required.map((k) => [k, schemaExample(props[k])]));
    }
    case 'array': {
      const min = typeof s.minItems === 'number' ? s.minItems : 0;
      return Array.from({ length: min }, () => schemaExample(s.items));
    }
    case 'string':
      return typeof s.minLength === 'number' && s.minLength > 0 ? 'x'.repeat(s.minLength) : '';
    case 'number':
    case 'integer':
      return typeof s.minimum === 'number' ? s.minimum : 0;
    case 'boolean':
      return false;
    case 'null':
      return null;
    default:
      return null;
  }
}
