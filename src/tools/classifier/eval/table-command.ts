/**
 * CLI: `adaptmr classifier table [--datasets longmemeval-oracle,locomo,zh-plan] [--folds 5] [--inner-folds 3]
 * [--seed 42] [--grid current|previous] [--json] [--out file.json]` — the trained classifier's accuracy table (table.ts): nested CV on the
 * pooled datasets (default LongMemEval + LoCoMo + the committed Chinese questions), and, when both LongMemEval and
 * LoCoMo are in, cross-dataset runs in both directions; prints Markdown (or JSON), optionally writes the JSON.
 */
import { intFlag } from '../../../core/cli-options.ts';
import type { Argv, CommandModule } from 'yargs';
import { InputError } from '../../../core/errors.ts';
import { loadQuestions, resolveDataDir } from '../../../data/index.ts';
import { readZhQuestions, ZH_DATASET } from '../train/zh-questions.ts';
import { CANDIDATES, PREVIOUS_CANDIDATES } from '../train/select.ts';
import { labelledQuestions, type LabelledQuestion } from './questions.ts';
import { classifierTable, tableMarkdown } from './table.ts';
import { writeFileAtomic } from '../../../core/atomic-write.ts';

const KNOWN = ['longmemeval-oracle', 'locomo', ZH_DATASET] as const;

interface TableArgs {
  datasets: string;
  folds: number;
  'inner-folds': number;
  seed: number;
  grid: string;
  json: boolean;
  out: string | undefined;
  'data-dir': string | undefined;
}

export const tableCommand: CommandModule<object, TableArgs> = {
  command: 'table',
  describe: 'Accuracy table of the trained classifier: nested CV per dataset/language and cross-dataset',
  builder: (y) =>
    y
      .option('datasets', {
        type: 'string',
        default: KNOWN.join(','),
        describe: `pooled training/test data, from ${KNOWN.join(', ')}`,
      })
      .option('folds', intFlag('folds', 2, { default: 5 }))
      .option('inner-folds', intFlag('inner-folds', 2, { default: 3 }))
      .option('seed', intFlag('seed', 0, { default: 42 }))
      .option('grid', {
        type: 'string',
        default: 'current',
        choices: ['current', 'previous'],
        describe: 'model-choice grid: current, or previous (n-grams ± cues, linear) for before/after',
      })
      .option('json', { type: 'boolean', default: false })
      .option('out', { type: 'string', describe: 'also write the JSON result here' })
      .option('data-dir', { type: 'string' }) as unknown as Argv<TableArgs>,
  handler: async (argv) => {
    if (!Number.isInteger(argv.folds) || argv.folds < 2) throw new InputError('must be an integer ≥ 2', '--folds');
    if (!Number.isInteger(argv['inner-folds']) || argv['inner-folds'] < 2)
      throw new InputError('must be an integer ≥ 2', '--inner-folds');
    const names = argv.datasets
      .split(',')
      .map((n) => n.trim())
      .filter((n) => n !== '');
    const unknown = names.filter((n) => !(KNOWN as readonly string[]).includes(n));
    if (names.length === 0 || unknown.length > 0)
      throw new InputError(`unknown dataset(s) ${unknown.join(', ')}; known: ${KNOWN.join(', ')}`, '--datasets');
    const dir = resolveDataDir({ flag: argv['data-dir'] });
    const datasets: Record<string, LabelledQuestion[]> = {};
    for (const n of names) {
      datasets[n] =
        n === ZH_DATASET
          ? readZhQuestions()
          : labelledQuestions((await loadQuestions({ name: n as 'locomo' | 'longmemeval-oracle' }, dir)).questions);
    }
    const both = names.includes('longmemeval-oracle') && names.includes('locomo');
    const result = await classifierTable({
      datasets,
      crossTest: both ? ['longmemeval-oracle', 'locomo'] : [],
      folds: argv.folds,
      innerFolds: argv['inner-folds'],
      seed: argv.seed,
      candidates: argv.grid === 'previous' ? PREVIOUS_CANDIDATES : CANDIDATES,
      log: (l) => console.error(l),
    });
    if (argv.out) writeFileAtomic(argv.out, `${JSON.stringify(result, null, 2)}\n`);
    console.log(argv.json ? JSON.stringify(result, null, 2) : tableMarkdown(result.rows));
  },
};
