/**
 * Runs a sweep's variations (all, or one shard's share) with the ordinary runner, one results file per variation:
 * `<outDir>/<variation id>.duckdb`, tagged with the sweep's name so `adaptmr merge` accepts exactly the files of
 * this sweep. Each file resumes like any run: a killed shard rerun skips the questions already written.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { tagExperiment } from '../../store/meta.ts';
import { runExperiment, type RunOptions, type RunSummary } from '../runner.ts';
import { shardIds, type Shard } from './shard.ts';
import { expandSweep, type ResolvedSweep } from './sweep-file.ts';

export interface SweepOptions extends Omit<RunOptions, 'out' | 'shard'> {
  outDir: string;
  shard?: Shard | undefined;
}

export interface SweepSummary {
  sweep: string;
  /** Variation ids this invocation ran, in order. */
  variations: string[];
  runs: RunSummary[];
  /** Each run's `run.maxFailureShare`, aligned with `runs`. */
  maxFailureShares: number[];
}

export function variationFile(outDir: string, id: string): string {
  return join(outDir, `${id}.duckdb`);
}

export async function runSweep(sweep: ResolvedSweep, opts: SweepOptions): Promise<SweepSummary> {
  // Every variation is validated, not only this shard's, so a schema error anywhere stops every shard alike
  // before any work.
  const all = expandSweep(sweep);
  const mine = new Set(
    shardIds(
      all.map((r) => r.variation.id),
      opts.shard,
    ),
  );
  const todo = all.filter((r) => mine.has(r.variation.id)).sort((a, b) => (a.variation.id < b.variation.id ? -1 : 1));
  mkdirSync(opts.outDir, { recursive: true });
  const runs: RunSummary[] = [];
  const { outDir: _outDir, shard: _shard, ...runOpts } = opts;
  for (const r of todo) {
    const out = variationFile(opts.outDir, r.variation.id);
    await tagExperiment(out, sweep.name);
    runs.push(await runExperiment(r.experiment, { ...runOpts, out }));
  }
  return {
    sweep: sweep.name,
    variations: todo.map((r) => r.variation.id),
    runs,
    maxFailureShares: todo.map((r) => r.experiment.config.run.maxFailureShare),
  };
}

/** The CI shard matrix: one entry per non-empty shard of at most `count` shards (GitHub `strategy.matrix`). */
export function shardMatrix(sweep: ResolvedSweep, count: number): { include: { shard: string; variations: string }[] } {
  const ids = expandSweep(sweep).map((r) => r.variation.id);
  const n = Math.max(1, Math.min(count, ids.length));
  const include = Array.from({ length: n }, (_, i) => ({
    shard: `${i + 1}/${n}`,
    variations: shardIds(ids, { index: i + 1, count: n }).join(' '),
  }));
  return { include };
}
