/**
 * A full disk, for real: a small tmpfs mounted for the test (root only — CI runs as root; elsewhere the suite is
 * skipped and says why). Through the real CLI: a run whose results file cannot be created says so in one line and
 * keeps every computed question in its row spool, with nothing half-made beside it; `report` says the same while
 * the disk is full, and once there is room it folds the spool and shows every question; a resumed run on a full
 * disk keeps what was committed and the rerun adds the rest without duplicates; `report --html`, the charts and
 * `export` on a full disk fail in one line and leave the previous page, charts and export files byte for byte.
 */
import { spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
  writeSync,
  closeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openResultStore } from '../store/index.ts';
import { REPO_ROOT } from './record/provenance.ts';
import { useTestData } from '../../test/data-path.ts';

useTestData(); // its runs find LoCoMo / LongMemEval by name on the data search path

const BIN = join(REPO_ROOT, 'bin', 'adaptmr.js');
const dir = mkdtempSync(join(tmpdir(), 'adaptmr-full-disk-'));
const disk = join(dir, 'disk');
mkdirSync(disk);

/** Mounts a tmpfs of `size` at `disk` (or changes its size); the reason it cannot, else undefined. */
function mount(size: string, remount = false): string | undefined {
  const r = spawnSync(
    'mount',
    remount ? ['-o', `remount,size=${size}`, disk] : ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', disk],
    { encoding: 'utf8' },
  );
  return r.status === 0
    ? undefined
    : `cannot mount a tmpfs to fill (${(r.stderr || r.error?.message || 'mount failed').trim()}); runs as root, as in CI`;
}
const cannot = process.platform !== 'linux' ? 'a tmpfs mount needs Linux' : mount('700k');
afterAll(() => {
  if (cannot === undefined) spawnSync('umount', [disk]);
  rmSync(dir, { recursive: true, force: true });
});

function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string; first: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: dir, env: { ...process.env, NO_COLOR: '1' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    child.on('close', (code) => {
      const first = stderr.split('\n').find((l) => l.trim() !== '' && !l.startsWith('adaptmr: dist/')) ?? '';
      resolve({ code, stdout, stderr, first });
    });
  });
}

/** Fills the rest of the disk with a file (removed by `free`). */
function fill(): void {
  const fd = openSync(join(disk, 'filler'), 'w');
  const block = Buffer.alloc(64 * 1024, 1);
  try {
    for (;;) writeSync(fd, block);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
  } finally {
    closeSync(fd);
  }
}
const free = (): void => rmSync(join(disk, 'filler'), { force: true });

/** Question rows of the newest run, and how many distinct questions they are. */
async function questions(file: string): Promise<{ n: number; distinct: number }> {
  const store = await openResultStore(file, { readOnly: true });
  try {
    const [r] = await store.query<{ n: number; distinct: number }>(
      'SELECT count(*)::INTEGER AS n, count(DISTINCT (dataset, question_id))::INTEGER AS distinct FROM questions WHERE run_id = (SELECT run_id FROM runs ORDER BY started_at DESC LIMIT 1)',
    );
    return r!;
  } finally {
    await store.close();
  }
}

const experiment = (limit: number): string => {
  const file = join(dir, `exp-${limit}.yaml`);
  writeFileSync(
    file,
    `name: full-disk\ndatasets:\n  - name: longmemeval-s\n    limit: ${limit}\nmethods:\n  - { id: bm25, method: bm25, k: 20 }\n`,
  );
  return file;
};

const NO_SPACE = /^error: .*: no space left on the device \(ENOSPC\); what was committed before is kept/u;
const noStack = (s: string): void => expect(s).not.toMatch(/^\s{4}at /mu);
const temporaries = (): string[] =>
  readdirSync(disk, { recursive: true })
    .map(String)
    .filter((f) => /\.(tmp|creating|merging)$/u.test(f) || /\.part$/u.test(f));

describe.skipIf(cannot !== undefined)(`a full disk${cannot ? ` (skipped: ${cannot})` : ''}`, () => {
  const out = join(disk, 'r.duckdb');
  beforeAll(() => undefined);

  it('a run that cannot create its results file: one line, every question kept in the spool, nothing that blocks', async () => {
    const run = await cli(['run', experiment(30), '--out', out, '--no-progress']);
    expect(run.first, run.stderr).toMatch(NO_SPACE);
    expect(run.first).toContain(out);
    expect(run.code).toBe(2);
    noStack(run.stderr);
    expect(existsSync(out)).toBe(false); // no 0-byte or half-made file
    expect(existsSync(`${out}.spool`)).toBe(true);
    expect(temporaries()).toEqual([]);
    // While the disk is still full, reading the file says the same in one line.
    const report = await cli(['report', out]);
    expect(report.first).toMatch(NO_SPACE);
    expect(report.code).toBe(2);
    // Room again: the next command folds the spool; every question of the run is there.
    expect(mount('24m', true)).toBeUndefined();
    const after = await cli(['report', out]);
    expect(after.code, after.stderr).toBe(0);
    expect(await questions(out)).toEqual({ n: 30, distinct: 30 });
    expect(existsSync(`${out}.spool`)).toBe(false);
  }, 180_000);

  it('a resumed run on a full disk keeps what it committed; the rerun adds the rest, none twice', async () => {
    fill();
    const run = await cli(['run', experiment(45), '--out', out, '--no-progress']);
    expect(run.first, run.stderr).toMatch(NO_SPACE);
    expect(run.code).toBe(2);
    noStack(run.stderr);
    free();
    // The committed part of the new run is there (possibly none of it, if the disk filled before its first commit).
    const committed = await questions(out);
    expect(committed.n).toBe(committed.distinct);
    const rerun = await cli(['run', experiment(45), '--out', out, '--no-progress']);
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(await questions(out)).toEqual({ n: 45, distinct: 45 });
  }, 180_000);

  it('report --html, charts and export on a full disk leave the previous files byte for byte', async () => {
    const page = join(disk, 'page.html');
    const exportDir = join(disk, 'export');
    expect((await cli(['report', out, '--html', page])).code).toBe(0);
    expect((await cli(['report', out])).code).toBe(0);
    expect((await cli(['export', out, '--out', exportDir, '--table', 'questions', 'scores'])).code).toBe(0);
    const charts = readdirSync(join(disk, 'charts')).map((f) => join(disk, 'charts', f));
    expect(charts.length).toBeGreaterThanOrEqual(3);
    const kept = [page, ...charts, join(exportDir, 'questions.csv'), join(exportDir, 'scores.csv')];
    const before = kept.map((f) => readFileSync(f));

    fill();
    for (const args of [
      ['report', out, '--html', page],
      ['report', out],
      ['export', out, '--out', exportDir, '--table', 'questions', 'scores'],
    ]) {
      const r = await cli(args);
      expect(r.first, `${args.join(' ')}: ${r.stderr}`).toMatch(NO_SPACE);
      expect(r.code).toBe(2);
      noStack(r.stderr);
    }
    kept.forEach((f, i) => expect(readFileSync(f).equals(before[i]!), f).toBe(true));
    expect(temporaries()).toEqual([]);
    free();
  }, 180_000);
});
