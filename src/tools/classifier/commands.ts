/**
 * CLI: `adaptmr classify` (classify questions from arguments or stdin), `adaptmr classifier train` (train the
 * hashed ONNX model on a whole dataset), `adaptmr classifier eval` (score a classifier on a dataset; k-fold or
 * cross-dataset for the trainable model; DuckDB + heatmap) and `adaptmr classifier calibrate` (calibrate/commands.ts).
 */
import { intFlag, numberFlag } from '../../core/cli-options.ts';
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Argv, CommandModule } from 'yargs';
import { datasetNames } from '../../core/benchmarks-installed.ts';
import type { DatasetName } from '../../core/config.ts';
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
import { parseSourceList, trainingSources } from './train/combined.ts';
import { BALANCES, type Balance } from './train/balance.ts';
import { DEFAULT_RECIPE, recipeName, type Recipe } from './train/recipe.ts';
import { trainCombined } from './train/train-combined.ts';
import { crossBenchmarkEval } from './eval/cross-benchmark.ts';
import { crossBenchmarkText } from './eval/cross-benchmark-text.ts';
import { tableCommand } from './eval/table-command.ts';

function datasetName(name: string, flag: string): DatasetName {
  if (!datasetNames().includes(name))
    throw new InputError(`unknown dataset "${name}"; known: ${datasetNames().join(', ')}`, flag);
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
  dataset: string | undefined;
  datasets: string | undefined;
  balance: string | undefined;
  calibrate: boolean;
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
        describe: `${datasetNames().join(', ')}, or ${ZH_DATASET}; several comma-separated are pooled as they are`,
      })
      .option('datasets', {
        type: 'string',
        describe: `the combined training set (${trainingSources().join(', ')}; comma-separated): labelled by benchmark and language, deduplicated by question text, trained with the cross-benchmark recipe, calibrated on its benchmarks, its content hash in the model`,
      })
      .option('balance', {
        choices: BALANCES,
        describe: `with --datasets: example balancing (default ${DEFAULT_RECIPE.balance})`,
      })
      .option('calibrate', {
        type: 'boolean',
        default: true,
        describe: 'with --datasets: fit temperature and fallback threshold by inner leave-one-benchmark-out',
      })
      .check((a) => {
        if ((a.dataset === undefined) === (a.datasets === undefined)) throw new Error('give --dataset or --datasets');
        return true;
      })
      .option('out', { type: 'string', demandOption: true, describe: 'model file to write (.onnx)' })
      .option('seed', intFlag('seed', 0, { default: 42 }))
      .option('features', {
        type: 'string',
        describe: `feature set: ${Object.keys(FEATURE_SETS).join(', ')} (wv = the offline wink SIF sentence vector); default ngrams, with --datasets ${DEFAULT_RECIPE.features}`,
      })
      .option('hidden', intFlag('hidden', 0, { describe: 'hidden units of an MLP; 0 = linear softmax (default)' }))
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
    if (argv.datasets !== undefined) return trainCombinedCommand(argv);
    const features = argv.features ?? 'ngrams';
    const hidden = argv.hidden ?? 0;
    const spec = FEATURE_SETS[features];
    if (!spec)
      throw new InputError(
        `unknown feature set "${features}"; known: ${Object.keys(FEATURE_SETS).join(', ')}`,
        '--features',
      );
    if (!Number.isInteger(hidden) || hidden < 0) throw new InputError('must be an integer ≥ 0', '--hidden');
    const names = (argv.dataset ?? '')
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

async function trainCombinedCommand(argv: TrainArgs): Promise<void> {
  const names = parseSourceList(argv.datasets ?? '', '--datasets');
  const fraction = argv.fraction ?? 0.3;
  if (argv.split === 'calibration' && !(fraction > 0 && fraction < 1))
    throw new InputError('must be between 0 and 1', '--fraction');
  if (argv.features !== undefined && !FEATURE_SETS[argv.features])
    throw new InputError(
      `unknown feature set "${argv.features}"; known: ${Object.keys(FEATURE_SETS).join(', ')}`,
      '--features',
    );
  const recipe: Recipe = {
    ...DEFAULT_RECIPE,
    ...(argv.features !== undefined ? { features: argv.features } : {}),
    ...(argv.l2 !== undefined ? { l2: argv.l2 } : {}),
    ...(argv.balance !== undefined ? { balance: argv.balance as Balance } : {}),
    ...(argv.hidden ? { hidden: argv.hidden } : {}),
    ...(argv.epochs !== undefined ? { epochs: argv.epochs } : {}),
  };
  const r = await trainCombined({
    names,
    dataDir: argv['data-dir'],
    recipe,
    seed: argv.seed,
    calibrate: argv.calibrate,
    ...(argv.split === 'calibration' ? { split: { fraction, seed: argv.seed } } : {}),
  });
  if (r.set.questions.length === 0)
    throw new InputError('no question with one of the five AdaptMR types to train on', '--datasets');
  await mkdir(resolve(argv.out, '..'), { recursive: true });
  await writeModel(r.model, argv.out, r.metadata);
  const skipped = r.set.sources.filter((s) => s.typed === 0).map((s) => s.dataset);
  const what =
    argv.split === 'calibration'
      ? `the ${fraction} calibration split (seed ${argv.seed}; a run leaves these questions out) of `
      : '';
  console.log(
    `trained ${recipeName(recipe)} on ${r.set.questions.length} questions of ${what}(${r.set.sources.map((s) => `${s.dataset} ${s.typed - s.duplicates}`).join(', ')}; training set sha256 ${r.set.sha256})` +
      (skipped.length > 0 ? `; no question of ${skipped.join(', ')} has one of the five types` : '') +
      (argv.calibrate && r.calibration.heldOut.n === 0 ? '; not calibrated (too few questions)' : '') +
      (argv.calibrate && r.calibration.heldOut.n > 0
        ? `; temperature ${r.calibration.temperature.toFixed(3)}, fallback threshold ${r.calibration.fallbackThreshold} (inner ${r.calibration.inner} accuracy ${(100 * r.calibration.heldOut.accuracy).toFixed(1)}%)`
        : '') +
      `; wrote ${argv.out}`,
  );
}

interface EvalArgs extends ClassifyArgs {
  dataset: string | undefined;
  datasets: string | undefined;
  protocol: string | undefined;
  features: string | undefined;
  l2: number | undefined;
  balance: string | undefined;
  calibrate: boolean;
  'learning-curve': boolean;
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
        .option('dataset', { type: 'string', describe: datasetNames().join(', ') })
        .option('protocol', {
          choices: ['leave-one-benchmark-out', 'kfold'] as const,
          describe:
            'onnx with --datasets: leave-one-benchmark-out (train on every benchmark but one, test on it, for each), or kfold on --dataset with the other benchmarks in training (default when --folds is given)',
        })
        .option('datasets', {
          type: 'string',
          describe: `onnx: the combined training set (${trainingSources().join(', ')}), trained with the cross-benchmark recipe`,
        })
        .option('features', {
          type: 'string',
          describe: `with --datasets: feature set (default ${DEFAULT_RECIPE.features})`,
        })
        .option('l2', numberFlag('l2', 0, 1e6, { describe: `with --datasets: L2 (default ${DEFAULT_RECIPE.l2})` }))
        .option('balance', {
          choices: BALANCES,
          describe: `with --datasets: balancing (default ${DEFAULT_RECIPE.balance})`,
        })
        .option('calibrate', {
          type: 'boolean',
          default: true,
          describe:
            'with --datasets: calibrate each split on its training benchmarks (temperature, fallback threshold)',
        })
        .option('learning-curve', {
          type: 'boolean',
          default: true,
          describe: 'with leave-one-benchmark-out: accuracy at 10/25/50/75/100 % of the training items',
        })
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
    if (argv.datasets !== undefined || argv.protocol === 'leave-one-benchmark-out') return crossBenchmarkCommand(argv);
    if (argv.dataset === undefined) throw new InputError('give --dataset (or --datasets with --protocol)', '--dataset');
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

async function crossBenchmarkCommand(argv: EvalArgs): Promise<void> {
  if (argv.classifier !== 'onnx' || argv.model !== undefined)
    throw new InputError(
      '--datasets / --protocol train the onnx classifier: give --classifier onnx and no --model',
      '--classifier',
    );
  if (argv.datasets === undefined) throw new InputError('name the benchmarks to train and test on', '--datasets');
  const protocol = argv.protocol ?? (argv.folds !== undefined ? 'kfold' : undefined);
  if (protocol !== 'leave-one-benchmark-out' && protocol !== 'kfold')
    throw new InputError(
      'with --datasets give --protocol leave-one-benchmark-out, or --folds k with --dataset',
      '--protocol',
    );
  if (argv.features !== undefined && !FEATURE_SETS[argv.features])
    throw new InputError(
      `unknown feature set "${argv.features}"; known: ${Object.keys(FEATURE_SETS).join(', ')}`,
      '--features',
    );
  const recipe: Recipe = {
    ...DEFAULT_RECIPE,
    ...(argv.features !== undefined ? { features: argv.features } : {}),
    ...(argv.l2 !== undefined ? { l2: argv.l2 } : {}),
    ...(argv.balance !== undefined ? { balance: argv.balance as Balance } : {}),
  };
  const result = await crossBenchmarkEval({
    protocol,
    names: parseSourceList(argv.datasets, '--datasets'),
    ...(argv.dataset !== undefined ? { testDataset: datasetName(argv.dataset, '--dataset') } : {}),
    ...(argv.folds !== undefined ? { folds: argv.folds } : {}),
    recipe,
    seed: argv.seed,
    dataDir: argv['data-dir'],
    calibrate: argv.calibrate,
    learningCurve: argv['learning-curve'],
  });
  console.log(argv.json ? JSON.stringify(result, null, 2) : crossBenchmarkText(result));
}

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
