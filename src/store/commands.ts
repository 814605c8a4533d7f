/**
 * CLI command `adaptmr export <file.duckdb> [--format csv|parquet] [--out dir] [--table name…]`: writes every table
 * and the scores_by_type view (or the named ones) beside the results file, in `<name>-export/` by default.
 */
import { basename, dirname, join } from 'node:path';
import type { CommandModule } from 'yargs';
import { EXPORTABLE, exportResults, type ExportFormat } from './export.ts';

interface ExportArgs {
  file: string;
  format: ExportFormat;
  out: string | undefined;
  table: string[] | undefined;
}

function defaultOutDir(file: string): string {
  return join(dirname(file), `${basename(file, '.duckdb')}-export`);
}

export const exportCommand: CommandModule<object, ExportArgs> = {
  command: 'export <file>',
  describe: 'Export a results file (tables + scores_by_type) to CSV or Parquet',
  builder: (y) =>
    y
      .positional('file', { type: 'string', demandOption: true, describe: 'results .duckdb file (opened read-only)' })
      .option('format', { choices: ['csv', 'parquet'] as const, default: 'csv' as ExportFormat })
      .option('out', { type: 'string', describe: 'output folder (default: <file>-export beside the file)' })
      .option('table', { type: 'string', array: true, describe: `tables to export: ${EXPORTABLE.join(', ')}` }),
  handler: async (argv) => {
    const written = await exportResults(argv.file, {
      format: argv.format,
      outDir: argv.out ?? defaultOutDir(argv.file),
      ...(argv.table ? { tables: argv.table } : {}),
    });
    for (const file of written) console.log(file);
  },
};
