/**
 * CLI command `adaptmr report <file.duckdb> [--out dir] [--level session|turn] [--k 5 10] [--metric recall_any]`:
 * prints the per-type tables and writes charts/recall-by-type.{vl.json,svg,png}; with QA rows also the QA tables,
 * the latency/tokens/cost table and charts/accuracy-by-type.{vl.json,svg,png}. `--html <page>` writes the
 * self-contained HTML report instead (html/html-report.ts; `--data-dir` says where the datasets are, for the drill-down's
 * unit text); `--summary` the findings the quick start prints, `--verdicts` every verdict (summary.ts).
 */
import { intListFlag } from '../core/cli-options.ts';
import type { CommandModule } from 'yargs';
import { REPORT_DEFAULTS, runReport } from './report.ts';

interface ReportArgs {
  file: string;
  out: string | undefined;
  level: string;
  k: number[];
  metric: string;
  html: string | undefined;
  'data-dir': string | undefined;
  summary: boolean;
  verdicts: boolean;
}

export const reportCommand: CommandModule<object, ReportArgs> = {
  command: 'report <file>',
  describe: 'Per-type recall and QA tables, latency/tokens/cost, and charts of a results file',
  builder: (y) =>
    y
      .positional('file', { type: 'string', demandOption: true, describe: 'results .duckdb file (opened read-only)' })
      .option('out', { type: 'string', describe: 'output folder for charts/ (default: the results file folder)' })
      .option('level', { choices: ['session', 'turn'], default: REPORT_DEFAULTS.level })
      .option(
        'k',
        intListFlag('k', 1, { default: [...REPORT_DEFAULTS.ks], describe: 'cutoffs; the chart uses the first' }),
      )
      .option('metric', {
        type: 'string',
        default: REPORT_DEFAULTS.metric,
        describe: 'retrieval metric id (recall_any, recall_all, ndcg_any…)',
      })
      .option('html', {
        type: 'string',
        describe: 'write one self-contained HTML page (charts, tables, per-question drill-down) instead',
      })
      .option('data-dir', {
        type: 'string',
        describe: "with --html: where the datasets are, to show the ranked units' text (default: as `adaptmr run`)",
      })
      .option('summary', {
        type: 'boolean',
        default: false,
        describe: 'print what the runs show: the stored findings, at most 30 lines per results file',
      })
      .option('verdicts', {
        type: 'boolean',
        default: false,
        describe:
          "print each dataset's headline table by type (with CIs), the oracle table, every stored verdict (one line each) and the Holm families",
      }),
  handler: async (argv) => {
    await (await import('./shard-guard.ts')).refuseShardFile(argv.file);
    if (argv.html) {
      const { writeHtmlReport } = await import('./html/html-report.ts');
      // As the terminal report: a writable open first brings an older file to this schema and its statistics up to
      // date (or says why not), so the read-only page never refuses a file the other reports read.
      const note = await (await import('./refresh.ts')).refreshFileStats(argv.file);
      if (note) console.error(note);
      const s = await writeHtmlReport(argv.file, argv.html, { dataDir: argv['data-dir'] });
      console.log(
        `html report: ${s.path} (${(s.bytes / 1e6).toFixed(1)} MB; charts: ${s.charts.join(', ') || 'none'}; ${s.questions} questions)`,
      );
      return;
    }
    if (argv.summary || argv.verdicts) {
      const { runSummary, runVerdicts } = await import('./summary.ts');
      console.log(await (argv.verdicts ? runVerdicts(argv.file) : runSummary(argv.file)));
      return;
    }
    const out = await runReport(argv.file, {
      metric: argv.metric,
      level: argv.level,
      ks: argv.k,
      ...(argv.out ? { outDir: argv.out } : {}),
    });
    console.log(out.text);
    for (const c of [out.chart, out.qaChart]) {
      if (c) console.log(`\nchart: ${c.pngPath}\n       ${c.svgPath}\n       ${c.specPath}`);
    }
  },
};
