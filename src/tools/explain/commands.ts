/**
 * CLI: `adaptmr explain --experiment <file.yaml> --question <id> [--dataset name] [--json] [--data-dir dir]`: runs every
 * method of the experiment on one question and prints what each produced, with the gold in a separate section.
 * `adaptmr explain --results <f.duckdb> --question <id>`: what every method of a results file stored for the question
 * — answer and judge verdict next to the context it was given (nothing rerun). `--methods a,b` keeps only those
 * methods and `--no-context` leaves the contexts out (their length is printed), so a case study stays small.
 */
import type { CommandModule } from 'yargs';
import { InputError } from '../../core/errors.ts';
import { loadExperiment } from '../../run/config/load-config.ts';
import { explainQuestion } from './explain.ts';
import { formatExplain } from './format.ts';
import { formatStoredCase, loadStoredCase } from './stored.ts';

interface ExplainArgs {
  experiment: string | undefined;
  results: string | undefined;
  question: string;
  dataset: string | undefined;
  json: boolean;
  'data-dir': string | undefined;
  methods: string | undefined;
  context: boolean;
}

export const explainCommand: CommandModule<object, ExplainArgs> = {
  command: 'explain',
  describe:
    'Case study: every method of an experiment on one question (type, route, units, notes, context), gold apart',
  builder: (y) =>
    y
      .option('experiment', {
        type: 'string',
        describe: 'experiment config (YAML): rerun every method on the question',
      })
      .option('results', {
        type: 'string',
        describe: 'results .duckdb file: show what each method stored (answer, verdict, context)',
      })
      .option('question', { type: 'string', demandOption: true, describe: 'question id' })
      .option('dataset', { type: 'string', describe: 'dataset of the config to look in (when an id is in several)' })
      .option('json', { type: 'boolean', default: false, describe: 'print the result as JSON' })
      .option('methods', {
        type: 'string',
        describe: 'only these method ids, comma-separated (e.g. bm25,adaptmr-single-rules)',
      })
      .option('context', {
        type: 'boolean',
        default: true,
        describe: "print each method's context; --no-context leaves it out (its length is shown)",
      })
      .option('data-dir', {
        type: 'string',
        describe: 'data directory (default: ADAPTMR_DATA_DIR, then the config, then ./datasets)',
      }),
  handler: async (argv) => {
    // Checked here rather than with yargs' check(), whose failure inside a command bypasses the CLI's usage exit code.
    if (!argv.experiment && !argv.results)
      throw new InputError('give --experiment <file.yaml> or --results <file.duckdb>');
    const methods =
      argv.methods === undefined
        ? undefined
        : argv.methods
            .split(',')
            .map((m) => m.trim())
            .filter(Boolean);
    if (methods !== undefined && methods.length === 0)
      throw new InputError('--methods: give method ids, comma-separated');
    const context = argv.context !== false;
    if (argv.results) {
      const stored = await loadStoredCase(argv.results, argv.question, argv.dataset, methods);
      const shown = context ? stored : { ...stored, methods: stored.methods.map((m) => ({ ...m, context: null })) };
      console.log(argv.json ? JSON.stringify(shown, null, 2) : formatStoredCase(stored, { context }));
      if (!argv.experiment) return;
    }
    const exp = await loadExperiment(argv.experiment!);
    const result = await explainQuestion(exp, {
      questionId: argv.question,
      dataset: argv.dataset,
      dataDir: argv['data-dir'],
      methods,
    });
    const shown = context ? result : { ...result, methods: result.methods.map((m) => ({ ...m, context: null })) };
    console.log(argv.json ? JSON.stringify(shown, null, 2) : formatExplain(result, { context }));
  },
};
