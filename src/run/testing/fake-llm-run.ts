/**
 * The setup the runner's LLM tests share: a temporary folder and the loopback OpenAI stand-in
 * (src/llm/testing/fake-openai-server.ts) for one test file — started before its tests, closed and removed after
 * them — and the `llm:` block of an experiment that sends its reader and judge there.
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import {
  startFakeOpenAiServer,
  type ChatRequestBody,
  type FakeOpenAiServer,
  type FakeReply,
  type FakeServerOptions,
} from '../../llm/testing/fake-openai-server.ts';

export interface FakeLlmRun {
  /** The test file's temporary folder (removed after its tests). */
  readonly dir: string;
  /** The stand-in; read it inside tests and hooks (it starts in `beforeAll`). */
  readonly server: FakeOpenAiServer;
}

/** A chat request's messages as one text, joined by newlines (what the scripted replies match on). */
export const promptOf = (body: ChatRequestBody): string => body.messages.map((m) => m.content).join('\n');

/** A temporary folder `<tmp>/<prefix>…` and a stand-in answering chat requests with `chat(prompt, body)`. */
export function useFakeLlm(
  prefix: string,
  chat: (prompt: string, body: ChatRequestBody) => FakeReply | string,
  options: Omit<FakeServerOptions, 'chat'> = {},
): FakeLlmRun {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  let started: FakeOpenAiServer | undefined;
  beforeAll(async () => {
    started = await startFakeOpenAiServer({ ...options, chat: (body) => chat(promptOf(body), body) });
  });
  afterAll(async () => {
    await started?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    dir,
    get server(): FakeOpenAiServer {
      if (!started) throw new Error('the fake LLM server starts in beforeAll: read it inside a test or hook');
      return started;
    },
  };
}

/** Prices of the two stand-in models (USD per million tokens), as an indented `llm.prices` block. */
export const FAKE_PRICES = `
    fake-reader: { inputPerMTok: 0.15, outputPerMTok: 0.6 }
    fake-judge: { inputPerMTok: 2.5, outputPerMTok: 10 }`;

export interface LlmBlock {
  /** `llm.cache.dir` (mode read-write). */
  cacheDir: string;
  concurrency?: number;
  /** Default 1. */
  maxRetries?: number;
  /** `llm.prices`: a flow mapping or an indented block (e.g. FAKE_PRICES). */
  prices?: string;
  /** More fields of the reader role, e.g. `maxTokens: 50`. */
  reader?: string;
  /** The judge's model (default fake-judge). */
  judgeModel?: string;
  /** More fields of the judge role. */
  judge?: string;
  /** Lines after the roles, inside `llm:` (indented two spaces), e.g. `  budgetUsd: 5`. */
  more?: string[];
}

/** The experiment's `llm:` block: reader (model fake-reader) and judge on the stand-in, retries 1 ms apart. */
export function llmYaml(baseURL: string, o: LlmBlock): string {
  const role = (model: string, more?: string) =>
    `{ baseURL: ${baseURL}, model: ${model}${more === undefined ? '' : `, ${more}`} }`;
  return [
    'llm:',
    `  cache: { mode: read-write, dir: ${o.cacheDir} }`,
    ...(o.concurrency === undefined ? [] : [`  concurrency: ${o.concurrency}`]),
    `  maxRetries: ${o.maxRetries ?? 1}`,
    '  retryBaseMs: 1',
    ...(o.prices === undefined ? [] : [`  prices:${o.prices.startsWith('\n') ? '' : ' '}${o.prices}`]),
    '  roles:',
    `    reader: ${role('fake-reader', o.reader)}`,
    `    judge: ${role(o.judgeModel ?? 'fake-judge', o.judge)}`,
    ...(o.more ?? []),
  ].join('\n');
}

/** The two methods the QA run tests answer with: unified embedding (k 3) and full context, both over sessions. */
export const EMBED_AND_FULL = `methods:
  - id: embed
    method: unified-embedding
    index: { granularity: session }
    k: 3
  - id: full
    method: full-context
    index: { granularity: session }
    options: { maxContextTokens: 3000 }`;

/** Every file under a folder, recursively (to check that a secret reached none of them). */
export function filesUnder(root: string): string[] {
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .map((f) => join(root, f))
    .filter((f) => statSync(f).isFile());
}
