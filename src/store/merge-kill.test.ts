/**
 * `adaptmr merge` builds its output under a temporary name and renames it into place: the real CLI, SIGKILLed at
 * random moments while it copies inputs into a new and into an existing output, leaves the output absent or as it
 * was, and the same merge run again completes with exactly the rows of an uninterrupted merge. An output that is a
 * symlink to (or a hard link of) an input is refused in one line.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, linkSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../run/record/provenance.ts';
import { fakeBatch } from './testing/fake-batch.ts';
import { openResultStore } from './open-store.ts';

const BIN = join(REPO_ROOT, 'bin', 'adaptmr.js');
const dir = mkdtempSync(join(tmpdir(), 'adaptmr-merge-kill-'));
const inputs = [join(dir, 'a.duckdb'), join(dir, 'b.duckdb'), join(dir, 'c.duckdb')];
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** One results file of the experiment "kill" holding questions [from, to) of three methods. */
async function makeInput(file: string, from: number, to: number): Promise<void> {
  const store = await openResultStore(file);
  await store.upsertRun({
    runId: 'kill',
    name: 'kill',
    configJson: JSON.stringify({
      name: 'kill',
      seed: 0,
      methods: ['bm25', 'dense', 'adaptmr'].map((m) => ({ id: m, method: m })),
    }),
    configHash: 'h',
    gitCommit: null,
    gitDirty: null,
    packageVersions: {},
    datasetHashes: {},
    seed: 0,
    startedAt: '2026-01-01T00:00:00Z',
    status: 'running',
  });
  await Promise.all(
    Array.from({ length: to - from }, (_, i) =>
      store.writeQuestion(fakeBatch('kill', from + i, ['bm25', 'dense', 'adaptmr'])),
    ),
  );
  await store.close();
}

async function counts(file: string): Promise<string> {
  const store = await openResultStore(file, { readOnly: true });
  try {
    const rows = await store.query<{ t: string; n: number }>(
      "SELECT 'questions' AS t, count(*)::INTEGER AS n FROM questions UNION ALL SELECT 'retrievals', count(*)::INTEGER FROM retrievals UNION ALL SELECT 'scores', count(*)::INTEGER FROM scores ORDER BY t",
    );
    return rows.map((r) => `${r.t}=${r.n}`).join(' ');
  } finally {
    await store.close();
  }
}

function merge(
  out: string,
  killWhenMerging?: number,
): Promise<{ code: number | null; signal: string | null; stderr: string }> {
  const child = spawn(process.execPath, [BIN, 'merge', ...inputs, '--out', out], {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
  let timer: NodeJS.Timeout | undefined;
  if (killWhenMerging !== undefined) {
    // Killed at a moment after the merge has started writing (a new file in the folder, or the output changed).
    const names = new Set(readdirSync(dir));
    const mtime = (): number => (existsSync(out) ? statSync(out).mtimeMs : 0);
    const before = mtime();
    const poll = setInterval(() => {
      if (readdirSync(dir).some((f) => !names.has(f)) || mtime() !== before) {
        clearInterval(poll);
        timer = setTimeout(() => child.kill('SIGKILL'), killWhenMerging);
      }
    }, 5);
    child.on('close', () => clearInterval(poll));
  }
  return new Promise((resolve) =>
    child.on('close', (code, signal) => {
      if (timer) clearTimeout(timer);
      resolve({ code, signal, stderr });
    }),
  );
}

/** The counts a file of questions [from, to) must hold, from the batches themselves. */
function expected(from: number, to: number): string {
  let scores = 0;
  for (let i = from; i < to; i++) scores += fakeBatch('kill', i, ['bm25', 'dense', 'adaptmr']).scores.length;
  return `questions=${to - from} retrievals=${3 * (to - from)} scores=${scores}`;
}

const leftovers = (): string[] => readdirSync(dir).filter((f) => f.includes('.merging') || f.includes('.creating'));

describe('merge killed midway', () => {
  let clean = '';
  beforeAll(async () => {
    await makeInput(inputs[0]!, 0, 150);
    await makeInput(inputs[1]!, 100, 300);
    await makeInput(inputs[2]!, 250, 400);
    const reference = join(dir, 'reference.duckdb');
    const r = await merge(reference);
    expect(r.code, r.stderr).toBe(0);
    clean = await counts(reference);
    expect(clean).toBe(expected(0, 400));
  }, 180_000);

  it('leaves no output, or the previous one, and the same merge then completes with the same rows', async () => {
    const fresh = join(dir, 'fresh.duckdb');
    const existing = join(dir, 'existing.duckdb');
    // An existing output holding part of the experiment already.
    copyFileSync(inputs[0]!, existing);
    const before = await counts(existing);
    let killed = 0;
    for (const delay of [0, 40, 150, 400]) {
      rmSync(fresh, { force: true });
      const r1 = await merge(fresh, delay);
      const r2 = await merge(existing, delay);
      killed += [r1, r2].filter((r) => r.signal === 'SIGKILL').length;
      // Killed: the new output does not exist, the existing one is unchanged; finished: complete.
      if (r1.signal === 'SIGKILL') expect(existsSync(fresh)).toBe(false);
      else expect(await counts(fresh)).toBe(clean);
      expect(await counts(existing)).toBe(r2.signal === 'SIGKILL' ? before : clean);
      // The same merges again: they complete, with exactly an uninterrupted merge's rows.
      const again = await merge(fresh);
      expect(again.code, again.stderr).toBe(0);
      expect(await counts(fresh)).toBe(clean);
      rmSync(existing);
      copyFileSync(inputs[0]!, existing);
    }
    expect(killed).toBeGreaterThanOrEqual(3);
    // The temporary files of killed merges are cleared by the next merge into the same output.
    expect((await merge(existing)).code).toBe(0);
    expect((await merge(fresh)).code).toBe(0);
    expect(leftovers()).toEqual([]);
  }, 600_000);

  it('refuses an output that is a symlink to, or a hard link of, an input, in one line', async () => {
    const sym = join(dir, 'sym.duckdb');
    symlinkSync(inputs[1]!, sym);
    const r = await merge(sym);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n').find((l) => l.startsWith('error:'))).toMatch(
      /^error: .*b\.duckdb: an input is also the output of the merge \(--out .*sym\.duckdb is a symlink to it\); merge into a new file$/u,
    );
    const hard = join(dir, 'hard.duckdb');
    linkSync(inputs[2]!, hard);
    const h = await merge(hard);
    expect(h.code).toBe(2);
    expect(h.stderr).toMatch(
      /c\.duckdb: an input is also the output of the merge \(--out .*hard\.duckdb is a hard link of it\)/u,
    );
    expect(await counts(inputs[1]!)).toBe(expected(100, 300));
  }, 120_000);
});
