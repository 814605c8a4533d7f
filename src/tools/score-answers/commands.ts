/**
 * CLI: `adaptmr score-answers <predictions.jsonl> --dataset locomo|longmemeval-… [--json] [--judge]` — scores a file
 * of `{question_id, prediction}` lines (published predictions of other systems, or ours) with the harness's own
 * answer metrics and, with `--judge`, its LLM judges. Prints one JSON object per input line, in input order, on
 * stdout (with or without `--json`); without `--json` a per-type summary follows on stderr.
 * `--format locomo-audit <eval_results.json> [more files…] [--out f.duckdb]`: answers with their judge verdicts in the
 * LoCoMo audit's format (benchmarks/locomo/audit.ts): the published per-category table on stdout (one JSON object with
 * `--json`), optionally imported into a results file, and with `--judge` re-judged with kappa against the imported
 * verdicts.
 * The judge endpoint: `--judge-model`, `--base-url` (else OPENAI_BASE_URL), key from OPENAI_API_KEY — as
 * `adaptmr classify --llm-model --base-url` does for the classifier role.
 */
import { intFlag } from '../../core/cli-options.ts';
import type { Argv, CommandModule } from 'yargs';
import { answerFormat, answerFormatNames, datasetNames } from '../../core/benchmarks-installed.ts';
import type { DatasetName } from '../../core/config.ts';
import { InputError } from '../../core/errors.ts';
import { unknownName } from '../../core/registry.ts';
import type { LlmClient } from '../../core/llm.ts';
import { resolveDataDir } from '../../data/index.ts';
import { createLlmProvider } from '../../llm/index.ts';
import { goldFor } from './gold.ts';
import { readPredictions } from './predictions.ts';
import { scoreLines, type ScoredLine } from './score.ts';
import { summaryText } from './summary.ts';
import { formatSummary, scoreAuditFiles } from './locomo-audit.ts';
import { JUDGE_PROMPTS, type JudgePromptKind } from '../../core/qa-config.ts';

export interface ScoreAnswersArgs {
  file: string;
  more?: string[];
  /** `jsonl`, or a published-answer format of an installed benchmark (`locomo-audit`). */
  format?: string;
  out?: string | undefined;
  'judge-prompt'?: JudgePromptKind | undefined;
  dataset: string | undefined;
  json: boolean;
  judge: boolean;
  'judge-model': string | undefined;
  'base-url': string | undefined;
  'judge-adversarial': boolean;
  concurrency: number;
  'data-dir': string | undefined;
}

function judgeClient(argv: ScoreAnswersArgs): LlmClient | undefined {
  if (!argv.judge) return undefined;
  if (!argv['judge-model'])
    throw new InputError(
      '--judge needs --judge-model (e.g. gpt-4o-mini; endpoint from --base-url or OPENAI_BASE_URL)',
      '--judge-model',
    );
  const provider = createLlmProvider({
    roles: { judge: { model: argv['judge-model'], ...(argv['base-url'] ? { baseURL: argv['base-url'] } : {}) } },
  });
  return provider.forRole('judge');
}

/**
 * `--format`: `jsonl` or a published-answer format of the installed benchmarks, listed as the flag's choices; an
 * unknown one stops with one line ("did you mean", the known ones) before yargs' choice check.
 */
function formatOption() {
  const known = ['jsonl', ...answerFormatNames()];
  return {
    choices: known,
    default: 'jsonl',
    describe: 'input format',
    coerce: (v: unknown): string => {
      const name = String(v);
      if (!known.includes(name)) throw new InputError(unknownName('format', name, known), '--format');
      return name;
    },
  };
}

/** The datasets whose predictions files this command scores (the others need what only a run holds: rubric, choices, cue). */
const SCORED_HERE: readonly string[] = ['longmemeval-oracle', 'longmemeval-s', 'longmemeval-m', 'locomo'];

export const scoreAnswersCommand: CommandModule<object, ScoreAnswersArgs> = {
  command: 'score-answers <file> [more..]',
  describe:
    'Score a JSON-lines file of {question_id, prediction} against a dataset (LoCoMo F1, Mem0 F1, BLEU-1, judges)',
  builder: (y) =>
    y
      .positional('file', {
        type: 'string',
        demandOption: true,
        describe: 'predictions, one JSON object per line (or an eval_results.json with --format locomo-audit)',
      })
      .positional('more', {
        type: 'string',
        array: true,
        describe: '--format locomo-audit: more eval_results.json files (one method each)',
      })
      .option('format', formatOption())
      .option('out', {
        type: 'string',
        describe: '--format locomo-audit: import the answers and verdicts into this results file',
      })
      .option('judge-prompt', {
        choices: JUDGE_PROMPTS,
        describe: "--format locomo-audit: the judge's prompt (default: LoCoMo's, as Mem0 runs it)",
      })
      .option('dataset', {
        type: 'string',
        describe: `${datasetNames().join(', ')} (jsonl; locomo-audit files are LoCoMo)`,
      })
      .option('json', { type: 'boolean', default: false, describe: 'JSON lines only (no summary on stderr)' })
      .option('judge', { type: 'boolean', default: false, describe: "also run the dataset's LLM judge" })
      .option('judge-model', { type: 'string', describe: 'judge model (role "judge")' })
      .option('base-url', {
        type: 'string',
        describe: 'OpenAI-compatible endpoint for the judge (default OPENAI_BASE_URL)',
      })
      .option('judge-adversarial', {
        type: 'boolean',
        default: false,
        describe: 'LoCoMo: judge category 5 too (Mem0 does not)',
      })
      .option('concurrency', intFlag('concurrency', 1, { default: 4, describe: 'judge calls in flight' }))
      .option('data-dir', {
        type: 'string',
        describe: 'data directory (default ADAPTMR_DATA_DIR, then ./datasets)',
      }) as unknown as Argv<ScoreAnswersArgs>,
  handler: async (argv) => {
    if (argv.format !== undefined && argv.format !== 'jsonl') {
      const format = await answerFormat(argv.format);
      if (argv.judge && !argv['judge-model'])
        throw new InputError(
          '--judge needs --judge-model (e.g. gpt-4o-mini; endpoint from --base-url or OPENAI_BASE_URL)',
          '--judge-model',
        );
      const summaries = await scoreAuditFiles([argv.file, ...(argv.more ?? [])], {
        format,
        dataDir: resolveDataDir({ flag: argv['data-dir'] }),
        out: argv.out,
        judge: argv.judge
          ? { model: argv['judge-model']!, prompt: argv['judge-prompt'], baseUrl: argv['base-url'] }
          : undefined,
        log: (line) => console.error(line),
      });
      if (argv.json) console.log(JSON.stringify({ format: argv.format, files: summaries }));
      else console.log(summaries.map(formatSummary).join('\n\n'));
      return;
    }
    if ((argv.more ?? []).length > 0)
      throw new InputError(
        'one predictions file at a time (several files: --format locomo-audit)',
        argv.more!.join(' '),
      );
    if (argv.dataset === undefined || !datasetNames().includes(argv.dataset)) {
      throw new InputError(
        `${argv.dataset === undefined ? 'missing --dataset' : `unknown dataset "${argv.dataset}"`}; known: ${datasetNames().join(', ')}`,
        '--dataset',
      );
    }
    if (!SCORED_HERE.includes(argv.dataset)) {
      throw new InputError(
        `scores LongMemEval and LoCoMo predictions; ${argv.dataset}'s answers are scored in a run with a qa: block (its rubric, choices or cue judge)`,
        '--dataset',
      );
    }
    const judge = judgeClient(argv);
    const lines = readPredictions(argv.file);
    const gold = await goldFor(
      lines,
      argv.dataset as DatasetName,
      resolveDataDir({ flag: argv['data-dir'] }),
      argv.file,
    );
    const rows: ScoredLine[] = await scoreLines(lines, gold, {
      ...(judge ? { judge } : {}),
      judgeAdversarial: argv['judge-adversarial'],
      concurrency: argv.concurrency,
    });
    for (const r of rows) console.log(JSON.stringify(r));
    if (!argv.json) console.error(summaryText(rows));
  },
};
