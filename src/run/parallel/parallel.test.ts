/**
 * Worker threads change where questions are computed, never what is stored: the same rows with and without workers
 * (folder and array-file datasets), data errors raised in a worker keep their one-line form, a killed run with
 * workers resumes without duplicates, and runs that need the runner's shared state stay in this process.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { createMethods } from '../methods/create-methods.ts';
import { parseExperiment } from '../config/load-config.ts';
import { REPO_ROOT } from '../record/provenance.ts';
import { runExperiment } from '../runner.ts';
import { workerCount, workerObstacle } from './eligible.ts';
import { startWorkerPool } from './pool.ts';
import { openResultStore } from '../../store/index.ts';
import type { DatasetPlan, DatasetRunState } from '../run-dataset.ts';
import { queryFile } from '../../store/testing/query-file.ts';
import { longMemEvalFolder, useTestData } from '../../../test/data-path.ts';

const dir = mkdtempSync(join(tmpdir(), 'adaptmr-parallel-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
useTestData(); // its runs find LoCoMo / LongMemEval S by name on the data search path

const EXPERIMENT = `
name: parallel
seed: 3
datasets:
  - name: locomo
    sample: { perType: 2 }
  - name: longmemeval-s
    sample: { perType: 3 }
  - name: longmemeval-oracle
    sample: { perType: 2 }
methods:
  - id: bm25-turn
    method: bm25
    index: { granularity: turn, roles: [user], keepEmpty: true }
    k: 1000
    options: { tokenizer: whitespace, tieBreak: reverse }
  - id: embed-session
    method: unified-embedding
    index: { granularity: session }
    k: 20
`;

const RETRIEVALS = `select dataset, question_id, method, unit_ids, unit_session_ids, scores, no_memory, k, error
  from retrievals order by all`;
const SCORES = `select dataset, question_id, method, level, metric, k, value, counted from scores order by all`;

describe('compute workers', () => {
  it("store exactly the rows the in-process run stores (folder and array-file datasets; a LongMemEval array file's unselected elements are passed over unparsed)", async () => {
    const exp = parseExperiment(EXPERIMENT, 'parallel.yaml');
    const inProcess = join(dir, 'in-process.duckdb');
    const parallel = join(dir, 'workers.duckdb');
    const a = await runExperiment(exp, { out: inProcess, workers: 0, progress: false, log: () => {} });
    const b = await runExperiment(exp, { out: parallel, workers: 2, progress: false, log: () => {} });
    expect(b.written).toBe(a.written);
    expect(b.errors).toBe(0);
    expect(a.written).toBe(2 * 4 + 3 * 5 + 2 * 5);
    expect(await queryFile(parallel, RETRIEVALS)).toEqual(await queryFile(inProcess, RETRIEVALS));
    expect(await queryFile(parallel, SCORES)).toEqual(await queryFile(inProcess, SCORES));
    // A rerun with workers resumes: nothing left to do.
    const again = await runExperiment(exp, { out: parallel, workers: 2, progress: false, log: () => {} });
    expect(again).toMatchObject({ written: 0, skipped: a.written });
  });

  it('report a broken data file as a one-line input error naming it', async () => {
    const folder = join(dir, 'broken');
    mkdirSync(folder);
    const s = await longMemEvalFolder('longmemeval-s');
    for (const f of readdirSync(s).sort().slice(0, 3)) copyFileSync(join(s, f), join(folder, f));
    // The head (question id and type) reads fine, so the catalog pass accepts it; the body is cut short.
    writeFileSync(
      join(folder, 'zz_broken.json.gz'),
      gzipSync('{"question_id": "zz", "question_type": "multi-session", "question": "x'),
    );
    const exp = parseExperiment(
      `name: broken\ndatasets:\n  - path: ${folder}\n    format: longmemeval\nmethods:\n  - id: bm25\n    method: bm25\n    index: { granularity: session }\n    k: 5\n`,
      'broken.yaml',
    );
    await expect(
      runExperiment(exp, { out: join(dir, 'broken.duckdb'), workers: 2, progress: false, log: () => {} }),
    ).rejects.toThrow(/zz_broken\.json\.gz: not valid JSON/);
  });

  it('started for a fresh results file, stop before writing anything when the file turns out to hold the dataset', async () => {
    const folder = await longMemEvalFolder('longmemeval-s');
    const files = readdirSync(folder)
      .sort()
      .slice(0, 2)
      .map((f) => join(folder, f));
    const plan: DatasetPlan = {
      source: { name: 'longmemeval-s', format: 'longmemeval', path: folder, kind: 'folder' },
      selected: new Set(['any']),
      files: new Set(files),
    };
    const exp = parseExperiment(
      'name: fresh\ndatasets: [{ name: longmemeval-s }]\nmethods: [{ id: bm25, method: bm25, k: 5 }]\n',
      'fresh.yaml',
    );
    // The workers are told at once that nothing is done (the file did not exist when the run started)…
    const pool = startWorkerPool(plan, exp.config, 'fresh-run', {
      workers: 1,
      path: 'fresh.yaml',
      configHash: exp.configHash,
      freshResults: true,
    });
    const store = await openResultStore(join(dir, 'appeared.duckdb'));
    try {
      // …but the file, once open, holds a question of the dataset: another run created it meanwhile.
      const state = {
        done: new Set(['longmemeval-s\tq1\tbm25']),
        retry: new Set<string>(),
        store,
      } as unknown as DatasetRunState;
      await expect(pool.run(state)).rejects.toThrow(/appeared while this run was starting/);
      expect(await store.query('select count(*)::INT AS n from retrievals')).toEqual([{ n: 0 }]);
    } finally {
      await store.close();
    }
  });

  it('a killed CLI run with workers resumes without duplicates', async () => {
    const yaml = join(dir, 'kill.yaml');
    writeFileSync(
      yaml,
      `name: kill-workers\ndatasets:\n  - name: longmemeval-s\n    limit: 90\nmethods:\n  - id: bm25\n    method: bm25\n    index: { granularity: turn }\n    k: 50\n`,
    );
    const out = join(dir, 'kill.duckdb');
    const written = await new Promise<number>((resolve, reject) => {
      const child = spawn(
        process.execPath,
        [join(REPO_ROOT, 'bin/adaptmr.js'), 'run', yaml, '--out', out, '--no-progress', '--verbose', '--workers', '2'],
        {
          stdio: ['ignore', 'ignore', 'pipe'],
        },
      );
      let n = 0;
      child.stderr.on('data', (chunk: Buffer) => {
        n += (chunk.toString().match(/^written /gm) ?? []).length;
        if (n >= 10) child.kill('SIGKILL');
      });
      child.on('exit', (code, signal) =>
        signal === 'SIGKILL' ? resolve(n) : reject(new Error(`child ended with ${code}`)),
      );
    });
    expect(written).toBeGreaterThanOrEqual(10);
    const [before] = await queryFile<{ n: number }>(out, 'select count(*) n from retrievals');
    expect(before!.n).toBeGreaterThanOrEqual(10);
    expect(before!.n).toBeLessThan(90);
    const exp = parseExperiment(
      `name: kill-workers\ndatasets:\n  - name: longmemeval-s\n    limit: 90\nmethods:\n  - id: bm25\n    method: bm25\n    index: { granularity: turn }\n    k: 50\n`,
      yaml,
    );
    const summary = await runExperiment(exp, { out, workers: 2, progress: false, log: () => {} });
    expect(summary.skipped).toBe(before!.n);
    expect(summary.written).toBe(90 - before!.n);
    const [after] = await queryFile<{ r: number; d: number; q: number }>(
      out,
      'select count(*) r, count(distinct question_id) d, (select count(*) from questions) q from retrievals',
    );
    expect(after).toEqual({ r: 90, d: 90, q: 90 });
  });

  it('are not used when a run needs the runner’s shared state', async () => {
    const cached = parseExperiment(
      `name: c\ndatasets:\n  - name: longmemeval-s\nembedder: { name: wink-sif, options: { cache: true } }\nmethods:\n  - id: e\n    method: unified-embedding\n    index: { granularity: session }\n    k: 5\n`,
      'c.yaml',
    );
    const methods = await createMethods(cached.config, cached.path, cached.configHash);
    expect(workerObstacle(cached.config, methods)).toMatch(/embedding cache/);
    expect(workerCount(cached.config, methods, 500, 2)).toBe(0);
    const plain = parseExperiment(EXPERIMENT, 'p.yaml');
    const plainMethods = await createMethods(plain.config, plain.path, plain.configHash);
    expect(workerObstacle(plain.config, plainMethods)).toBeUndefined();
    expect(workerCount(plain.config, plainMethods, 10)).toBe(0);
    expect(workerCount(plain.config, plainMethods, 10, 3)).toBe(3);
    expect(workerCount(plain.config, plainMethods, 500, 0)).toBe(0);
  });
});
