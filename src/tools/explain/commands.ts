/**
 * CLI: `adaptmr explain --experiment <file.yaml> --question <id> [--dataset name] [--json] [--data-dir dir]`: runs every
 * method of the experiment on one question and prints what each produced, with the gold in a separate section.
 * `adaptmr explain --results <f.duckdb> --question <id>`: what every method of a results file stored for the question
 * — answer and judge verdict next to the context it was given (nothing rerun).
 */
import type { CommandModule } from 'yargs';
import { InputError } from '../../core/errors.ts';
import { loadExperiment } from '../../run/load-config.ts';
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
}

export const explainCommand: CommandModule<object, ExplainArgs> = {
  command: 'explain',
  describe: 'Case study: every method of an experiment on one question (type, route, units, notes, context), gold apart',
  builder: (y) =>
    y
      .option('experiment', { type: 'string', describe: 'experiment config (YAML): rerun every method on the question' })
      .option('results', { type: 'string', describe: 'results .duckdb file: show what each method stored (answer, verdict, context)' })
      .option('question', { type: 'string', demandOption: true, describe: 'question id' })
      .option('dataset', { type: 'string', describe: 'dataset of the config to look in (when an id is in several)' })
      .option('json', { type: 'boolean', default: false, describe: 'print the result as JSON' })
      .option('data-dir', { type: 'string', describe: 'data directory (default: ADAPTMR_DATA_DIR, then the config, then ./datasets)' }),
  handler: async (argv) => {
    // Checked here rather than with yargs' check(), whose failure inside a command bypasses the CLI's usage exit code.
    if (!argv.experiment && !argv.results) throw new InputError('give --experiment <file.yaml> or --results <file.duckdb>');
    if (argv.results) {
      const stored = await loadStoredCase(argv.results, argv.question, argv.dataset);
      console.log(argv.json ? JSON.stringify(stored, null, 2) : formatStoredCase(stored));
      if (!argv.experiment) return;
    }
    const exp = await loadExperiment(argv.experiment!);
    const result = await explainQuestion(exp, { questionId: argv.question, dataset: argv.dataset, dataDir: argv['data-dir'] });
    console.log(argv.json ? JSON.stringify(result, null, 2) : formatExplain(result));
  },
};
