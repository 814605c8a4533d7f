/**
 * End-to-end runner tests on the real datasets (ADAPTMR_DATA_DIR): a small stratified run of both baselines on
 * LoCoMo and LongMemEval S into a real DuckDB file, resume without duplicates, a SIGKILLed CLI run that resumes,
 * and config errors that name the file and field.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadExperiment, parseExperiment } from './config/load-config.ts';
import { REPO_ROOT } from './record/provenance.ts';
import { runExperiment } from './runner.ts';
import { queryFile } from '../store/testing/query-file.ts';
import { spoolPathOf } from '../store/spool.ts';
import { useTestData } from '../../test/data-path.ts';

useTestData(); // its runs find LoCoMo / LongMemEval by name on the data search path

const dir = mkdtempSync(join(tmpdir(), 'adaptmr-runner-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SMALL = `
name: runner-small
seed: 7
datasets:
  - name: locomo
    sample: { perType: 2 }
  - name: longmemeval-s
    sample: { perType: 2 }
methods:
  - id: bm25-turn
    method: bm25
    index: { granularity: turn }
    k: 100
  - id: embed-session
    method: unified-embedding
    index: { granularity: session }
    k: 50
`;

describe('runExperiment', () => {
  const out = join(dir, 'small.duckdb');

  it('runs both baselines on both datasets and stores per-type scores', async () => {
    const summary = await runExperiment(parseExperiment(SMALL, 'small.yaml'), { out, progress: false, log: () => {} });
    // 2 per AdaptMR type: LoCoMo has 4 types (factual, temporal, multi-hop, abstention), S has all 5.
    expect(summary.questions).toBe(2 * 4 + 2 * 5);
    expect(summary.written).toBe(summary.questions);
    expect(summary.errors).toBe(0);

    const [counts] = await queryFile<{ q: number; r: number; runs: number; done: number }>(
      out,
      `select (select count(*) from questions) q, (select count(*) from retrievals) r,
              (select count(*) from runs) runs, (select count(*) from runs where status = 'done') done`,
    );
    expect(counts).toEqual({ q: 18, r: 36, runs: 1, done: 1 });

    const overall = await queryFile<{ dataset: string; method: string; level: string; n: number; mean: number }>(
      out,
      `select dataset, method, level, n, mean from scores_by_type
        where adapt_type = 'all' and native_type = 'all' and metric = 'recall_any' and k = 10 order by all`,
    );
    // bm25-turn gives turn and session level; embed-session only session level; on 2 datasets.
    expect(overall.map((r) => `${r.dataset}/${r.method}/${r.level}`)).toEqual([
      'locomo/bm25-turn/session',
      'locomo/bm25-turn/turn',
      'locomo/embed-session/session',
      'longmemeval-s/bm25-turn/session',
      'longmemeval-s/bm25-turn/turn',
      'longmemeval-s/embed-session/session',
    ]);
    for (const r of overall) {
      expect(r.mean).toBeGreaterThanOrEqual(0);
      expect(r.mean).toBeLessThanOrEqual(1);
      // Abstention questions are never counted (official rule), so n < questions per dataset.
      expect(r.n).toBeLessThanOrEqual(r.dataset === 'locomo' ? 6 : 8);
    }
    // Methods never see gold, but the runner records what they returned; every retrieved id exists in the haystack.
    const bad = await queryFile<{ n: number }>(
      out,
      `select count(*) n from retrievals where len(unit_ids) = 0 or error is not null`,
    );
    expect(bad[0]?.n).toBe(0);
  });

  it('a rerun of the same config resumes: nothing is redone or duplicated', async () => {
    const summary = await runExperiment(parseExperiment(SMALL, 'small.yaml'), { out, progress: false, log: () => {} });
    expect(summary.written).toBe(0);
    expect(summary.skipped).toBe(18);
    const [c] = await queryFile<{ r: number; d: number }>(
      out,
      `select count(*) r, count(distinct (dataset, question_id, method)) d from retrievals`,
    );
    expect(c).toEqual({ r: 36, d: 36 });
  });

  it('a killed CLI run resumes where it stopped, without duplicates', async () => {
    const yaml = join(dir, 'kill.yaml');
    writeFileSync(
      yaml,
      `name: kill-resume\ndatasets:\n  - name: longmemeval-s\n    limit: 24\nconcurrency: 1\nmethods:\n  - id: bm25\n    method: bm25\n    index: { granularity: turn }\n    k: 20\n`,
    );
    const killOut = join(dir, 'kill.duckdb');
    const writtenBeforeKill = await new Promise<number>((resolve, reject) => {
      const child = spawn(
        process.execPath,
        [join(REPO_ROOT, 'bin/adaptmr.js'), 'run', yaml, '--out', killOut, '--no-progress', '--verbose'],
        {
          stdio: ['ignore', 'ignore', 'pipe'],
        },
      );
      let written = 0;
      child.stderr.on('data', (chunk: Buffer) => {
        written += (chunk.toString().match(/^written /gm) ?? []).length;
        if (written >= 5) child.kill('SIGKILL');
      });
      child.on('exit', (code, signal) =>
        signal === 'SIGKILL' ? resolve(written) : reject(new Error(`child ended with ${code}`)),
      );
    });
    expect(writtenBeforeKill).toBeGreaterThanOrEqual(5);

    const [before] = await queryFile<{ n: number }>(killOut, 'select count(*) n from retrievals');
    // Each question commits atomically: at least the ones reported, never a partial question.
    expect(before?.n).toBeGreaterThanOrEqual(5);
    expect(before?.n).toBeLessThan(24);

    const summary = await runExperiment(await loadExperiment(yaml), { out: killOut, progress: false, log: () => {} });
    expect(summary.skipped).toBe(before?.n);
    expect(summary.written).toBe(24 - (before?.n ?? 0));
    const [after] = await queryFile<{ r: number; d: number; s: number }>(
      killOut,
      `select count(*) r, count(distinct question_id) d, (select count(*) from runs) s from retrievals`,
    );
    expect(after).toEqual({ r: 24, d: 24, s: 1 });
  });
});

describe('where a run writes its rows', () => {
  const spec = (name: string): string =>
    `name: ${name}\ndatasets:\n  - name: longmemeval-s\n    limit: 6\nmethods:\n  - id: bm25\n    method: bm25\n    index: { granularity: session }\n    k: 10\n`;
  /** Whether the results file and its row spool existed when the first question was written. */
  async function firstWrite(name: string, out: string): Promise<{ file: boolean; spool: boolean }> {
    let seen: { file: boolean; spool: boolean } | undefined;
    const onQuestionWritten = (): void =>
      void (seen ??= { file: existsSync(out), spool: existsSync(spoolPathOf(out)) });
    const summary = await runExperiment(parseExperiment(spec(name), `${name}.yaml`), {
      out,
      progress: false,
      log: () => {},
      onQuestionWritten,
    });
    expect(summary.written).toBe(6);
    return seen!;
  }

  it('spools the rows of a run that starts the file, folds them when it ends, and writes an existing file directly', async () => {
    const out = join(dir, 'spooled.duckdb');
    // A new file: the rows wait in the spool and DuckDB is not opened before the run ends.
    expect(await firstWrite('spool-a', out)).toEqual({ file: false, spool: true });
    expect(existsSync(spoolPathOf(out))).toBe(false);
    // The file exists now: a second run reads what is done from it and writes there as it goes.
    expect(await firstWrite('spool-b', out)).toEqual({ file: true, spool: false });
    const runs = await queryFile<{ name: string; status: string; q: number; warm: number }>(
      out,
      `select name, status, (select count(*) from retrievals r where r.run_id = runs.run_id) q,
              (select count(*) from checkpoints c where c.run_id = runs.run_id and c.key = 'warmup') warm from runs order by name`,
    );
    expect(runs).toEqual([
      { name: 'spool-a', status: 'done', q: 6, warm: 1 },
      { name: 'spool-b', status: 'done', q: 6, warm: 1 },
    ]);
  });
});

describe('experiment config errors', () => {
  it('names the file and the misspelt field', () => {
    expect(() => parseExperiment(SMALL.replace('methods:', 'methodz:'), 'typo.yaml')).toThrow(/typo\.yaml: .*methodz/);
    expect(() => parseExperiment(SMALL.replace('k: 100', 'k: many'), 'typo.yaml')).toThrow(/typo\.yaml: methods\.0\.k/);
  });

  it('rejects an unknown method before any work, with a suggestion', async () => {
    const exp = parseExperiment(SMALL.replace('method: bm25', 'method: bm52'), 'bad.yaml');
    await expect(runExperiment(exp, { out: join(dir, 'never.duckdb'), progress: false })).rejects.toThrow(
      /bad\.yaml: methods\.0 \(bm25-turn\): unknown method "bm52"\. Did you mean "bm25"\?/,
    );
  });

  it('rejects invalid YAML naming the file', () => {
    expect(() => parseExperiment('name: [unclosed', 'broken.yaml')).toThrow(/broken\.yaml: invalid YAML/);
  });
});

describe('run identity', () => {
  it('does not depend on concurrency, only on what changes results', () => {
    const a = parseExperiment(SMALL, 'a.yaml');
    const b = parseExperiment(`${SMALL}\nconcurrency: 7\n`, 'b.yaml');
    const c = parseExperiment(SMALL.replace('seed: 7', 'seed: 8'), 'c.yaml');
    expect(b.configHash).toBe(a.configHash);
    expect(c.configHash).not.toBe(a.configHash);
  });
});
