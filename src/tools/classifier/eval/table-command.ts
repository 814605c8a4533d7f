/**
 * CLI: `adaptmr classifier table [--folds 5] [--inner-folds 3] [--seed 42] [--json] [--out file.json]` — the trained
 * classifier's accuracy table (table.ts): nested CV on LongMemEval + LoCoMo + the committed Chinese questions, and
 * cross-dataset runs in both directions; prints Markdown (or JSON) and optionally writes the JSON to `--out`.
 */
import { writeFileSync } from 'node:fs';
import type { Argv, CommandModule } from 'yargs';
import { InputError } from '../../../core/errors.ts';
import { loadDataset, resolveDataDir } from '../../../data/index.ts';
import { readZhQuestions, ZH_DATASET } from '../train/zh-questions.ts';
import { labelledQuestions } from './questions.ts';
import { classifierTable, tableMarkdown } from './table.ts';

interface TableArgs {
  folds: number;
  'inner-folds': number;
  seed: number;
  json: boolean;
  out: string | undefined;
  'data-dir': string | undefined;
}

export const tableCommand: CommandModule<object, TableArgs> = {
  command: 'table',
  describe: 'Accuracy table of the trained classifier: nested CV per dataset/language and cross-dataset',
  builder: (y) =>
    y
      .option('folds', { type: 'number', default: 5 })
      .option('inner-folds', { type: 'number', default: 3 })
      .option('seed', { type: 'number', default: 42 })
      .option('json', { type: 'boolean', default: false })
      .option('out', { type: 'string', describe: 'also write the JSON result here' })
      .option('data-dir', { type: 'string' }) as unknown as Argv<TableArgs>,
  handler: async (argv) => {
    if (!Number.isInteger(argv.folds) || argv.folds < 2) throw new InputError('must be an integer ≥ 2', '--folds');
    if (!Number.isInteger(argv['inner-folds']) || argv['inner-folds'] < 2) throw new InputError('must be an integer ≥ 2', '--inner-folds');
    const dir = resolveDataDir({ flag: argv['data-dir'] });
    const datasets = {
      'longmemeval-oracle': labelledQuestions((await loadDataset({ name: 'longmemeval-oracle' }, dir)).instances),
      locomo: labelledQuestions((await loadDataset({ name: 'locomo' }, dir)).instances),
      [ZH_DATASET]: readZhQuestions(),
    };
    const result = await classifierTable({
      datasets,
      crossTest: ['longmemeval-oracle', 'locomo'],
      folds: argv.folds,
      innerFolds: argv['inner-folds'],
      seed: argv.seed,
      log: (l) => console.error(l),
    });
    if (argv.out) writeFileSync(argv.out, `${JSON.stringify(result, null, 2)}\n`);
    console.log(argv.json ? JSON.stringify(result, null, 2) : tableMarkdown(result.rows));
  },
};
