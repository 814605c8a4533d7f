/**
 * CLI commands of the runner: `adaptmr run <experiment.yaml>`.
 */
import { intFlag, numberFlag } from '../core/cli-options.ts';
import { basename, dirname, join } from 'node:path';
import { ensureWritableDir } from '../core/writable-dir.ts';
import type { Argv, CommandModule } from 'yargs';
import type { LoadedExperiment } from './config/load-config.ts';
import type { RunSummary } from './runner.ts';
import type { RunShard } from './shards/shard-source.ts';
import { runFlags, type RunFlagArgs } from './run-flags.ts';

interface RunArgs extends RunFlagArgs {
  experiment: string;
  out: string | undefined;
  workers: number | undefined;
  'max-failure-share': number | undefined;
  verbose: boolean;
  estimate: boolean;
  json: boolean;
  'estimate-sample': number | undefined;
  batch: string | undefined;
  'budget-usd': number | undefined;
  'allow-unpriced': boolean;
  shard: string | undefined;
  shards: number | undefined;
}

/** What to run and how: the experiment, output, data, parallelism, progress and failure handling. */
function runOptions<T>(y: Argv<T>) {
  return y
    .positional('experiment', {
      type: 'string',
      demandOption: true,
      describe: 'experiment YAML (experiments/*.yaml)',
    })
    .option('out', { type: 'string', describe: 'results DuckDB file (default results/<name>.duckdb)' })
    .options(runFlags('data-dir', 'allow-unlocked', 'concurrency'))
    .option(
      'workers',
      intFlag('workers', 0, {
        describe:
          'worker threads computing questions (0 = none; default one per core for LLM-free runs of 64+ questions, minus one for folder datasets, where the runner thread computes too)',
      }),
    )
    .options(runFlags('progress', 'retry-errors'))
    .option(
      'max-failure-share',
      numberFlag('max-failure-share', 0, 1, {
        describe:
          'exit non-zero when more than this share (0-1) of the questions has error rows (overrides run.maxFailureShare; default 0.05)',
      }),
    )
    .option('verbose', {
      type: 'boolean',
      default: false,
      describe: 'print each question id to stderr once its rows are committed',
    })
    .option('shard', {
      type: 'string',
      describe:
        'run only shard i of n (1-based) of the haystack groups, e.g. --shard 2/4; default from SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX (docs/scale-out.md)',
    })
    .option('shards', intFlag('shards', 1, { describe: 'shard count when the index comes from the scheduler' }));
}

/** What it may cost: the estimate, the Batch API, the budget. */
function costOptions<T>(y: Argv<T>) {
  return y
    .option('estimate', {
      type: 'boolean',
      default: false,
      describe: 'send nothing: estimate calls, tokens, cache hits and dollars per method and stage (docs/cost.md)',
    })
    .option('json', {
      type: 'boolean',
      default: false,
      describe: 'with --estimate: one JSON object per method and stage',
    })
    .option(
      'estimate-sample',
      intFlag('estimate-sample', 0, {
        describe:
          'with --estimate: questions computed per AdaptMR type and dataset, the rest scaled (default 8); 0 computes every question',
      }),
    )
    .option('batch', {
      type: 'string',
      describe:
        'send these roles through the Batch API, e.g. reader,judge (sets llm.batch.roles; the run stays the same run)',
    })
    .option(
      'budget-usd',
      numberFlag('budget-usd', 0, Number.MAX_SAFE_INTEGER, {
        describe:
          'stop cleanly before spending more than this on LLM calls (sets llm.budgetUsd; rerun with more to resume)',
      }),
    )
    .option('allow-unpriced', {
      type: 'boolean',
      default: false,
      describe:
        'run under a budget although a model has no llm.prices entry (its calls count as $0: a free local model)',
    });
}

export const runCommand: CommandModule<object, RunArgs> = {
  command: 'run <experiment>',
  describe: 'Run an experiment config; resumes an interrupted run of the same config in the same results file',
  builder: (y) => costOptions(runOptions(y)),
  handler: async (argv) => {
    // Flags before files: a bad --shard (or scheduler variable) is reported before the experiment is read.
    const shard = (await import('./shards/shard-source.ts')).resolveShard(argv.shard, argv.shards, process.env);
    // A compute worker starts loading its modules now, while this thread reads the experiment (parallel/spawn.ts).
    if (argv.workers !== 0) (await import('./parallel/spawn.ts')).prewarmComputeWorker();
    // Imported here so `adaptmr run --help` does not load the whole pipeline.
    const { loadExperiment } = await import('./config/load-config.ts');
    const exp = await loadExperiment(argv.experiment);
    if (argv.batch !== undefined || argv['budget-usd'] !== undefined) {
      // How calls are paid for is not part of the run's identity (load-config.ts), so the flags resume the same run.
      const { withSpendFlags } = await import('./spend/spend-flags.ts');
      exp.config = withSpendFlags(exp.config, { batch: argv.batch, budgetUsd: argv['budget-usd'] }, exp.path);
    }
    if (argv.estimate) await printEstimate(exp, argv);
    else await run(exp, argv, shard);
  },
};

/** `--estimate`: the dry run's table, or one JSON object per method and stage. */
async function printEstimate(exp: LoadedExperiment, argv: RunArgs): Promise<void> {
  const { estimateExperiment, formatEstimate } = await import('./spend/estimate.ts');
  const estimate = await estimateExperiment(exp, {
    dataDir: argv['data-dir'],
    concurrency: argv.concurrency,
    progress: argv.progress && !argv.json,
    perType: argv['estimate-sample'],
  });
  if (argv.json) {
    for (const row of estimate.rows) console.log(JSON.stringify(row));
    for (const f of estimate.failures)
      process.stderr.write(`not estimated: ${f.n} result(s) of ${f.method} failed in the dry run: ${f.error}\n`);
  } else console.log(formatEstimate(estimate));
}

/** The run itself, a signal finishing the questions in flight, then its summary line and exit code. */
async function run(exp: LoadedExperiment, argv: RunArgs, shard: RunShard | undefined): Promise<void> {
  const { runExperiment } = await import('./runner.ts');
  // The flag (checked to be a share by its numberFlag coerce) overrides the config.
  const limit = argv['max-failure-share'] ?? exp.config.run.maxFailureShare;
  const out =
    argv.out ??
    (shard
      ? join('results', exp.config.name, `shard-${shard.index}.duckdb`)
      : join('results', `${exp.config.name}.duckdb`));
  if (shard) console.log(`shard ${shard.index}/${shard.count} (from ${shard.from}) → ${out}`);
  ensureWritableDir(dirname(out), 'results folder', 'choose another --out');
  const { RunInterrupted, exitCodeOf, watchInterrupts } = await import('./interrupt.ts');
  const interrupt = watchInterrupts();
  let summary: Awaited<ReturnType<typeof runExperiment>>;
  try {
    summary = await runExperiment(exp, {
      out,
      dataDir: argv['data-dir'],
      allowUnlocked: argv['allow-unlocked'],
      allowUnpriced: argv['allow-unpriced'],
      concurrency: argv.concurrency,
      workers: argv.workers,
      progress: argv.progress,
      retryErrors: argv['retry-errors'],
      interrupt,
      shard,
      ...(argv.verbose
        ? { onQuestionWritten: (d: string, q: string) => process.stderr.write(`written ${d} ${q}\n`) }
        : {}),
    });
  } catch (err) {
    if (!(err instanceof RunInterrupted)) throw err;
    process.stderr.write(`adaptmr run: ${err.message}\n`);
    process.exitCode = exitCodeOf(err.signal);
    return;
  } finally {
    interrupt.dispose();
  }
  await reportRun(summary, out, limit, shard);
}

/** The summary line; exit 3 when the run stopped early, 1 when too many questions failed. */
async function reportRun(summary: RunSummary, out: string, limit: number, shard?: RunShard): Promise<void> {
  const { describeFailures, failureVerdict } = await import('./record/failures.ts');
  const secs = (summary.wallMs / 1000).toFixed(1);
  console.log(
    `run ${summary.runId}: ${summary.written} questions written, ${summary.skipped} already done, ` +
      `${describeFailures(summary.failedQuestions, summary.questions, summary.failures)}, in ${secs} s → ${summary.out}`,
  );
  if (summary.stopped) {
    // Incomplete on purpose: exit 3 (1 = too many failed questions, 2 = bad input), so a script does not take the
    // file for a finished run.
    console.log(`stopped early: ${summary.stopped} (${summary.postponed ?? 0} questions left for the resume)`);
    process.exitCode = 3;
    return;
  }
  if (shard)
    console.log(
      `next: once every shard is done, adaptmr merge ${join(dirname(out), 'shard-*.duckdb')} --out <merged file> (shard ${shard.index}/${shard.count} is partial)`,
    );
  else console.log(`next: adaptmr report ${out}   (per-type table and charts; ${basename(out)})`);
  const verdict = failureVerdict(summary.failedQuestions, summary.questions, limit);
  if (verdict !== undefined) {
    process.stderr.write(`adaptmr run: ${verdict}\n`);
    process.exitCode = 1;
  }
}
