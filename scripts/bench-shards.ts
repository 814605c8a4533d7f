/**
 * Sharding benchmark (docs/scale-out.md): one large named dataset (`--dataset`; `npm run bench:shards` names the one
 * docs/scale-out.md reports) through every offline method (scripts/scale-methods.ts), run as
 * one process, then as 2 and as 4 shards (`adaptmr run --shard i/n`) run one after another on this machine, each a
 * fresh process measured whole (wall time, peak RSS with worker threads: bench-process.ts). Per sharding it prints
 * each shard's wall, peak RSS and questions, the largest shard's share of the summed shard time and its ratio to the
 * mean shard (1.0 = perfect balance; the split's own predicted share is printed beside it), and checks that the merge
 * of the shards holds the whole run's scores. With `--estimate <experiment.yaml>` it also times
 * `adaptmr run <experiment> --estimate` (the cost estimate; see docs/cost.md).
 *
 *   npm run bench:shards
 *   npm run bench:shards -- --estimate experiments/exp3-adaptmr-vs-baselines-llm.yaml
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { queryFile } from '../src/store/testing/query-file.ts';
import { allOffline, experiment, scaleSetup } from './scale-methods.ts';
import { loadAverage, runAdaptmr, type Measured } from './bench-process.ts';

const SCORES = 'select dataset, question_id, method, level, metric, k, value from scores order by all';

function shareOf(m: Measured): string {
  return /([\d.]+)% of the work/u.exec(m.stderr)?.[1] ?? '?';
}

/** The n shards run one after another (each line printed as it ends), then their balance and the merge check. */
async function sharded(dir: string, yaml: string, n: number, whole: string): Promise<string[]> {
  const runs = Array.from({ length: n }, (_, i) => {
    mkdirSync(join(dir, `shards-${n}`), { recursive: true });
    const out = join(dir, `shards-${n}`, `shard-${i + 1}.duckdb`);
    const m = runAdaptmr(['run', yaml, '--shard', `${i + 1}/${n}`, '--out', out, '--no-progress']);
    const questions = /(\d+) questions written/u.exec(m.stdout)?.[1] ?? '?';
    // Printed as each shard ends, so a long benchmark shows its figures as it goes.
    console.log(
      `  shard ${i + 1}/${n}: ${m.wallS.toFixed(1)} s, peak RSS ${m.rssMiB.toFixed(0)} MiB, ${questions} questions, predicted ${shareOf(m)}% of the work`,
    );
    return { m, out, questions };
  });
  const walls = runs.map((r) => r.m.wallS);
  const sum = walls.reduce((a, b) => a + b, 0);
  const max = Math.max(...walls);
  const lines: string[] = [];
  const merged = join(dir, `merged-${n}.duckdb`);
  runAdaptmr(['merge', ...runs.map((r) => r.out), '--out', merged]);
  const same =
    JSON.stringify(await queryFile(merged, SCORES)) === JSON.stringify(await queryFile(whole, SCORES)) ? 'yes' : 'NO';
  lines.push(
    `  ${n} shards: summed ${sum.toFixed(1)} s, largest ${max.toFixed(1)} s = ${((100 * max) / sum).toFixed(1)}% of the shard time, ${(max / (sum / n)).toFixed(2)}× the mean shard; merged scores = one process's: ${same}`,
  );
  return lines;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const estimateAt = args.indexOf('--estimate');
  const setup = scaleSetup(args, 'bench-shards [--estimate <experiment.yaml>]');
  const dir = mkdtempSync(join(tmpdir(), 'adaptmr-bench-shards-'));
  try {
    console.log(`${setup.dataset}, every offline method: one process vs shards — load average ${loadAverage()}`);
    const yaml = join(dir, 'all-offline.yaml');
    writeFileSync(yaml, experiment(setup, 'all-offline-methods', allOffline(setup)));
    const whole = join(dir, 'whole.duckdb');
    const one = runAdaptmr(['run', yaml, '--out', whole, '--no-progress']);
    console.log(`  one process: ${one.wallS.toFixed(1)} s, peak RSS ${one.rssMiB.toFixed(0)} MiB`);
    for (const n of [2, 4]) for (const line of await sharded(dir, yaml, n, whole)) console.log(line);
    if (estimateAt >= 0) {
      const exp = args[estimateAt + 1]!;
      const e = runAdaptmr(['run', exp, '--estimate', '--no-progress']);
      console.log(`estimate of ${exp}: ${e.wallS.toFixed(1)} s, peak RSS ${e.rssMiB.toFixed(0)} MiB`);
    }
    console.log(`load average at the end ${loadAverage()}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
