// `adaptmr protocol-check`: both reference servers (Python, started as its users start it; TypeScript) pass every
// check, with and without an API key; a server with one deliberate fault fails exactly the check about it, and the
// report names the failure; the CLI prints the report and exits 1 on a failure, 0 on a pass.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HttpMemoryServer, startHttpMemoryServer } from '../../../examples/http-memory-typescript/server.ts';
import {
  type Running,
  startProxy,
  startPythonServer,
} from '../../../baselines/http-memory/testing/reference-servers.ts';
import { REPO_ROOT } from '../../run/record/provenance.ts';
import { formatResults, runProtocolCheck } from './check.ts';
import { ProtocolSchema } from './openapi.ts';

let ts: HttpMemoryServer;
let py: Running;
const opened: Running[] = [];

beforeAll(async () => {
  ts = await startHttpMemoryServer();
  py = await startPythonServer();
});
afterAll(async () => {
  await ts.close();
  await py.close();
  for (const s of opened) await s.close();
});

const failed = (r: Awaited<ReturnType<typeof runProtocolCheck>>) => r.filter((c) => !c.ok);

describe('protocol-check', () => {
  it('passes both reference servers', async () => {
    for (const url of [py.url, ts.url]) {
      const results = await runProtocolCheck(url);
      expect(failed(results), url).toEqual([]);
      expect(results.length).toBe(14);
      expect(formatResults(url, results)).toContain('all 14 checks passed');
    }
  });

  it('passes a server that needs a key when it is given, and checks the refusal without it', async () => {
    const keyed = await startPythonServer({ HTTP_MEMORY_API_KEY: 'ref-key-9d2c' });
    opened.push(keyed);
    const results = await runProtocolCheck(keyed.url, { apiKey: 'ref-key-9d2c' });
    expect(failed(results)).toEqual([]);
    expect(results.map((r) => r.name)).toContain('auth: a request without the key is refused with 401');
    const noKey = await runProtocolCheck(keyed.url);
    expect(failed(noKey)[0]!.detail).toMatch(/GET \/health: HTTP 401, expected 200/);
  });

  // One deliberate fault each, put in front of the TypeScript server by a rewriting proxy.
  const FAULTS: [string, Parameters<typeof startProxy>[1], RegExp, RegExp][] = [
    [
      'stores a resent batch twice',
      (method, path, status, body) =>
        method === 'POST' && path.endsWith('/sessions') && status === 200 && (body as { duplicate: boolean }).duplicate
          ? { status, body: { ...(body as object), stored: 3, duplicate: false } }
          : undefined,
      /ingest the same batch again/,
      /expected \{ stored: 0, duplicate: true \}, got .*"stored":3.*a resent batch would be stored twice/,
    ],
    [
      'search items without text',
      (method, path, status, body) =>
        method === 'POST' && path.endsWith('/search') && status === 200
          ? {
              status,
              body: { items: (body as { items: object[] }).items.map((i) => ({ ...i, text: undefined, memory: 'x' })) },
            }
          : undefined,
      /search: at most k items/,
      /reply does not fit the protocol: \/items\/0: must have required property 'text'/,
    ],
    [
      'answers 500 for an unknown namespace',
      (_method, path, status) =>
        status === 404 && path.includes('never-created') ? { status: 500, body: { error: 'KeyError' } } : undefined,
      /an unknown namespace is 404/,
      /HTTP 500, expected 404/,
    ],
    [
      'times without a zone',
      (method, path, status, body) =>
        method === 'POST' && path.endsWith('/search') && status === 200
          ? {
              status,
              body: {
                items: (body as { items: { time: string }[] }).items.map((i) => ({
                  ...i,
                  time: i.time.replace('Z', ''),
                })),
              },
            }
          : undefined,
      /search: at most k items/,
      /\/items\/0\/time: must match format "date-time"/,
    ],
  ];

  it.each(FAULTS)('names the failure of a server that %s', async (_label, rewrite, check, detail) => {
    const faulty = await startProxy(ts.url, rewrite);
    opened.push(faulty);
    const results = await runProtocolCheck(faulty.url);
    const bad = failed(results);
    expect(bad.length, JSON.stringify(bad)).toBeGreaterThanOrEqual(1);
    expect(bad[0]!.name).toMatch(check);
    expect(bad[0]!.detail).toMatch(detail);
    expect(formatResults(faulty.url, results)).toMatch(
      new RegExp(`✗ ${bad[0]!.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\n    `),
    );
  });

  it('the CLI prints the report and exits 1 on a failure, 0 on a pass', async () => {
    const faulty = await startProxy(ts.url, FAULTS[0]![1]);
    opened.push(faulty);
    // Asynchronously: the servers it checks answer from this process.
    const cli = (url: string) =>
      new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, [join(REPO_ROOT, 'bin/adaptmr.js'), 'protocol-check', url], {
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
        child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
        child.on('exit', (status) => resolve({ status, stdout, stderr }));
      });
    const bad = await cli(faulty.url);
    expect(bad.status).toBe(1);
    expect(bad.stdout).toContain('✗ ingest the same batch again: stored once (idempotent per batch_id)');
    expect(bad.stdout).toMatch(/1 of 14 checks failed/);
    const good = await cli(py.url);
    expect(good.status, good.stderr).toBe(0);
    expect(good.stdout).toContain('all 14 checks passed');
  });

  it("its own requests fit the protocol's request schemas", () => {
    const schema = ProtocolSchema.load();
    expect(
      schema.request('/namespaces/{namespace}/sessions', 'POST', {
        batch_id: 'b0',
        session_id: 's',
        messages: [{ unit_id: 'u', role: 'user', speaker: null, text: '猫', time: '2023-05-01T09:30:00Z' }],
      }),
    ).toEqual({ ok: true });
    expect(schema.request('/namespaces/{namespace}/search', 'POST', { query: 'q', k: 1, question_date: null })).toEqual(
      { ok: true },
    );
    expect(schema.request('/namespaces/{namespace}/search', 'POST', { k: 1 }).ok).toBe(false);
  });
});
