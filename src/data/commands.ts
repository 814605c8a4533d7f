/**
 * CLI: `adaptmr data info --dataset <name> [--json] [--verbose]` (counts by type, data defects found) and
 * `adaptmr data pull <name> [--revision r] [--hub-url u] [--github-url u] [--force]` (download, pin, verify). `locomo-audit`
 * is not a dataset of questions but the LoCoMo audit's errata, probes and baseline runs (locomo-audit.ts), pulled the
 * same way.
 */
import Table from 'cli-table3';
import type { CommandModule } from 'yargs';
import { benchmarkNamed, datasetNames, pathFormats } from '../core/benchmarks-installed.ts';
import type { DatasetName, DatasetRef } from '../core/config.ts';
import { InputError } from '../core/errors.ts';
import { formatIssue, type DataIssue } from './issues.ts';
import { readInstances } from './load.ts';
import { pullDataset } from './pull.ts';
import { LOCOMO_AUDIT_DIR, pullLocomoAudit } from './locomo-audit.ts';
import { verifySource } from './lock-check.ts';
import { resolveDataDir, resolveDataset } from './source.ts';
import { Summarizer } from './summary.ts';

interface InfoArgs {
  dataset: string | undefined;
  path: string | undefined;
  format: string | undefined;
  'data-dir': string | undefined;
  json: boolean;
  verbose: boolean;
}

interface PullArgs {
  name: DatasetName | typeof LOCOMO_AUDIT_DIR;
  revision: string | undefined;
  'data-dir': string | undefined;
  'hub-url': string | undefined;
  'locomo-url': string | undefined;
  'github-url': string | undefined;
  force: boolean;
}

function infoRef(argv: InfoArgs): DatasetRef {
  if (argv.path !== undefined) {
    if (!argv.format) throw new InputError(`--path needs --format ${pathFormats().join('|')}`);
    return { format: argv.format, path: argv.path, ...(argv.dataset !== undefined ? { name: argv.dataset } : {}) };
  }
  if (argv.dataset === undefined)
    throw new InputError(`give --dataset (${datasetNames().join(', ')}) or --path with --format`);
  if (!datasetNames().includes(argv.dataset)) {
    throw new InputError(
      `unknown dataset "${argv.dataset}"; known: ${datasetNames().join(', ')} (or use --path with --format)`,
    );
  }
  return { name: argv.dataset as DatasetName };
}

export const dataInfoCommand: CommandModule<object, InfoArgs> = {
  command: 'info',
  describe: 'Count questions, sessions and turns by type, and list the data defects repaired or dropped',
  builder: (y) =>
    y
      .option('dataset', {
        type: 'string',
        describe: `dataset name (${datasetNames().join(', ')}); with --path, the name shown`,
      })
      .option('path', {
        type: 'string',
        describe: 'a file or folder in a benchmark format (--format) instead of a named dataset',
      })
      .option('format', { choices: pathFormats(), describe: 'format of --path' })
      .option('data-dir', { type: 'string', describe: 'data directory (default: ADAPTMR_DATA_DIR, then ./datasets)' })
      .option('json', { type: 'boolean', default: false, describe: 'print the summary as JSON only' })
      .option('verbose', { type: 'boolean', default: false, describe: 'list every data issue' }),
  handler: async (argv) => {
    const dataDir = resolveDataDir({ flag: argv['data-dir'] });
    // Counted as the questions stream by, so memory stays flat whatever the file size (LongMemEval M is ~2.7 GB).
    const source = resolveDataset(infoRef(argv), dataDir);
    await verifySource(source);
    const issues: DataIssue[] = [];
    const summary = new Summarizer(source.name);
    for await (const inst of readInstances(source, { issues })) {
      if (!summary.add(inst)) throw new InputError(`question id "${inst.query.id}" appears twice`, source.path);
    }
    const info = summary.result();
    const counts = { repaired: 0, dropped: 0, kept: 0 };
    for (const i of issues) counts[i.action]++;
    const issueLine = `data issues: ${issues.length} (${counts.repaired} repaired, ${counts.dropped} dropped, ${counts.kept} kept)`;
    if (argv.json) {
      console.log(JSON.stringify(info, null, 2));
      if (issues.length > 0) console.error(issueLine);
      if (argv.verbose) for (const i of issues) console.error(formatIssue(i));
      return;
    }
    console.log(`${info.dataset}  (${source.kind} ${source.path})`);
    const totals = new Table({
      head: ['questions', ...unitNames(source.format), 'abstention'],
      style: { head: [], border: [] },
    });
    totals.push([info.questions, info.sessions, info.turns, info.abstention]);
    console.log(totals.toString());
    const byType = new Table({ head: ['native type', 'n'], style: { head: [], border: [] } });
    for (const [k, v] of Object.entries(info.byNativeType)) byType.push([k, v]);
    const byAdapt = new Table({ head: ['AdaptMR type', 'n'], style: { head: [], border: [] } });
    for (const [k, v] of Object.entries(info.byAdaptType)) byAdapt.push([k, v ?? 0]);
    console.log(byType.toString());
    console.log(byAdapt.toString());
    console.log(issueLine + (issues.length > 0 && !argv.verbose ? ' — --verbose lists them' : ''));
    if (argv.verbose) for (const i of issues) console.log(`  ${formatIssue(i)}`);
  },
};

export const dataPullCommand: CommandModule<object, PullArgs> = {
  command: 'pull <name>',
  describe: 'Download a dataset into the data directory (pinned revision, sha256 recorded in adaptmr-data.lock.json)',
  builder: (y) =>
    y
      .positional('name', {
        choices: [...datasetNames(), LOCOMO_AUDIT_DIR] as const,
        demandOption: true,
        describe: 'dataset to download (locomo-audit: LoCoMo errata, probes, baselines)',
      })
      .option('revision', {
        type: 'string',
        describe: 'LongMemEval: HF branch, tag or commit (default main; resolved to a commit)',
      })
      .option('data-dir', { type: 'string', describe: 'data directory (default: ADAPTMR_DATA_DIR, then ./datasets)' })
      .option('hub-url', {
        type: 'string',
        describe: 'Hugging Face endpoint (default: ADAPTMR_HF_ENDPOINT, then https://huggingface.co)',
      })
      .option('locomo-url', {
        type: 'string',
        describe: 'base of the LoCoMo raw URL (default: ADAPTMR_LOCOMO_URL, then https://raw.githubusercontent.com)',
      })
      .option('github-url', {
        type: 'string',
        describe:
          'base of the raw URLs of pinned GitHub files (default: ADAPTMR_GITHUB_RAW_URL, then https://raw.githubusercontent.com)',
      })
      .option('force', { type: 'boolean', default: false, describe: 'download even when a verified copy is present' }),
  handler: async (argv) => {
    if (argv.name === LOCOMO_AUDIT_DIR) {
      if (argv.revision !== undefined)
        throw new InputError(
          "locomo-audit is pinned to one commit (its files' sha256 are checked); --revision does not apply",
        );
      const audit = await pullLocomoAudit({
        dataDir: resolveDataDir({ flag: argv['data-dir'] }),
        baseUrl: argv['locomo-url'],
        force: argv.force,
        log: (line) => console.error(line),
      });
      console.log(
        `locomo-audit: ${audit.downloaded.length} downloaded, ${audit.present.length} already present and verified → ${audit.dir}`,
      );
      return;
    }
    const result = await pullDataset(argv.name, {
      dataDir: resolveDataDir({ flag: argv['data-dir'] }),
      revision: argv.revision,
      hubUrl: argv['hub-url'],
      locomoBaseUrl: argv['locomo-url'],
      githubBaseUrl: argv['github-url'],
      force: argv.force,
      log: (line) => console.error(line),
    });
    console.log(
      `${result.dataset}: ${result.status === 'present' ? 'already present and verified' : 'downloaded'} → ${result.path}`,
    );
  },
};

export const dataCommand: CommandModule<object, object> = {
  command: 'data <command>',
  describe: 'Dataset tools: info, pull',
  builder: (y) =>
    y
      .command(dataInfoCommand as unknown as CommandModule<object, object>)
      .command(dataPullCommand as unknown as CommandModule<object, object>)
      .demandCommand(1, 'Name a data command: info or pull.'),
  handler: () => undefined,
};

/**
 * What a dataset's sessions and turns are called in its own terms (`BenchmarkReader.unitNames`); the JSON summary
 * keeps the keys `sessions` and `turns`.
 */
export function unitNames(format: string): [string, string] {
  const named = benchmarkNamed(format)?.reader.unitNames;
  return named ? [named[0], named[1]] : ['sessions', 'turns'];
}
