/**
 * The malformed-input corpus ("bad input never a stack trace"): each case of cases.ts writes its bad
 * input into a fresh temp folder, runs the real CLI (`node bin/adaptmr.js …`, spawned asynchronously, two at a
 * time) and must exit with the expected code and first stderr line, print no stack trace ("    at " lines) and
 * never print the API key.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pLimit from 'p-limit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CASES } from './cases.ts';
import type { BadInputCase } from './case.ts';
import { SECRET_KEY, startServer } from './fixtures.ts';

const BIN = process.env.ADAPTMR_CLI ?? join(import.meta.dirname, '..', '..', 'bin', 'adaptmr.js');
/** bin/adaptmr.js says so when it runs the sources through tsx (dist/ stale); that notice is not the case's output. */
const TSX_NOTICE = /^adaptmr: dist\/ (is|is not)/u;

interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

const root = mkdtempSync(join(tmpdir(), 'adaptmr-bad-inputs-'));
const outcomes = new Map<string, Outcome>();

async function runCase(c: BadInputCase, index: number): Promise<Outcome> {
  const dir = mkdtempSync(join(root, `${String(index).padStart(2, '0')}-`));
  const server = c.server ? await startServer(c.server) : undefined;
  try {
    const ctx = { dir, url: server?.url ?? '' };
    await c.setup?.(ctx);
    const started = performance.now();
    const child = spawn(process.execPath, [BIN, ...c.args(ctx)], {
      cwd: dir,
      env: { ...process.env, OPENAI_API_KEY: SECRET_KEY, NO_COLOR: '1', ...(c.env?.(ctx) ?? {}) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    return { code, stdout, stderr, ms: performance.now() - started };
  } finally {
    await server?.close();
  }
}

function firstLine(stderr: string): string {
  return stderr.split('\n').find((l) => l.trim() !== '' && !TSX_NOTICE.test(l)) ?? '';
}

describe('malformed-input corpus', () => {
  beforeAll(async () => {
    const limit = pLimit(2);
    await Promise.all(CASES.map((c, i) => limit(async () => outcomes.set(c.name, await runCase(c, i)))));
  }, 600_000);

  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
    // BAD_INPUTS_TIMES=1 lists the slowest cases (to keep the corpus fast).
    if (process.env.BAD_INPUTS_TIMES) {
      const slow = [...outcomes].sort((a, b) => b[1].ms - a[1].ms).slice(0, 15);
      for (const [name, o] of slow) process.stderr.write(`${(o.ms / 1000).toFixed(1).padStart(5)} s  ${name}\n`);
    }
  });

  it('has at least 60 cases, uniquely named, across every area', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(60);
    expect(new Set(CASES.map((c) => c.name)).size).toBe(CASES.length);
    expect(new Set(CASES.map((c) => c.area))).toEqual(
      new Set(['config', 'dataset', 'flags', 'paths', 'results', 'model', 'api']),
    );
  });

  it.each(CASES.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const o = outcomes.get(c.name)!;
    const context = `stderr:\n${o.stderr}\nstdout:\n${o.stdout.slice(0, 2000)}`;
    expect(firstLine(o.stderr), context).toMatch(c.first);
    if (c.errorLine)
      expect(
        o.stderr.split('\n').filter((l) => l.startsWith('error:')),
        context,
      ).toEqual([expect.stringMatching(c.errorLine)]);
    expect(o.code, context).toBe(c.exit);
    expect(o.stderr, context).not.toMatch(/^\s{4}at /mu);
    expect(o.stderr + o.stdout).not.toContain(SECRET_KEY);
  });
});
