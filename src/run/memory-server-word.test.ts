/**
 * Memory servers are not taken at their word: search items citing unit ids never ingested are counted in a run-level
 * warning (and a search citing only such ids is an error row, not a recall of 0); a server whose status says it holds
 * 0 messages after acknowledging an ingest is an error row, not an empty memory searched.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HttpMemoryServer, startHttpMemoryServer } from '../../examples/http-memory-typescript/server.ts';
import { type Proxy as MemoryProxy, startProxy } from '../../baselines/http-memory/testing/reference-servers.ts';
import { queryFile } from '../store/testing/query-file.ts';
import { parseExperiment } from './config/load-config.ts';
import { runExperiment } from './runner.ts';
import { tinyLongMemEval } from './testing/tiny-longmemeval.ts';

const QUESTIONS = 3;
const dir = mkdtempSync(join(tmpdir(), 'adaptmr-memory-word-'));
let ts: HttpMemoryServer;
let proxy: MemoryProxy;
type Rewrite = NonNullable<Parameters<typeof startProxy>[1]>;
let rewrite: Rewrite = () => undefined;

beforeAll(async () => {
  ts = await startHttpMemoryServer();
  proxy = await startProxy(ts.url, (...a) => rewrite(...a));
});
afterAll(async () => {
  await proxy.close();
  await ts.close();
  rmSync(dir, { recursive: true, force: true });
});

async function run(name: string) {
  const exp = parseExperiment(
    `
name: ${name}
datasets: [${tinyLongMemEval(dir, QUESTIONS, name)}]
methods:
  - { id: server, method: http-memory, index: { granularity: turn }, k: 2, options: { url: "${proxy.url}", pollMs: 10 } }
llm: { cache: { mode: read-write, dir: ${join(dir, `${name}-cache`)} }, roles: {} }
`,
    `${name}.yaml`,
  );
  const out = join(dir, `${name}.duckdb`);
  const logs: string[] = [];
  const summary = await runExperiment(exp, { out, progress: false, log: (l) => logs.push(l) });
  const rows = await queryFile<{ error: string | null; n: number }>(
    out,
    'select error, len(unit_ids)::INTEGER AS n from retrievals order by question_id',
  );
  return { summary, logs, rows };
}

/** Search replies rewritten: each item's unit_ids replaced by `ids(original)`. */
const citing =
  (ids: (orig: string[]) => string[]): Rewrite =>
  (method, path, status, body) =>
    method === 'POST' && path.endsWith('/search') && status === 200
      ? {
          status,
          body: {
            items: (body as { items: { unit_ids?: string[] }[] }).items.map((it) => ({
              ...it,
              unit_ids: ids(it.unit_ids ?? []),
            })),
          },
        }
      : undefined;

describe('memory servers taken at their word', () => {
  it('a search citing only unknown unit ids is an error row, not a recall of 0', async () => {
    rewrite = citing(() => ['never-ingested-1', '从未存入-2']);
    const { summary, rows, logs } = await run('unknown-only');
    expect(summary.errors).toBe(QUESTIONS);
    for (const r of rows)
      expect(r.error).toMatch(/cited 2 unit id\(s\) never ingested \(never-ingested-1, 从未存入-2\)/);
    expect(logs.some((l) => l.includes('never ingested'))).toBe(false); // error rows: no notes to count
  });

  it('known ids beside unknown ones are ranked, and the run warns with the count', async () => {
    rewrite = citing((orig) => [...orig, 'ghost-unit']);
    const { summary, rows, logs } = await run('unknown-some');
    expect(summary.errors).toBe(0);
    for (const r of rows) expect(r.n).toBeGreaterThan(0);
    expect(logs.filter((l) => l.startsWith('warning: server:'))).toEqual([
      `warning: server: ${QUESTIONS} search(es) cited ${QUESTIONS} unit id(s) never ingested; they are not ranked (recall counts only known units) — check the server's unit_ids`,
    ]);
  });

  it('a search item holding a lone surrogate is an error row, never stored as U+FFFD', async () => {
    rewrite = (method, path, status, body) =>
      method === 'POST' && path.endsWith('/search') && status === 200
        ? { status, body: { items: [{ ...(body as { items: object[] }).items[0], text: 'Paris \ud800' }] } }
        : undefined;
    const { summary, rows } = await run('lone-surrogate');
    expect(summary.errors).toBe(QUESTIONS);
    for (const r of rows) expect(r.error).toMatch(/items\[0\]\.text: a lone surrogate \\ud800 at character 6/);
  });

  it('a server whose status holds 0 messages after an acknowledged ingest is an error row', async () => {
    rewrite = (method, path, status, body) =>
      method === 'GET' && /^\/namespaces\/[^/]+$/.test(path) && status === 200
        ? { status, body: { ...(body as object), ready: true, messages: 0 } }
        : undefined;
    const { summary, rows } = await run('status-zero');
    expect(summary.errors).toBe(QUESTIONS);
    for (const r of rows)
      expect(r.error).toMatch(/acknowledged 2 message\(s\) but its status says the namespace holds 0/);
  });
});
