/**
 * CLI: `adaptmr classify` (classify questions from arguments or stdin), `adaptmr classifier train` (train the
 * hashed ONNX model on a whole dataset), `adaptmr classifier eval` (score a classifier on a dataset; k-fold or
 * cross-dataset for the trainable model; DuckDB + heatmap) and `adaptmr classifier calibrate` (calibrate/commands.ts).
 */
import { intFlag, numberFlag } from '../../core/cli-options.ts';
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Argv, CommandModule } from 'yargs';
import { DATASET_NAMES, type DatasetName } from '../../core/config.ts';
import { InputError } from '../../core/errors.ts';
import type { Classifier } from '../../core/interfaces.ts';
import type { LlmProvider } from '../../core/llm.ts';
import { compareIds, loadQuestions, resolveDataDir } from '../../data/index.ts';
import { calibrationSplit } from '../calibrate/calibrate.ts';
import { createLlmProvider } from '../../llm/index.ts';
import { ORACLE_LABEL, ORACLE_NAME } from '../../classify/oracle.ts';
import { classifiers } from '../../classify/registry.ts';
import { labelledQuestions, type LabelledQuestion } from './eval/questions.ts';
import { evaluateClassifier } from './eval/run-eval.ts';
import { evalJson, evalText } from './eval/format.ts';
import { writeEvalResults } from '../../store/classifier-eval-file.ts';
import { confusionChartSpec } from '../../report/confusion-chart.ts';
import { renderChart } from '../../report/index.ts';
import { DEFAULT_TRAIN_OPTIONS, trainLinearRows } from './train/train.ts';
import { trainMlpRows } from './train/mlp.ts';
import { FEATURE_SETS, SELECT_MLP_TRAIN, SELECT_TRAIN } from './train/select.ts';
import { readZhQuestions, ZH_DATASET } from './train/zh-questions.ts';
import { sparseRow } from '../../classify/onnx/features.ts';
import { writeModel } from './train/export.ts';
import type { Classification } from '../../classify/result.ts';
import { calibrateClassifierCommand } from './calibrate/commands.ts';
import { tableCommand } from './eval/table-command.ts';

function datasetName(name: string, flag: string): DatasetName {
  if (!(DATASET_NAMES as readonly string[]).includes(name))
    throw new InputError(`unknown dataset "${name}"; known: ${DATASET_NAMES.join(', ')}`, flag);
  return name as DatasetName;
}

async function datasetQuestions(name: string, flag: string, dataDir: string | undefined): Promise<LabelledQuestion[]> {
  const { questions } = await loadQuestions({ name: datasetName(name, flag) }, resolveDataDir({ flag: dataDir }));
  const labelled = labelledQuestions(questions);
  if (questions.length > 0 && labelled.length === 0) {
    throw new InputError(
      `none of ${name}'s ${questions.length} questions has one of the five AdaptMR types (they are reported as "${questions[0]!.gold.reportAs}"); a classifier cannot be trained or scored on it`,
      flag,
    );
  }
  return labelled;
}

function parseOptions(text: string | undefined): Record<string, unknown> {
  if (text === undefined) return {};
  try {
    const v: unknown = JSON.parse(text);
    if (v && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch {
    // reported below with the flag name
  }
  throw new InputError('must be a JSON object, e.g. \'{"defaultType":"factual"}\'', '--options');
}

/** An LLM provider from flags, for the llm and rules+llm classifiers (the OpenAI SDK's env vars apply otherwise). */
function llmFromFlags(argv: {
  'base-url'?: string | undefined;
  'llm-model'?: string | undefined;
}): LlmProvider | undefined {
  if (!argv['llm-model']) return undefined;
  return createLlmProvider({
    roles: { classifier: { model: argv['llm-model'], ...(argv['base-url'] ? { baseURL: argv['base-url'] } : {}) } },
  });
}

const llmOptions = <T>(y: Argv<T>) =>
  y
    .option('llm-model', { type: 'string', describe: 'model for the llm / rules+llm classifiers (role "classifier")' })
    .option('base-url', {
      type: 'string',
      describe: 'OpenAI-compatible endpoint for --llm-model (default OPENAI_BASE_URL)',
    });

async function readStdinLines(): Promise<string[]> {
  if (process.stdin.isTTY) return [];
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString('utf8')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l.length > 0);
}

interface ClassifyArgs {
  questions: string[] | undefined;
  classifier: string;
  model: string | undefined;
  options: string | undefined;
  json: boolean;
  'llm-model': string | undefined;
  'base-url': string | undefined;
}

export const classifyCommand: CommandModule<object, ClassifyArgs> = {
  command: 'classify [questions..]',
  describe: 'Classify questions (arguments, or one per line on stdin) into AdaptMR types with probabilities',
  builder: (y) =>
    llmOptions(
      y
        .positional('questions', { type: 'string', array: true, describe: 'questions; none = read stdin' })
        .option('classifier', {
          type: 'string',
          demandOption: true,
          describe: `one of ${classifiers.names().join(', ')}`,
        })
        .option('model', { type: 'string', describe: 'onnx: model file or Hugging Face folder' })
        .option('options', { type: 'string', describe: 'classifier options as JSON' })
        .option('json', { type: 'boolean', default: false, describe: 'print a JSON array in input order' }),
    ) as unknown as Argv<ClassifyArgs>,
  handler: async (argv) => {
    if (argv.classifier === ORACLE_NAME)
      throw new InputError(
        `${ORACLE_LABEL} needs gold labels; use \`adaptmr classifier eval --classifier oracle\``,
        '--classifier',
      );
    const texts = argv.questions?.length ? argv.questions : await readStdinLines();
    if (texts.length === 0) throw new InputError('no questions: pass them as arguments or one per line on stdin');
    const options = { ...parseOptions(argv.options), ...(argv.model !== undefined ? { model: argv.model } : {}) };
    const llm = llmFromFlags(argv);
    const clf: Classifier = await classifiers.create(argv.classifier, options, {}, '--classifier');
    const results: (Classification & { question: string })[] = [];
    let i = 0;
    for (const text of texts) {
      const r = (await clf.classify(
        { id: `q${++i}`, text, askedAt: new Date().toISOString() },
        { seed: i, calls: [], ...(llm ? { llm } : {}) },
      )) as Classification;
      results.push({ question: text, ...r });
    }
    if (argv.json) {
      console.log(JSON.stringify(results, null, 2));
      return;
    }
    for (const r of results) {
      const probs = Object.entries(r.probs)
        .map(([t, p]) => `${t} ${p.toFixed(3)}`)
        .join('  ');
      console.log(`${r.type}\t${probs}\t[${r.source}]\t${r.question}`);
    }
  },
};

interface TrainArgs {
  dataset: string;
  out: string;
  seed: number;
  epochs: number | undefined;
  features?: string;
  hidden?: number;
  l2?: number | undefined;
  split?: 'all' | 'calibration';
  fraction?: number;
  'data-dir': string | undefined;
}

export const trainCommand: CommandModule<object, TrainArgs> = {
  command: 'train',
  describe: 'Train the hashed-feature softmax model (or MLP) on whole datasets and export it as ONNX',
  builder: (y) =>
    y
      .option('dataset', {
        type: 'string',
        demandOption: true,
        describe: `${DATASET_NAMES.join(', ')}, or ${ZH_DATASET}; several comma-separated are pooled`,
      })
      .option('out', { type: 'string', demandOption: true, describe: 'model file to write (.onnx)' })
      .option('seed', intFlag('seed', 0, { default: 42 }))
      .option('features', {
        type: 'string',
        default: 'ngrams',
        describe: `feature set: ${Object.keys(FEATURE_SETS).join(', ')} (wv = the offline wink SIF sentence vector)`,
      })
      .option('hidden', intFlag('hidden', 0, { default: 0, describe: 'hidden units of an MLP; 0 = linear softmax' }))
      .option('l2', numberFlag('l2', 0, 1e6, { describe: 'L2 penalty (default 3e-3 for ngrams, else 1e-3)' }))
      .option(
        'epochs',
        intFlag('epochs', 1, { describe: 'default 30 (ngrams, dense Adam), else 15 (lazy Adam, as the table)' }),
      )
      .option('split', {
        choices: ['all', 'calibration'] as const,
        default: 'all' as const,
        describe:
          'calibration: train on the seeded calibration split of each dataset only (the split `adaptmr calibrate` uses with the same --seed and --fraction); the model names those questions, and a run leaves them out',
      })
      .option(
        'fraction',
        numberFlag('fraction', 0, 1, { default: 0.3, describe: 'with --split calibration: share of each type' }),
      )
      .option('data-dir', {
        type: 'string',
        describe: 'data directory (default ADAPTMR_DATA_DIR, then ./datasets)',
      }) as unknown as Argv<TrainArgs>,
  handler: async (argv) => {
    const features = argv.features ?? 'ngrams';
    const hidden = argv.hidden ?? 0;
    const spec = FEATURE_SETS[features];
    if (!spec)
      throw new InputError(
        `unknown feature set "${features}"; known: ${Object.keys(FEATURE_SETS).join(', ')}`,
        '--features',
      );
    if (!Number.isInteger(hidden) || hidden < 0) throw new InputError('must be an integer ≥ 0', '--hidden');
    const names = argv.dataset
      .split(',')
      .map((n) => n.trim())
      .filter((n) => n !== '');
    const split = argv.split ?? 'all';
    const fraction = argv.fraction ?? 0.3;
    if (split === 'calibration' && !(fraction > 0 && fraction < 1))
      throw new InputError('must be between 0 and 1', '--fraction');
    const questions: LabelledQuestion[] = [];
    for (const n of names) {
      const all = n === ZH_DATASET ? readZhQuestions() : await datasetQuestions(n, '--dataset', argv['data-dir']);
      if (split === 'all') questions.push(...all);
      else {
        const ids = new Set(
          calibrationSplit(
            all.map((q) => ({ questionId: q.query.id, adaptType: q.gold })),
            fraction,
            argv.seed,
          ),
        );
        questions.push(...all.filter((q) => ids.has(q.query.id)));
      }
    }
    if (questions.length === 0)
      throw new InputError('no question with one of the five AdaptMR types to train on', '--dataset');
    const rows = questions.map((q) => sparseRow(q.query.text, spec));
    const golds = questions.map((q) => q.gold);
    const l2 = argv.l2 ?? (features === 'ngrams' && hidden === 0 ? DEFAULT_TRAIN_OPTIONS.l2 : 1e-3);
    const model =
      hidden > 0
        ? trainMlpRows(rows, golds, {
            ...SELECT_MLP_TRAIN,
            spec,
            l2,
            seed: argv.seed,
            hidden,
            ...(argv.epochs !== undefined ? { epochs: argv.epochs } : {}),
          })
        : features === 'ngrams'
          ? trainLinearRows(rows, golds, {
              spec,
              l2,
              seed: argv.seed,
              epochs: argv.epochs ?? DEFAULT_TRAIN_OPTIONS.epochs,
            })
          : trainLinearRows(rows, golds, {
              ...SELECT_TRAIN,
              spec,
              l2,
              seed: argv.seed,
              ...(argv.epochs !== undefined ? { epochs: argv.epochs } : {}),
            });
    if (split === 'calibration') model.trainingIds = questions.map((q) => q.query.id).sort(compareIds);
    await mkdir(resolve(argv.out, '..'), { recursive: true });
    await writeModel(model, argv.out);
    const what =
      split === 'calibration'
        ? `the ${fraction} calibration split (seed ${argv.seed}; a run leaves these questions out) of `
        : '';
    console.log(
      `trained on ${questions.length} questions of ${what}${names.join(' + ')} (${features}${hidden > 0 ? `, MLP ${hidden}` : ''}); wrote ${argv.out}`,
    );
  },
};

interface EvalArgs extends ClassifyArgs {
  dataset: string;
  folds: number | undefined;
  'train-dataset': string | undefined;
  out: string;
  'chart-dir': string | undefined;
  seed: number;
  'data-dir': string | undefined;
}

export const evalCommand: CommandModule<object, EvalArgs> = {
  command: 'eval',
  describe: 'Score a classifier on a dataset: accuracy, macro-F1, per-type P/R/F1, confusion (DuckDB + heatmap)',
  builder: (y) =>
    llmOptions(
      y
        .option('classifier', {
          type: 'string',
          demandOption: true,
          describe: `${classifiers.names().join(', ')}, or oracle (gold type)`,
        })
        .option('dataset', { type: 'string', demandOption: true, describe: DATASET_NAMES.join(', ') })
        .option('folds', intFlag('folds', 2, { describe: 'onnx: k-fold cross-validation (stratified, seeded)' }))
        .option('train-dataset', { type: 'string', describe: 'onnx: train on this dataset, test on --dataset' })
        .option('model', { type: 'string', describe: 'onnx: evaluate this trained file / Hugging Face folder' })
        .option('options', { type: 'string', describe: 'classifier options as JSON' })
        .option('seed', intFlag('seed', 0, { default: 42 }))
        .option('out', {
          type: 'string',
          default: 'results/classifier-eval.duckdb',
          describe: 'DuckDB file to append to',
        })
        .option('chart-dir', { type: 'string', describe: 'heatmap folder (default: <out dir>/charts)' })
        .option('data-dir', { type: 'string' })
        .option('json', { type: 'boolean', default: false }),
    ) as unknown as Argv<EvalArgs>,
  handler: async (argv) => {
    const questions = await datasetQuestions(argv.dataset, '--dataset', argv['data-dir']);
    const trainQuestions = argv['train-dataset']
      ? await datasetQuestions(argv['train-dataset'], '--train-dataset', argv['data-dir'])
      : undefined;
    const options = { ...parseOptions(argv.options), ...(argv.model !== undefined ? { model: argv.model } : {}) };
    const provider = llmFromFlags(argv);
    const result = await evaluateClassifier({
      classifier: argv.classifier,
      options,
      questions,
      seed: argv.seed,
      ...(argv.folds !== undefined ? { folds: argv.folds } : {}),
      ...(trainQuestions ? { trainQuestions } : {}),
      ...(provider ? { llm: { provider } } : {}),
    });
    await writeEvalResults(argv.out, [result]);
    const chartDir = argv['chart-dir'] ?? join(resolve(argv.out, '..'), 'charts');
    const base = join(
      chartDir,
      `classifier-${[result.classifier, result.dataset, result.protocol, result.trainDataset ?? result.folds ?? ''].join('-').replace(/[^A-Za-z0-9_.+-]+/g, '_')}`,
    );
    const chart = await renderChart(confusionChartSpec(result), base);
    const files = [chart.svgPath, chart.pngPath];
    if (argv.json) {
      console.log(JSON.stringify(evalJson(result), null, 2));
      return;
    }
    console.log(evalText(result));
    console.log(`stored in ${argv.out}; heatmap ${files.join(', ')}`);
  },
};

export const classifierCommand: CommandModule<object, object> = {
  command: 'classifier <command>',
  describe: 'Train and evaluate query-type classifiers',
  builder: (y) =>
    y
      .command(trainCommand as unknown as CommandModule<object, object>)
      .command(evalCommand as unknown as CommandModule<object, object>)
      .command(calibrateClassifierCommand as unknown as CommandModule<object, object>)
      .command(tableCommand as unknown as CommandModule<object, object>)
      .demandCommand(1),
  handler: () => undefined,
};
