// adaptmr doctor: every endpoint of an experiment checked before anything runs — LLM roles, memory servers — with a
// table and one line per failure naming the URL and what to check; the key never printed.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMem0OssStandIn, type Mem0StandIn } from '../../../baselines/mem0/testing/mem0-servers.ts';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../../llm/testing/fake-openai-server.ts';
import { REPO_ROOT } from '../../run/record/provenance.ts';
import { parseExperiment } from '../../run/config/load-config.ts';
import { createServer } from 'node:http';
import { doctor, probeOpenAiCompatible } from './doctor.ts';
import { formatChecks } from './format.ts';

const KEY = 'doctor-key-5f2a9e01';
const dir = mkdtempSync(join(tmpdir(), 'adaptmr-doctor-'));
let llm: FakeOpenAiServer;
let mem0: Mem0StandIn;
beforeAll(async () => {
  llm = await startFakeOpenAiServer();
  mem0 = await startMem0OssStandIn(KEY);
});
afterAll(async () => {
  await llm.close();
  await mem0.close();
  rmSync(dir, { recursive: true, force: true });
});

const yaml = () => `
name: doctor
datasets: [{ name: locomo, limit: 1 }]
methods:
  - { id: bm25, method: bm25 }
  - { id: mem0-good, method: mem0, index: { granularity: turn }, options: { api: oss, baseUrl: ${mem0.baseUrl}, apiKeyEnv: DOCTOR_KEY } }
  - { id: mem0-wrong-key, method: mem0, index: { granularity: turn }, options: { api: oss, baseUrl: ${mem0.baseUrl}, apiKeyEnv: DOCTOR_WRONG } }
  - { id: zep-down, method: zep, index: { granularity: turn }, options: { api: graphiti, baseUrl: "http://127.0.0.1:9" } }
llm:
  roles:
    reader: { baseURL: ${llm.baseURL}, model: r }
    judge: { baseURL: ${llm.baseURL}, model: j, apiKeyEnv: DOCTOR_UNSET }
qa: {}
`;

describe('adaptmr doctor', () => {
  it('checks every endpoint and names what to check', async () => {
    const env = { DOCTOR_KEY: KEY, DOCTOR_WRONG: 'not-the-key-123' };
    Object.assign(process.env, env);
    const checks = await doctor(parseExperiment(yaml(), 'doctor.yaml'), { ...process.env, ...env });
    const by = Object.fromEntries(checks.map((c) => [c.user, c]));
    expect(by['llm reader (r)']).toMatchObject({ ok: true });
    expect(by['llm judge (j)']).toMatchObject({ ok: false, detail: expect.stringContaining('DOCTOR_UNSET') });
    expect(by['method mem0-good (mem0:oss)']).toMatchObject({ ok: true, url: mem0.baseUrl });
    expect(by['method mem0-wrong-key (mem0:oss)']).toMatchObject({
      ok: false,
      detail: expect.stringMatching(/rejected the key/),
    });
    expect(by['method zep-down (zep:graphiti)']).toMatchObject({
      ok: false,
      detail: expect.stringMatching(/127\.0\.0\.1:9.*unreachable.*compose\/graphiti\.yaml/),
    });
    expect(checks).toHaveLength(5); // bm25 uses no endpoint
    const text = formatChecks(checks);
    expect(text).toContain('FAIL method zep-down (zep:graphiti) at http://127.0.0.1:9');
    expect(text).not.toContain(KEY);
    expect(text).not.toContain('not-the-key-123');
  });

  it('fails an endpoint that answers with a 5xx error page, naming it by its title', async () => {
    const server = createServer((_req, res) => {
      res
        .writeHead(502, { 'content-type': 'text/html' })
        .end('<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as { port: number };
    try {
      const check = await probeOpenAiCompatible('llm reader (r)', `http://127.0.0.1:${port}/v1`, 'DOCTOR_KEY', false, {
        DOCTOR_KEY: KEY,
      });
      expect(check).toMatchObject({
        ok: false,
        detail: expect.stringMatching(/^HTTP 502: an HTML page \("502 Bad Gateway"\) — the server answers but fails/),
      });
    } finally {
      await new Promise((r) => server.close(r));
    }
  });

  it('exits 1 from the CLI when an endpoint fails', async () => {
    const file = join(dir, 'doctor.yaml');
    writeFileSync(file, yaml());
    // Asynchronous spawn: the stand-ins answer from this process's event loop.
    const child = spawn(process.execPath, [join(REPO_ROOT, 'bin/adaptmr.js'), 'doctor', file], {
      env: { ...process.env, DOCTOR_KEY: KEY, DOCTOR_WRONG: 'x-wrong-x' },
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(1);
    expect(out).toMatch(/^FAIL method zep-down \(zep:graphiti\) at http:\/\/127\.0\.0\.1:9: /m);
    expect(out).not.toContain(KEY);
  });
});
