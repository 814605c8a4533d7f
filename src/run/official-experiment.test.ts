/**
 * Official parity end to end: runs the committed `experiments/lme-s-bm25-official.yaml` through the real runner
 * into a DuckDB file and checks the `scores_by_type` overall rows against the official BM25 averages measured with
 * the official Python code (`docs/official-bm25-s.json`, procedure in `docs/official-parity.md`).
 * src/eval/official-parity.test.ts checks the metrics on their own; this checks the config, index, runner and view.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openResultStore } from '../store/index.ts';
import { loadExperiment } from './config/load-config.ts';
import { REPO_ROOT } from './record/provenance.ts';
import { runExperiment } from './runner.ts';
import { longMemEvalCount, RELEASE_SKIP } from '../../test/data-path.ts';

interface Reference {
  tolerance: { stableTies: number; official: number };
  runs: Record<
    'session' | 'turn',
    {
      nAveraged: number;
      official: Record<string, Record<string, number>>;
      stableTies: Record<string, Record<string, number>>;
    }
  >;
}

const reference = JSON.parse(readFileSync(join(REPO_ROOT, 'docs/official-bm25-s.json'), 'utf8')) as Reference;
const dir = mkdtempSync(join(tmpdir(), 'adaptmr-official-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('experiments/lme-s-bm25-official.yaml', () => {
  it('reproduces the official LongMemEval BM25 averages on S at session and turn granularity', async (ctx) => {
    ctx.skip(longMemEvalCount('longmemeval-s') !== 499, RELEASE_SKIP);
    const out = join(dir, 'official.duckdb');
    const exp = await loadExperiment(join(REPO_ROOT, 'experiments/lme-s-bm25-official.yaml'));
    const summary = await runExperiment(exp, { out, progress: false, log: () => {} });
    expect(summary.written).toBe(499);

    const store = await openResultStore(out, { readOnly: true });
    const rows = await store.query<{
      method: string;
      level: string;
      metric: string;
      k: number;
      n: number;
      mean: number;
    }>(
      `select method, level, metric, k, n, mean from scores_by_type
        where adapt_type = 'all' and native_type = 'all' and metric <> 'precision'`,
    );
    await store.close();

    // granularity → (level → metric@k → value) in the reference; our methods are bm25-session and bm25-turn.
    let compared = 0;
    for (const granularity of ['session', 'turn'] as const) {
      const ref = reference.runs[granularity];
      for (const [level, metrics] of Object.entries(ref.stableTies)) {
        for (const [key, want] of Object.entries(metrics)) {
          const [metric, k] = key.split('@');
          const row = rows.find(
            (r) => r.method === `bm25-${granularity}` && r.level === level && r.metric === metric && r.k === Number(k),
          );
          expect(row, `${granularity} ${level} ${key}`).toBeDefined();
          expect(row!.n, `${granularity} ${level} ${key} n`).toBe(ref.nAveraged);
          expect(Math.abs(row!.mean - want), `${granularity} ${level} ${key}`).toBeLessThanOrEqual(
            reference.tolerance.stableTies,
          );
          const official = ref.official[level]?.[key];
          if (official !== undefined)
            expect(Math.abs(row!.mean - official)).toBeLessThanOrEqual(reference.tolerance.official);
          compared++;
        }
      }
    }
    // 18 session-level values for session granularity; 18 turn-level + 18 session-level for turn granularity.
    expect(compared).toBe(54);
  });
});
