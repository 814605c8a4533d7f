/**
 * CLI command `adaptmr sweep <sweep.yaml> [--shard i/n] --out <dir>`: runs this shard's variations (all without
 * --shard), one `<dir>/<variation>.duckdb` each; `--plan n` prints the shard matrix as one line of JSON instead
 * (the CI plan job feeds it to the shard jobs' matrix).
 */
import { intFlag } from '../../core/cli-options.ts';
import type { CommandModule } from 'yargs';
import { runFlags, type RunFlagArgs } from '../run-flags.ts';

interface SweepArgs extends RunFlagArgs {
  sweep: string;
  out: string | undefined;
  shard: string | undefined;
  plan: number | undefined;
  'allow-unpriced': boolean;
}

export const sweepCommand: CommandModule<object, SweepArgs> = {
  command: 'sweep <sweep>',
  describe: "Run a sweep file's variations (or one shard of them), one results file per variation",
  builder: (y) =>
    y
      .positional('sweep', {
        type: 'string',
        demandOption: true,
        describe: 'sweep YAML: { name, base, variations: [{ id, set }] }',
      })
      .option('out', {
        type: 'string',
        describe: 'folder for <variation>.duckdb files (default results/<sweep name>/)',
      })
      .option('shard', { type: 'string', describe: 'run only shard i of n (1-based), e.g. --shard 2/4' })
      .option('plan', intFlag('plan', 1, { describe: 'print the matrix of at most n shards as JSON and exit' }))
      .options(runFlags('data-dir'))
      .option('allow-unpriced', {
        type: 'boolean',
        default: false,
        describe: 'run under llm.budgetUsd although a model has no llm.prices entry (its calls count as $0)',
      })
      .options(runFlags('allow-unlocked', 'concurrency', 'progress', 'retry-errors')),
  handler: async (argv) => {
    const { loadSweep } = await import('./sweep-file.ts');
    const { runSweep, shardMatrix } = await import('./sweep.ts');
    const { parseShard } = await import('./shard.ts');
    // Flags before files: a bad --shard is reported before the sweep file is read.
    const shard = argv.shard !== undefined ? parseShard(argv.shard) : undefined;
    const sweep = await loadSweep(argv.sweep);
    if (argv.plan !== undefined) {
      console.log(JSON.stringify(shardMatrix(sweep, argv.plan)));
      return;
    }
    const outDir = (argv.out ?? `results/${sweep.name}`).replace(/\/+$/u, '');
    const summary = await runSweep(sweep, {
      outDir,
      shard,
      dataDir: argv['data-dir'],
      allowUnlocked: argv['allow-unlocked'],
      allowUnpriced: argv['allow-unpriced'],
      concurrency: argv.concurrency,
      progress: argv.progress,
      retryErrors: argv['retry-errors'],
    });
    const { describeFailures, failureVerdict } = await import('../record/failures.ts');
    for (const [i, r] of summary.runs.entries()) {
      console.log(
        `${summary.variations[i]}: run ${r.runId}, ${r.written} questions written, ${r.skipped} already done, ${describeFailures(r.failedQuestions, r.questions, r.failures)} → ${r.out}`,
      );
      // The same rule as `adaptmr run`, per variation, with each variation's own run.maxFailureShare.
      const verdict = failureVerdict(r.failedQuestions, r.questions, summary.maxFailureShares[i]!);
      if (verdict !== undefined) {
        process.stderr.write(`adaptmr sweep: ${summary.variations[i]}: ${verdict}\n`);
        process.exitCode = 1;
      }
    }
    if (summary.runs.length === 0) console.log(`shard ${argv.shard ?? ''} of sweep ${summary.sweep} has no variation`);
    console.log(`next: adaptmr merge ${outDir}/*.duckdb --out ${outDir}.duckdb`);
  },
};
