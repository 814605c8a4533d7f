/**
 * CLI: `adaptmr calibrate --dataset <name> [--embedder wink-sif] [--fraction 0.3] [--seed 42] [--out file]`: picks the
 * abstention thresholds for the embedder on a seeded, stratified calibration split (calibrate.ts) and writes them,
 * keyed by embedder id, with the calibration question ids the evaluation must exclude.
 */
import { intFlag, numberFlag } from '../../core/cli-options.ts';
import { existsSync } from 'node:fs';
import type { CommandModule } from 'yargs';
import { datasetNames } from '../../core/benchmarks-installed.ts';
import type { DatasetName } from '../../core/config.ts';
import { InputError } from '../../core/errors.ts';
import { GRANULARITIES, type Granularity } from '../../core/types.ts';
import { loadDataset, readCatalog, resolveDataDir, resolveDataset } from '../../data/index.ts';
import { embedders } from '../../index/embedders/registry.ts';
import { readThresholdsFile } from '../../strategies/thresholds.ts';
import { calibrate, calibrationSplit, mergeThresholds } from './calibrate.ts';
import { writeFileAtomic } from '../../core/atomic-write.ts';

interface CalibrateArgs {
  dataset: string;
  'data-dir': string | undefined;
  embedder: string;
  'embedder-options': string | undefined;
  granularity: Granularity;
  roles: string;
  fraction: number;
  seed: number;
  out: string;
}

export const calibrateCommand: CommandModule<object, CalibrateArgs> = {
  command: 'calibrate',
  describe:
    'Pick abstention thresholds (θ_high/θ_low) per embedder on a calibration split the evaluation then excludes',
  builder: (y) =>
    y
      .option('dataset', { type: 'string', demandOption: true, describe: `dataset (${datasetNames().join(', ')})` })
      .option('data-dir', { type: 'string', describe: 'data directory (default: ADAPTMR_DATA_DIR, then ./datasets)' })
      .option('embedder', { type: 'string', default: 'wink-sif', describe: 'embedder registry name' })
      .option('embedder-options', { type: 'string', describe: 'embedder options as JSON' })
      .option('granularity', { choices: GRANULARITIES, default: 'session' as Granularity })
      .option('roles', { type: 'string', default: 'user,assistant', describe: 'roles indexed, comma-separated' })
      .option(
        'fraction',
        numberFlag('fraction', 0, 1, { default: 0.3, describe: 'share of each type used for calibration' }),
      )
      .option('seed', intFlag('seed', 0, { default: 42 }))
      .option('out', {
        type: 'string',
        default: 'calibration/abstention-thresholds.json',
        describe: 'thresholds file (merged if it exists)',
      }),
  handler: async (argv) => {
    if (!datasetNames().includes(argv.dataset))
      throw new InputError(`unknown dataset "${argv.dataset}"; known: ${datasetNames().join(', ')}`, '--dataset');
    if (!(argv.fraction > 0 && argv.fraction < 1)) throw new InputError('must be between 0 and 1', '--fraction');
    const roles = argv.roles.split(',').map((r) => r.trim());
    if (roles.length === 0 || roles.some((r) => r !== 'user' && r !== 'assistant'))
      throw new InputError('roles are user and/or assistant', '--roles');
    const dataDir = resolveDataDir({ flag: argv['data-dir'] });
    const ref = { name: argv.dataset as DatasetName };
    const ids = calibrationSplit(await readCatalog(resolveDataset(ref, dataDir)), argv.fraction, argv.seed);
    const { instances } = await loadDataset({ ...ref, questionIds: ids }, dataDir);
    let embedderOptions: unknown = {};
    if (argv['embedder-options']) {
      try {
        embedderOptions = JSON.parse(argv['embedder-options']);
      } catch {
        throw new InputError('not valid JSON', '--embedder-options');
      }
    }
    const embedder = await embedders.create(argv.embedder, embedderOptions, {}, '--embedder');
    const { entry } = await calibrate({
      dataset: argv.dataset,
      instances,
      embedder,
      spec: { granularity: argv.granularity, roles: roles as ('user' | 'assistant')[], includeCaptions: true },
      seed: argv.seed,
      fraction: argv.fraction,
    });
    const existing = existsSync(argv.out) ? readThresholdsFile(argv.out) : undefined;
    writeFileAtomic(argv.out, `${JSON.stringify(mergeThresholds(existing, embedder.id, entry), null, 2)}\n`);
    process.stdout.write(
      `${embedder.id}: θ_high=${entry.high.toFixed(4)} θ_low=${entry.low.toFixed(4)} from ${entry.nCalibration} questions ` +
        `(${entry.nAbstention} abstention) → ${argv.out}; exclude its ${entry.calibrationQuestionIds.length} calibration ids from evaluation\n`,
    );
  },
};
