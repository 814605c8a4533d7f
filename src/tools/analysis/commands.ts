/**
 * CLI: `adaptmr analyze best-strategy <results.duckdb> [--metric recall_any --k 10 --level session --split 0.5
 * --seed 42]` (the oracle strategy (held-out): best strategy per type, gold type) and `adaptmr analyze abstention <results.duckdb>`
 * (no-memory precision / recall). Both print markdown tables and store them as tables in the file.
 */
import { intFlag, numberFlag } from '../../core/cli-options.ts';
import type { Argv, CommandModule } from 'yargs';
import { analyzeAbstention, analyzeBestStrategy, BEST_STRATEGY_DEFAULTS } from './run-analysis.ts';

interface AnalyzeArgs {
  kind: string;
  file: string;
  run: string | undefined;
  metric: string;
  k: number;
  level: string;
  split: number;
  seed: number;
  strategies: string[] | undefined;
  baselines: string[] | undefined;
}

const list = (v: string[] | undefined): string[] | undefined =>
  v
    ?.flatMap((s) => s.split(','))
    .map((s) => s.trim())
    .filter((s) => s !== '');

export const analyzeCommand: CommandModule<object, AnalyzeArgs> = {
  command: 'analyze <kind> <file>',
  describe:
    'Analyses of a results file: best-strategy (oracle strategy (held-out), gold type) | abstention (no-memory P/R)',
  builder: (y) =>
    (y as unknown as Argv<AnalyzeArgs>)
      .positional('kind', { choices: ['best-strategy', 'abstention'] as const, demandOption: true })
      .positional('file', {
        type: 'string',
        demandOption: true,
        describe: 'results .duckdb file (opened read-write; not while a job writes it)',
      })
      .option('run', { type: 'string', describe: 'only this run id (when a dataset appears in several runs)' })
      .option('metric', {
        type: 'string',
        default: BEST_STRATEGY_DEFAULTS.metric,
        describe: 'best-strategy: retrieval metric id',
      })
      .option('k', intFlag('k', 1, { default: BEST_STRATEGY_DEFAULTS.k }))
      .option('level', { choices: ['session', 'turn'], default: BEST_STRATEGY_DEFAULTS.level })
      .option(
        'split',
        numberFlag('split', 0, 1, {
          default: BEST_STRATEGY_DEFAULTS.split,
          describe: 'share of each type in the selection half',
        }),
      )
      .option('seed', intFlag('seed', 0, { default: BEST_STRATEGY_DEFAULTS.seed }))
      .option('strategies', {
        type: 'string',
        array: true,
        describe: 'candidate method ids (default: every `method: strategy`)',
      })
      .option('baselines', {
        type: 'string',
        array: true,
        describe: 'methods shown beside the bound (default: every unified-embedding)',
      }) as unknown as Argv<AnalyzeArgs>,
  handler: async (argv) => {
    if (argv.kind === 'abstention') {
      console.log((await analyzeAbstention(argv.file, argv.run)).text);
      return;
    }
    const strategies = list(argv.strategies);
    const baselines = list(argv.baselines);
    const out = await analyzeBestStrategy(argv.file, {
      metric: argv.metric,
      k: argv.k,
      level: argv.level,
      split: argv.split,
      seed: argv.seed,
      ...(strategies ? { strategies } : {}),
      ...(baselines ? { baselines } : {}),
      ...(argv.run ? { run: argv.run } : {}),
    });
    console.log(out.text);
  },
};
