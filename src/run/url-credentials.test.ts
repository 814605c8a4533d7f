/**
 * An endpoint URL with credentials (`http://user:password@proxy/v1`, an ordinary basic-auth proxy) is a secret as an
 * API key is: after a real CLI run against a loopback server that demands those credentials as HTTP Basic (and
 * quotes the URL back in its replies), the password — as written, percent-decoded, and in the base64 of the Basic
 * header — is in no results row, no file the commands write (the HTML page and its JSON payload, the CSV and
 * Parquet exports, the LLM cache), nor on stdout or stderr; `doctor` reports the endpoint reachable. A results file
 * written before this redaction existed (a password planted in `runs.config_json`) reports and exports clean too.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../llm/testing/fake-openai-server.ts';
import { openResultStore } from '../store/index.ts';
import { TABLES } from '../store/schema.ts';
import { REPO_ROOT } from './record/provenance.ts';
import { useTestData } from '../../test/data-path.ts';

useTestData(); // its runs find LoCoMo / LongMemEval by name on the data search path

const USER = 'proxy-user';
/** As written in the URL (`%40` is `@`) and as the proxy checks it. */
const PASSWORD_IN_URL = 'Pr0xy%40Pa55-4b7e2c';
const PASSWORD = 'Pr0xy@Pa55-4b7e2c';
const BASIC = Buffer.from(`${USER}:${PASSWORD}`).toString('base64');
const FORMS = [PASSWORD_IN_URL, PASSWORD, BASIC];

const dir = mkdtempSync(join(tmpdir(), 'adaptmr-url-creds-'));
let server: FakeOpenAiServer;
let withCreds = '';

beforeAll(async () => {
  // Replies quote the endpoint with its credentials, as a proxy's error page or a chatty model might.
  // The judge's verdict quotes it too (a reply that is no verdict would be an error row: src/eval/qa/verdict.ts).
  server = await startFakeOpenAiServer({
    chat: (body) =>
      /Answer yes or no only/i.test(body.messages.map((m) => m.content).join('\n'))
        ? `yes (served via ${withCreds})`
        : `red (served via ${withCreds})`,
  });
  withCreds = server.baseURL.replace('http://', `http://${USER}:${PASSWORD_IN_URL}@`);
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const env: NodeJS.ProcessEnv = { ...process.env, ADAPTMR_CACHE_DIR: join(dir, 'cache'), NO_COLOR: '1' };
    delete env.OPENAI_API_KEY;
    delete env.OPENAI_BASE_URL;
    const child = spawn(process.execPath, [join(REPO_ROOT, 'bin', 'adaptmr.js'), ...args], { cwd: dir, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

function files(root: string): string[] {
  return readdirSync(root).flatMap((name) => {
    const p = join(root, name);
    return statSync(p).isDirectory() ? files(p) : [p];
  });
}

/** Every row of every table of a results file as text (DuckDB compresses strings on disk: bytes are not enough). */
async function dump(file: string): Promise<string> {
  const store = await openResultStore(file, { readOnly: true });
  try {
    const parts: string[] = [];
    for (const t of TABLES) {
      const rows = await store.query<Record<string, unknown>>(`SELECT * FROM ${t}`).catch(() => []);
      parts.push(JSON.stringify(rows, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v)));
    }
    return parts.join('\n');
  } finally {
    await store.close();
  }
}

async function parquetText(file: string): Promise<string> {
  const db = await DuckDBInstance.create(':memory:');
  const c = await db.connect();
  const rows = (await c.runAndReadAll(`SELECT * FROM read_parquet('${file}')`)).getRowObjectsJson();
  c.closeSync();
  db.closeSync();
  return JSON.stringify(rows);
}

function expectClean(text: string, where: string): void {
  for (const form of FORMS) expect(text.includes(form), `${where} holds ${form}: ${text.slice(0, 1500)}`).toBe(false);
}

describe('credentials in an endpoint URL', () => {
  it('travel as Basic auth and land in no row, file or output of run, report --html, export and doctor', async () => {
    const exp = join(dir, 'exp.yaml');
    writeFileSync(
      exp,
      `
name: url-credentials
datasets:
  - name: longmemeval-s
    limit: 2
methods:
  - { id: bm25, method: bm25, k: 3 }
llm:
  maxRetries: 0
  roles:
    reader: { baseURL: "${withCreds}", model: cred-reader }
    judge: { baseURL: "${withCreds}", model: cred-judge }
qa: {}
`,
    );
    const out = join(dir, 'results.duckdb');
    const outputs: string[] = [];
    const run = await cli(['run', exp, '--out', out, '--no-progress']);
    outputs.push(run.stdout, run.stderr);
    expect(run.code, run.stderr).toBe(0);
    // The proxy got its credentials on every call, as a Basic header (the URL the SDK sent had none).
    const chats = server.requests.filter((r) => r.path === '/v1/chat/completions');
    expect(chats.length).toBeGreaterThan(0);
    expect(new Set(chats.map((r) => r.authorization))).toEqual(new Set([`Basic ${BASIC}`]));

    const html = join(dir, 'page.html');
    const report = await cli(['report', out, '--html', html]);
    expect(report.code, report.stderr).toBe(0);
    outputs.push(report.stdout, report.stderr);
    const csv = await cli(['export', out, '--format', 'csv', '--out', join(dir, 'csv')]);
    const parquet = await cli(['export', out, '--format', 'parquet', '--out', join(dir, 'parquet')]);
    expect(csv.code, csv.stderr).toBe(0);
    expect(parquet.code, parquet.stderr).toBe(0);
    outputs.push(csv.stdout, csv.stderr, parquet.stdout, parquet.stderr);
    const doctor = await cli(['doctor', exp]);
    outputs.push(doctor.stdout, doctor.stderr);
    expect(doctor.stdout).toMatch(/all endpoints reachable/u);
    expect(doctor.stdout).toContain('[redacted]@127.0.0.1');

    const page = readFileSync(html, 'utf8');
    // The resolved config (and its copy in the JSON payload) shows the endpoint with its credentials redacted.
    expect(page).toContain('http://[redacted]@127.0.0.1');
    expectClean(await dump(out), 'results rows');
    for (const f of files(join(dir, 'parquet'))) expectClean(await parquetText(f), f);
    for (const f of files(dir))
      if (f !== exp && !f.endsWith('.duckdb') && !f.endsWith('.parquet')) expectClean(readFileSync(f, 'latin1'), f);
    for (const o of outputs) expectClean(o, 'command output');
  }, 300_000);

  it('a file that already holds a password reports and exports it redacted', async () => {
    const old = join(dir, 'old.duckdb');
    copyFileSync(join(dir, 'results.duckdb'), old);
    const store = await openResultStore(old);
    await store.query(
      `UPDATE runs SET config_json = replace(config_json, '[redacted]', '${USER}:${PASSWORD_IN_URL}'), name = '${withCreds}'`,
    );
    await store.close();
    expect(await dump(old)).toContain(PASSWORD_IN_URL);
    const html = join(dir, 'old.html');
    expect((await cli(['report', old, '--html', html])).code).toBe(0);
    expectClean(readFileSync(html, 'utf8'), 'old.html');
    expect((await cli(['export', old, '--format', 'csv', '--out', join(dir, 'old-csv'), '--table', 'runs'])).code).toBe(
      0,
    );
    expectClean(readFileSync(join(dir, 'old-csv', 'runs.csv'), 'utf8'), 'runs.csv');
    expect(
      (await cli(['export', old, '--format', 'parquet', '--out', join(dir, 'old-parquet'), '--table', 'runs'])).code,
    ).toBe(0);
    expectClean(await parquetText(join(dir, 'old-parquet', 'runs.parquet')), 'runs.parquet');
  }, 120_000);
});
