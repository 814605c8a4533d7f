/**
 * `adaptmr protocol-check <url>`: drives a server through the whole http-memory protocol in a namespace of its own
 * and says, check by check, what fails. Every reply is validated against docs/http-memory.openapi.yaml (status and
 * body schema); on top of the schemas come the rules the harness relies on: creating a namespace twice is fine,
 * ingestion is idempotent per batch_id, `ready` is reached, a search returns at most k items best first, cites only
 * unit ids it was sent, finds an obvious match in English and in Chinese, refuses a bad request with 400 and an
 * unknown namespace with 404, needs the key when one is given, and a deleted namespace is gone.
 */
import { randomUUID } from 'node:crypto';
import { describeNetworkError, oneLine } from '../../core/errors.ts';
import { readReplyAsRun } from './reply-check.ts';
import { ProtocolSchema, type Verdict } from './openapi.ts';

export interface CheckResult {
  name: string;
  ok: boolean;
  detail?: string;
}

export interface ProtocolCheckOptions {
  apiKey?: string;
  /** Per request. */
  timeoutMs?: number;
  /** How long to wait for `ready` after ingestion. */
  readyTimeoutMs?: number;
  schema?: ProtocolSchema;
  /** The reply cap the run applies (llm.maxReplyBytes; default 4 MiB). */
  maxReplyBytes?: number;
}

interface Reply {
  status: number;
  body: unknown;
}

const T0 = '2023-05-01T09:30:00Z';
const T1 = '2023-05-20T18:15:00Z';
const SESSION_A = [
  { unit_id: 'pc-1', role: 'user', speaker: 'Caroline', text: 'I adopted a cat named Miso last week.', time: T0 },
  { unit_id: 'pc-2', role: 'assistant', speaker: 'Melanie', text: 'Miso is a lovely name for a cat.', time: T0 },
  { unit_id: 'pc-3', role: 'user', speaker: null, text: '我在里斯本找到了一份护士的工作。', time: T0 },
];
const SESSION_B = [
  { unit_id: 'pc-4', role: 'user', speaker: 'Caroline', text: '我在学习大提琴，每周上两次课。', time: T1 },
  { unit_id: 'pc-5', role: 'assistant', speaker: 'Melanie', text: 'The cello is hard but rewarding.', time: T1 },
];
const SENT = new Set([...SESSION_A, ...SESSION_B].map((m) => m.unit_id));

class Failed extends Error {}

/** Why a request got no reply: the system error code where fetch hides it (`ECONNREFUSED`), else the message. */
function networkProblem(err: unknown): string {
  const cause =
    err instanceof Error
      ? (err as Error & { cause?: { code?: unknown; errors?: { code?: unknown }[]; message?: unknown } }).cause
      : undefined;
  const code = cause?.code ?? cause?.errors?.find((e) => e.code !== undefined)?.code;
  return code !== undefined ? `no reply (${String(code)})` : describeNetworkError(err);
}

const must = (cond: boolean, what: string) => {
  if (!cond) throw new Failed(what);
};
const NS = `/namespaces/{namespace}`;
type Items = { text: string; score?: number | null; unit_ids?: string[] | null }[];

/** One check run against a server: its checked calls, the results so far, and the scratch namespace. */
interface Session {
  opts: ProtocolCheckOptions;
  results: CheckResult[];
  ns: string;
  nsPath: string;
  /** Whether the server cites unit ids (`/health`'s `sources`). */
  sources: boolean;
  /** The reply, checked: a documented status among `expect`, and a body that fits its schema. */
  expectReply(
    template: string,
    method: string,
    path: string,
    expect: number[],
    body?: unknown,
    auth?: boolean,
  ): Promise<Reply>;
  /** Runs one named check, recording whether it passed (and why not); true when it passed. */
  check(name: string, fn: () => Promise<void>): Promise<boolean>;
}

function openSession(url: string, opts: ProtocolCheckOptions): Session {
  const schema = opts.schema ?? ProtocolSchema.load();
  const base = url.replace(/\/+$/, '');
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const ns = `protocol-check-${randomUUID().slice(0, 8)}`;
  const results: CheckResult[] = [];
  const call = async (method: string, path: string, body?: unknown, auth = true): Promise<Reply> => {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (auth && opts.apiKey) headers.authorization = `Bearer ${opts.apiKey}`;
    let res: Response;
    try {
      res = await fetch(base + path, {
        method,
        headers,
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      throw new Failed(`${method} ${path}: ${networkProblem(err)}`);
    }
    // The run's own reading (reply-check.ts): the size cap while streaming, strict UTF-8, finite numbers.
    const read = await readReplyAsRun(res, opts.maxReplyBytes);
    if (!read.ok) throw new Failed(`${method} ${path}: HTTP ${res.status}: ${read.problem}`);
    return { status: res.status, body: read.body };
  };
  return {
    opts,
    results,
    ns,
    nsPath: `/namespaces/${encodeURIComponent(ns)}`,
    sources: true,
    async expectReply(template, method, path, expect, body, auth = true) {
      const r = await call(method, path, body, auth);
      if (!expect.includes(r.status))
        throw new Failed(
          `${method} ${path}: HTTP ${r.status}, expected ${expect.join(' or ')}${r.body !== undefined ? `: ${oneLine(JSON.stringify(r.body), 160)}` : ''}`,
        );
      const v: Verdict = schema.reply(template, method, r.status, r.body);
      if (!v.ok) throw new Failed(`${method} ${path}: HTTP ${r.status} reply does not fit the protocol: ${v.problem}`);
      return r;
    },
    async check(name, fn) {
      try {
        await fn();
        results.push({ name, ok: true });
        return true;
      } catch (err) {
        results.push({
          name,
          ok: false,
          detail:
            err instanceof Failed ? err.message : `unexpected: ${err instanceof Error ? err.message : String(err)}`,
        });
        return false;
      }
    },
  };
}

const ingest = (batch: string, session: string, messages: unknown[]) => ({
  batch_id: batch,
  session_id: session,
  messages,
});

export async function runProtocolCheck(url: string, opts: ProtocolCheckOptions = {}): Promise<CheckResult[]> {
  const c = openSession(url, opts);
  const { check, expectReply, nsPath, results } = c;
  const healthy = await check('health: GET /health answers the protocol version', async () => {
    const r = await expectReply('/health', 'GET', '/health', [200]);
    c.sources = (r.body as { sources: boolean }).sources;
  });
  if (!healthy) return results;
  if (opts.apiKey) {
    await check('auth: a request without the key is refused with 401', async () => {
      await expectReply('/health', 'GET', '/health', [401], undefined, false);
    });
  }
  const created = await check('create a namespace: PUT /namespaces/{namespace}', async () => {
    const r = await expectReply(NS, 'PUT', nsPath, [200, 201]);
    const s = r.body as { namespace: string; messages: number };
    must(s.namespace === c.ns, `the reply names namespace ${JSON.stringify(s.namespace)}, not ${c.ns}`);
    must(s.messages === 0, `a new namespace holds ${s.messages} messages`);
  });
  if (!created) return results;
  try {
    await ingestChecks(c);
    await searchChecks(c);
  } finally {
    await check('delete the namespace: DELETE /namespaces/{namespace}, then it is gone (404)', async () => {
      await expectReply(NS, 'DELETE', nsPath, [200]);
      await expectReply(NS, 'GET', nsPath, [404]);
    });
  }
  return results;
}

/** Creating the namespace again, ingesting (a batch resent is stored once), and the namespace reaching ready. */
async function ingestChecks(c: Session): Promise<void> {
  const { check, expectReply, nsPath, opts } = c;
  await check('create it again: not an error (idempotent)', async () => {
    await expectReply(NS, 'PUT', nsPath, [200, 201]);
  });
  await check('ingest a session: POST /namespaces/{namespace}/sessions', async () => {
    const r = (await expectReply(`${NS}/sessions`, 'POST', `${nsPath}/sessions`, [200], ingest('b0', 'sA', SESSION_A)))
      .body as { stored: number; duplicate: boolean; batch_id: string };
    must(
      r.batch_id === 'b0' && r.stored === SESSION_A.length && !r.duplicate,
      `expected { batch_id: "b0", stored: ${SESSION_A.length}, duplicate: false }, got ${JSON.stringify(r)}`,
    );
  });
  await check('ingest the same batch again: stored once (idempotent per batch_id)', async () => {
    const r = (await expectReply(`${NS}/sessions`, 'POST', `${nsPath}/sessions`, [200], ingest('b0', 'sA', SESSION_A)))
      .body as { stored: number; duplicate: boolean };
    must(
      r.duplicate && r.stored === 0,
      `expected { stored: 0, duplicate: true }, got ${JSON.stringify(r)}: a resent batch would be stored twice`,
    );
  });
  await check('ingest a second session', async () => {
    const r = (await expectReply(`${NS}/sessions`, 'POST', `${nsPath}/sessions`, [200], ingest('b1', 'sB', SESSION_B)))
      .body as { stored: number };
    must(r.stored === SESSION_B.length, `stored ${r.stored} of ${SESSION_B.length} messages`);
  });
  await check('status: GET /namespaces/{namespace} reaches ready with every message once', async () => {
    const until = Date.now() + (opts.readyTimeoutMs ?? 60_000);
    for (;;) {
      const s = (await expectReply(NS, 'GET', nsPath, [200])).body as { ready: boolean; messages: number };
      if (s.ready) {
        must(
          s.messages === SENT.size,
          `ready with ${s.messages} messages, expected ${SENT.size} (the duplicate batch counts once)`,
        );
        return;
      }
      must(Date.now() < until, `not ready after ${Math.round((opts.readyTimeoutMs ?? 60_000) / 1000)} s`);
      await new Promise((r) => setTimeout(r, 500));
    }
  });
}

/** Search (English, Chinese, k = 1), and the refusals: bad requests (400) and an unknown namespace (404). */
async function searchChecks(c: Session): Promise<void> {
  const { check, expectReply, nsPath, ns } = c;
  const search = async (body: unknown) =>
    (await expectReply(`${NS}/search`, 'POST', `${nsPath}/search`, [200], body)).body as { items: Items };
  const ranked = (items: Items, k: number) => {
    must(items.length <= k, `${items.length} items for k = ${k}`);
    const scores = items.map((i) => i.score).filter((s): s is number => typeof s === 'number');
    for (let i = 1; i < scores.length; i++)
      must(scores[i]! <= scores[i - 1]!, `scores not best first: ${scores.join(', ')}`);
    for (const it of items)
      for (const id of it.unit_ids ?? [])
        must(SENT.has(id), `an item cites unit id ${JSON.stringify(id)}, which was never sent`);
    if (!c.sources)
      must(
        items.every((it) => it.unit_ids === undefined || it.unit_ids === null),
        'items cite unit ids though /health says sources: false',
      );
  };
  const finds = (items: Items, unit: string, word: string, what: string) =>
    must(
      items.some((it) => (c.sources ? (it.unit_ids ?? []).includes(unit) : it.text.includes(word))),
      `${what}: no item ${c.sources ? `cites ${unit}` : `mentions "${word}"`} (items: ${oneLine(JSON.stringify(items), 200)})`,
    );
  await check('search: at most k items, best first, citing sent unit ids', async () => {
    const r = await search({
      query: 'What is the name of the cat Caroline adopted?',
      k: 2,
      question_date: '2023-06-01T00:00:00Z',
    });
    ranked(r.items, 2);
    finds(r.items, 'pc-1', 'Miso', 'an obvious match');
  });
  await check('search in Chinese', async () => {
    const r = await search({ query: '我在学习什么乐器？', k: 3, question_date: '2023-06-01T00:00:00Z' });
    ranked(r.items, 3);
    finds(r.items, 'pc-4', '大提琴', 'a Chinese question');
  });
  await check('search with k = 1 and no question date', async () => {
    const r = await search({ query: 'cello', k: 1, question_date: null });
    ranked(r.items, 1);
  });
  await check('a bad request is refused with 400 (a search without query)', async () => {
    await expectReply(`${NS}/search`, 'POST', `${nsPath}/search`, [400], { k: 3 });
  });
  await check('a bad request is refused with 400 (a message time without a zone)', async () => {
    await expectReply(
      `${NS}/sessions`,
      'POST',
      `${nsPath}/sessions`,
      [400],
      ingest('b9', 'sC', [{ unit_id: 'pc-9', role: 'user', text: 'x', time: '2023-05-01 09:30' }]),
    );
  });
  await check('an unknown namespace is 404', async () => {
    await expectReply(`${NS}/search`, 'POST', `/namespaces/${ns}-never-created/search`, [404], {
      query: 'cat',
      k: 1,
    });
  });
}

/** The report: one line per check, then the count. */
export function formatResults(url: string, results: readonly CheckResult[]): string {
  const lines = results.map((r) => `${r.ok ? '✓' : '✗'} ${r.name}${r.ok ? '' : `\n    ${r.detail}`}`);
  const failed = results.filter((r) => !r.ok).length;
  lines.push(
    failed === 0
      ? `${url}: all ${results.length} checks passed`
      : `${url}: ${failed} of ${results.length} checks failed`,
  );
  return lines.join('\n');
}
