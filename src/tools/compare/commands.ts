/**
 * CLI: `adaptmr compare <results.duckdb> --a X --b Y [--metric recall_any] [--level session] [--k 10] [--type t]
 * [--dataset d] [--run r] [--run-b r]` — one paired comparison (mean difference, paired bootstrap CI, exact/permutation test).
 */
import { intFlag } from '../../core/cli-options.ts';
import type { CommandModule } from 'yargs';
import { compareMethods } from './compare.ts';

interface CompareArgs {
  file: string;
  a: string;
  b: string;
  metric: string;
  level: string;
  k: number | undefined;
  type: string | undefined;
  dataset: string | undefined;
  run: string | undefined;
  'run-b': string | undefined;
  json: boolean;
}

export const compareCommand: CommandModule<object, CompareArgs> = {
  command: 'compare <file>',
  describe: 'Paired comparison of two methods of a results file: mean difference, bootstrap CI, test, per type',
  builder: (y) =>
    y
      .positional('file', { type: 'string', demandOption: true, describe: 'results .duckdb file (opened read-only)' })
      .option('a', { type: 'string', demandOption: true, describe: 'method id A' })
      .option('b', { type: 'string', demandOption: true, describe: 'method id B (the reference)' })
      .option('metric', { type: 'string', default: 'recall_any' })
      .option('level', { choices: ['session', 'turn', 'qa'], default: 'session' })
      .option('k', intFlag('k', 1, { describe: 'cutoff (default 10; none for --level qa)' }))
      .option('type', { type: 'string', describe: 'one AdaptMR type (default: every type and all)' })
      .option('dataset', {
        type: 'string',
        describe: 'one dataset of the file (default: each dataset, one block of rows each)',
      })
      .option('run', { type: 'string', describe: 'run id of A, when A is in several runs' })
      .option('run-b', { type: 'string', describe: "run id of B (default: A's run, else the one run with B)" })
      .option('json', { type: 'boolean', default: false }),
  handler: async (argv) => {
    const k = argv.level === 'qa' ? null : (argv.k ?? 10);
    const out = await compareMethods(argv.file, {
      a: argv.a,
      b: argv.b,
      metric: argv.metric,
      level: argv.level,
      k,
      type: argv.type,
      dataset: argv.dataset,
      run: argv.run,
      runB: argv['run-b'],
    });
    console.log(argv.json ? JSON.stringify(out.rows, null, 2) : out.text);
  },
};
