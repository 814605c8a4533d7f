/**
 * CLI: `adaptmr classifier calibrate --dataset <name> [--method matrix|temperature] [--fraction 0.3] [--seed 42]
 * [--out calibration/classifier-rules-<dataset>.json] [--chart-dir …] [--json]` — fits the rules classifier's
 * probability map on the calibration split (calibrate.ts), writes the file the `rules` classifier reads through
 * its `calibrationFile` option, prints held-out ECE / accuracy and fusion routes, and renders the reliability chart.
 */
import { intFlag, numberFlag } from '../../../core/cli-options.ts';
import { join, resolve } from 'node:path';
import type { Argv, CommandModule } from 'yargs';
import { datasetNames } from '../../../core/benchmarks-installed.ts';
import type { DatasetName } from '../../../core/config.ts';
import { InputError } from '../../../core/errors.ts';
import { loadQuestions, resolveDataDir } from '../../../data/index.ts';
import { reliabilityChartSpec } from '../../../report/reliability-chart.ts';
import { renderChart } from '../../../report/index.ts';
import { labelledQuestions } from '../eval/questions.ts';
import { calibrateRules, type CalibrationMethod, type CalibrationReport } from './calibrate.ts';
import { writeFileAtomic } from '../../../core/atomic-write.ts';

interface CalibrateArgs {
  dataset: string;
  method: CalibrationMethod;
  fraction: number;
  seed: number;
  out: string | undefined;
  'chart-dir': string | undefined;
  'data-dir': string | undefined;
  json: boolean;
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

export function reportText(r: CalibrationReport, out: string): string {
  const h = r.heldOut;
  const row = (name: string, a: { accuracy: number; ece: number; nll: number }) =>
    `  ${name.padEnd(12)} accuracy ${pct(a.accuracy)}  ECE ${a.ece.toFixed(4)}  NLL ${a.nll.toFixed(4)}`;
  const routes = (m: Record<string, number>) =>
    Object.entries(m)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
  return [
    `rules calibration on ${r.file.dataset}: ${r.file.params.method}, fitted on ${r.file.nCalibration} questions (seed ${r.file.seed}, fraction ${r.file.fraction}); held out ${h.n}:`,
    row('raw rules', h.raw),
    row('temperature', h.temperature),
    row('matrix', h.matrix),
    `  distinct probability vectors: raw ${r.distinctDistributions.raw}, calibrated ${r.distinctDistributions.calibrated}`,
    `  fusion routes (τ = 0.2), abstention routed — raw: ${routes(r.routes.route.raw)}`,
    `                                          calibrated: ${routes(r.routes.route.calibrated)}`,
    `  fusion routes, abstention gate — raw: ${routes(r.routes.gate.raw)}`,
    `                                 calibrated: ${routes(r.routes.gate.calibrated)}`,
    `wrote ${out}; use { name: rules, options: { calibrationFile: ${out} } } — its ${r.file.calibrationQuestionIds.length} calibration questions are excluded from evaluation`,
  ].join('\n');
}

export const calibrateClassifierCommand: CommandModule<object, CalibrateArgs> = {
  command: 'calibrate',
  describe: "Fit the rules classifier's probabilities on a calibration split (ECE, reliability chart, fusion routes)",
  builder: (y) =>
    y
      .option('dataset', { type: 'string', demandOption: true, describe: datasetNames().join(', ') })
      .option('method', {
        choices: ['matrix', 'temperature'] as const,
        default: 'matrix' as CalibrationMethod,
        describe: 'matrix scaling (Platt, multiclass) or temperature scaling',
      })
      .option(
        'fraction',
        numberFlag('fraction', 0, 1, { default: 0.3, describe: 'share of each type used for calibration' }),
      )
      .option('seed', intFlag('seed', 0, { default: 42 }))
      .option('out', {
        type: 'string',
        describe: 'calibration file (default calibration/classifier-rules-<dataset>.json)',
      })
      .option('chart-dir', { type: 'string', describe: 'reliability chart folder (default results/charts)' })
      .option('data-dir', { type: 'string' })
      .option('json', {
        type: 'boolean',
        default: false,
        describe: 'print the full report as JSON',
      }) as unknown as Argv<CalibrateArgs>,
  handler: async (argv) => {
    if (!datasetNames().includes(argv.dataset))
      throw new InputError(`unknown dataset "${argv.dataset}"; known: ${datasetNames().join(', ')}`, '--dataset');
    if (!(argv.fraction > 0 && argv.fraction < 1)) throw new InputError('must be between 0 and 1', '--fraction');
    const { questions } = await loadQuestions(
      { name: argv.dataset as DatasetName },
      resolveDataDir({ flag: argv['data-dir'] }),
    );
    const report = calibrateRules({
      dataset: argv.dataset,
      questions: labelledQuestions(questions),
      method: argv.method,
      seed: argv.seed,
      fraction: argv.fraction,
    });
    const out = argv.out ?? join('calibration', `classifier-rules-${argv.dataset}.json`);
    writeFileAtomic(resolve(out), `${JSON.stringify(report.file, null, 2)}\n`);
    const h = report.heldOut;
    const chart = await renderChart(
      reliabilityChartSpec(`rules classifier on ${argv.dataset}, ${h.n} held-out questions`, [
        { name: 'raw rules', ece: h.raw.ece, bins: h.raw.bins },
        { name: `calibrated (${argv.method})`, ece: h[argv.method].ece, bins: h[argv.method].bins },
      ]),
      join(argv['chart-dir'] ?? join('results', 'charts'), `reliability-rules-${argv.dataset}`),
    );
    if (argv.json) {
      console.log(JSON.stringify({ ...report, chart: [chart.svgPath, chart.pngPath] }, null, 2));
      return;
    }
    console.log(reportText(report, out));
    console.log(`reliability chart ${chart.svgPath}, ${chart.pngPath}`);
  },
};
