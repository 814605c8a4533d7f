/**
 * CLI commands of the runner: `adaptmr run <experiment.yaml>`.
 */
import { intFlag } from '../core/cli-options.ts';
import { basename, dirname, join } from 'node:path';
import { ensureWritableDir } from '../core/writable-dir.ts';
import type { CommandModule } from 'yargs';

interface RunArgs {
  experiment: string;
  out: string | undefined;
  'data-dir': string | undefined;
  concurrency: number | undefined;
  workers: number | undefined;
  progress: boolean;
  verbose: boolean;
}

export const runCommand: CommandModule<object, RunArgs> = {
  command: 'run <experiment>',
  describe: 'Run an experiment config; resumes an interrupted run of the same config in the same results file',
  builder: (y) =>
    y
      .positional('experiment', { type: 'string', demandOption: true, describe: 'experiment YAML (experiments/*.yaml)' })
      .option('out', { type: 'string', describe: 'results DuckDB file (default results/<name>.duckdb)' })
      .option('data-dir', { type: 'string', describe: 'dataset folder (overrides ADAPTMR_DATA_DIR and the config)' })
      .option('concurrency', intFlag('concurrency', 1, { describe: 'questions processed at once (overrides the config)' }))
      .option('workers', intFlag('workers', 0, {
        describe: 'worker threads computing questions (0 = none; default one per core for LLM-free runs of 64+ questions)',
      }))
      .option('progress', { type: 'boolean', default: true, describe: 'progress bar on stderr (--no-progress to hide)' })
      .option('verbose', { type: 'boolean', default: false, describe: 'print each question id to stderr once its rows are committed' }),
  handler: async (argv) => {
    // Imported here so `adaptmr run --help` does not load the whole pipeline.
    const { loadExperiment } = await import('./load-config.ts');
    const { runExperiment } = await import('./runner.ts');
    const exp = await loadExperiment(argv.experiment);
    const out = argv.out ?? join('results', `${exp.config.name}.duckdb`);
    ensureWritableDir(dirname(out), 'results folder', 'choose another --out');
    const summary = await runExperiment(exp, {
      out,
      dataDir: argv['data-dir'],
      concurrency: argv.concurrency,
      workers: argv.workers,
      progress: argv.progress,
      ...(argv.verbose ? { onQuestionWritten: (d: string, q: string) => process.stderr.write(`written ${d} ${q}\n`) } : {}),
    });
    const secs = (summary.wallMs / 1000).toFixed(1);
    console.log(
      `run ${summary.runId}: ${summary.written} questions written, ${summary.skipped} already done, ` +
        `${summary.errors} method errors, in ${secs} s → ${summary.out}`,
    );
    console.log(`next: adaptmr report ${out}   (per-type table and charts; ${basename(out)})`);
  },
};
