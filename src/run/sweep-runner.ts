/**
 * Runs a sweep's variations (all, or one shard's share) with the ordinary runner, one results file per variation
 * — `<outDir>/<variation id>.duckdb`, the base experiment as `base.duckdb` — each tagged with the sweep's name so
 * `adaptmr merge` accepts exactly the files of this sweep. Each file resumes like any run: a killed shard rerun
 * skips the questions already written.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { tagExperiment } from '../store/meta.ts';
import { runExperiment, type RunOptions, type RunSummary } from './runner.ts';
import { shardIds, type Shard } from './shard.ts';
import { expandSweepRuns, sweepName, type SweepFile } from './sweep-file.ts';

export interface SweepOptions extends Omit<RunOptions, 'out'> {
  outDir: string;
  shard?: Shard | undefined;
  /** Names the sweep file in errors. */
  path?: string;
}

export interface SweepSummary {
  sweep: string;
  /** Variation ids this invocation ran, in order. */
  variations: string[];
  runs: RunSummary[];
}

export function variationFile(outDir: string, id: string): string {
  return join(outDir, `${id}.duckdb`);
}

export async function runSweep(sweep: SweepFile, opts: SweepOptions): Promise<SweepSummary> {
  // Every variation is validated, not only this shard's, so a schema error anywhere stops every shard alike
  // before any work.
  const all = expandSweepRuns(sweep, opts.path);
  const mine = shardIds(all.map((r) => r.id), opts.shard);
  mkdirSync(opts.outDir, { recursive: true });
  const runs: RunSummary[] = [];
  const { outDir: _outDir, shard: _shard, path: _path, ...runOpts } = opts;
  for (const id of mine) {
    const out = variationFile(opts.outDir, id);
    await tagExperiment(out, sweepName(sweep));
    runs.push(await runExperiment(all.find((r) => r.id === id)!.experiment, { ...runOpts, out }));
  }
  return { sweep: sweepName(sweep), variations: mine, runs };
}

/** The CI shard matrix: one entry per non-empty shard of at most `count` shards (GitHub `strategy.matrix`). */
export function shardMatrix(sweep: SweepFile, count: number, path?: string): { include: { shard: string; variations: string }[] } {
  const ids = expandSweepRuns(sweep, path).map((r) => r.id);
  const n = Math.max(1, Math.min(count, ids.length));
  const include = Array.from({ length: n }, (_, i) => ({ shard: `${i + 1}/${n}`, variations: shardIds(ids, { index: i + 1, count: n }).join(' ') }));
  return { include };
}
