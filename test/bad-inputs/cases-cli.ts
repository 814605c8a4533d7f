/**
 * Corpus cases: command-line flags (numeric flags out of range or not numbers, unknown commands and flags), output
 * paths that cannot be written (under a regular file → ENOTDIR/EEXIST, under /sys → EACCES/EPERM even for root,
 * which ignores chmod), unwritable cache folders, and results files that are missing, not DuckDB, or not ours.
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { join } from 'node:path';
import { openResultStore } from '../../src/store/index.ts';
import { experimentYaml, lmeItem, pathDataset } from './fixtures.ts';
import { put, runArgs, type BadInputCase, type CaseContext } from './case.ts';

/** A valid tiny dataset and `exp.yaml` (BM25, or `methods` given). */
function validRun(methods?: string) {
  return (c: CaseContext): void => {
    const data = put(c, 'data.json', JSON.stringify([lmeItem('q1'), lmeItem('q2')]));
    put(c, 'exp.yaml', experimentYaml({ datasets: pathDataset(data), ...(methods ? { methods } : {}) }));
  };
}

/** A regular file to put paths under: anything below it fails with ENOTDIR (or EEXIST for mkdir -p). */
const FILE = 'a-file.txt';
const under = (c: CaseContext, rel: string): string => join(c.dir, FILE, rel);
const withFile =
  (more?: (c: CaseContext) => void | Promise<void>) =>
  async (c: CaseContext): Promise<void> => {
    put(c, FILE, 'a regular file');
    await more?.(c);
  };

/** An empty, valid results file (schema created by the store). */
async function resultsFile(c: CaseContext): Promise<void> {
  const store = await openResultStore(join(c.dir, 'results.duckdb'));
  await store.close();
}

/** A DuckDB file with the given SQL run in it. */
async function duckdbFile(c: CaseContext, sql: string): Promise<void> {
  const db = await DuckDBInstance.create(join(c.dir, 'other.duckdb'));
  const conn = await db.connect();
  await conn.run(sql);
  conn.closeSync();
  db.closeSync();
}

const usage = (flag: string, value: string): RegExp => new RegExp(`^${flag}: invalid value "${value}": expected `, 'u');

export const flagCases: BadInputCase[] = [
  {
    name: 'run --concurrency 0',
    area: 'flags',
    setup: validRun(),
    args: runArgs('--concurrency', '0'),
    exit: 2,
    first: usage('--concurrency', '0'),
  },
  {
    name: 'run --concurrency abc',
    area: 'flags',
    setup: validRun(),
    args: runArgs('--concurrency', 'abc'),
    exit: 2,
    first: usage('--concurrency', 'abc'),
  },
  {
    name: 'run --concurrency 1.5',
    area: 'flags',
    setup: validRun(),
    args: runArgs('--concurrency', '1.5'),
    exit: 2,
    first: usage('--concurrency', '1.5'),
  },
  {
    name: 'run --workers -1',
    area: 'flags',
    setup: validRun(),
    args: runArgs('--workers', '-1'),
    exit: 2,
    first: usage('--workers', '-1'),
  },
  {
    name: 'run --workers two',
    area: 'flags',
    setup: validRun(),
    args: runArgs('--workers', 'two'),
    exit: 2,
    first: usage('--workers', 'two'),
  },
  {
    name: 'sweep --concurrency 0',
    area: 'flags',
    args: () => ['sweep', 'sweep.yaml', '--concurrency', '0'],
    exit: 2,
    first: usage('--concurrency', '0'),
  },
  {
    name: 'sweep --plan 0',
    area: 'flags',
    args: () => ['sweep', 'sweep.yaml', '--plan', '0'],
    exit: 2,
    first: usage('--plan', '0'),
  },
  {
    name: 'sweep --shard 3/2',
    area: 'flags',
    setup: (c) => put(c, 'sweep.yaml', 'name: s\nbase: exp.yaml\nvary: {}\n'),
    args: () => ['sweep', 'sweep.yaml', '--shard', '3/2'],
    exit: 2,
    first: /^error: --shard: "3\/2" is not a shard/u,
  },
  {
    name: 'protocol-check notaurl',
    area: 'flags',
    args: () => ['protocol-check', 'notaurl'],
    exit: 2,
    first: /^error: protocol-check <url>: "notaurl" is not an http\(s\) URL/u,
  },
  {
    name: 'protocol-check --api-key-env naming an unset variable',
    area: 'flags',
    args: () => ['protocol-check', 'http://127.0.0.1:9', '--api-key-env', 'ADAPTMR_SURELY_UNSET_KEY'],
    exit: 2,
    first: /^error: environment variable ADAPTMR_SURELY_UNSET_KEY \(--api-key-env\) is not set/u,
  },
  {
    name: 'rejudge --judge without an id',
    area: 'flags',
    setup: resultsFile,
    args: () => ['rejudge', 'results.duckdb', '--judge', 'gpt-4o'],
    exit: 2,
    first: /^error: --judge: "gpt-4o" is not <id>:<model>\[:<prompt>\]/u,
  },
  {
    name: 'score-answers --format locomo-audit on a file that is not JSON',
    area: 'flags',
    setup: (c) => void put(c, 'eval_results.json', '{"total_questions": '),
    args: () => ['score-answers', '--format', 'locomo-audit', 'eval_results.json'],
    exit: 2,
    first: /^error: .*eval_results\.json: locomo-audit eval_results: not valid JSON/u,
  },
  {
    name: 'report -k 0',
    area: 'flags',
    setup: resultsFile,
    args: () => ['report', 'results.duckdb', '-k', '0'],
    exit: 2,
    first: usage('-k', '0'),
  },
  {
    name: 'report -k ten',
    area: 'flags',
    setup: resultsFile,
    args: () => ['report', 'results.duckdb', '-k', '5', 'ten'],
    exit: 2,
    first: usage('-k', 'ten'),
  },
  {
    name: 'analyze best-strategy --split 2',
    area: 'flags',
    setup: resultsFile,
    args: () => ['analyze', 'best-strategy', 'results.duckdb', '--split', '2'],
    exit: 2,
    first: usage('--split', '2'),
  },
  {
    name: 'score-answers --concurrency x',
    area: 'flags',
    args: () => ['score-answers', 'p.jsonl', '--concurrency', 'x'],
    exit: 2,
    first: usage('--concurrency', 'x'),
  },
  {
    name: 'misspelt command gets "did you mean"',
    area: 'flags',
    args: () => ['rnu', 'exp.yaml'],
    exit: 2,
    first: /^Unknown command: rnu\. Did you mean run\?$/u,
  },
  {
    name: 'unknown flag',
    area: 'flags',
    setup: validRun(),
    args: runArgs('--concurency', '2'),
    exit: 2,
    first: /^Unknown arguments?: concurency/u,
  },
];

export const pathCases: BadInputCase[] = [
  {
    name: 'run --out under a regular file',
    area: 'paths',
    setup: withFile(validRun()),
    args: (c) => ['run', 'exp.yaml', '--out', under(c, 'r.duckdb'), '--no-progress'],
    exit: 2,
    first:
      /^error: .*a-file\.txt: results folder is not writable \(exists and is not a folder \(EEXIST\)\); choose another --out$/u,
  },
  {
    name: 'run --out in a folder under a regular file',
    area: 'paths',
    setup: withFile(validRun()),
    args: (c) => ['run', 'exp.yaml', '--out', under(c, 'sub/r.duckdb'), '--no-progress'],
    exit: 2,
    first:
      /^error: .*a-file\.txt\/sub: results folder is not writable \(.*(ENOTDIR|EEXIST)\)\); choose another --out$/u,
  },
  {
    name: 'run --out in a read-only folder (/sys)',
    area: 'paths',
    setup: validRun(),
    args: () => ['run', 'exp.yaml', '--out', '/sys/adaptmr-results.duckdb', '--no-progress'],
    exit: 2,
    first: /^error: \/sys: results folder is not writable \(.*(EACCES|EPERM|EROFS)\)\); choose another --out$/u,
  },
  {
    name: 'report --out under a regular file',
    area: 'paths',
    setup: withFile(resultsFile),
    args: (c) => ['report', 'results.duckdb', '--out', under(c, 'rep')],
    exit: 2,
    first: /^error: .*a-file\.txt\/rep\/charts: charts folder is not writable \(.*ENOTDIR\)\)/u,
  },
  {
    name: 'report --out in a read-only folder (/sys)',
    area: 'paths',
    setup: resultsFile,
    args: () => ['report', 'results.duckdb', '--out', '/sys'],
    exit: 2,
    first: /^error: \/sys\/charts: charts folder is not writable/u,
  },
  {
    name: 'report --html in a read-only folder (/sys)',
    area: 'paths',
    setup: resultsFile,
    args: () => ['report', 'results.duckdb', '--html', '/sys/report.html'],
    exit: 2,
    first: /^error: \/sys: folder of the --html page is not writable/u,
  },
  {
    name: 'export --out under a regular file',
    area: 'paths',
    setup: withFile(resultsFile),
    args: (c) => ['export', 'results.duckdb', '--out', under(c, 'csv')],
    exit: 2,
    first: /^error: .*a-file\.txt\/csv: export folder is not writable \(.*ENOTDIR\)\)/u,
  },
  {
    name: 'export --out in a read-only folder (/sys)',
    area: 'paths',
    setup: resultsFile,
    args: () => ['export', 'results.duckdb', '--out', '/sys'],
    exit: 2,
    first: /^error: \/sys: export folder is not writable/u,
  },
  {
    name: 'ADAPTMR_CACHE_DIR under a regular file (embedding method)',
    area: 'paths',
    setup: withFile(validRun('  - { id: e, method: unified-embedding, k: 5 }')),
    args: runArgs(),
    env: (c) => ({ ADAPTMR_CACHE_DIR: under(c, 'cache') }),
    exit: 2,
    first:
      /^error: .*a-file\.txt\/cache: cache folder is not writable \(.*ENOTDIR\)\); set ADAPTMR_CACHE_DIR to a writable folder$/u,
  },
  {
    name: 'ADAPTMR_CACHE_DIR in a read-only folder (/sys)',
    area: 'paths',
    setup: validRun('  - { id: e, method: unified-embedding, k: 5 }'),
    args: runArgs(),
    env: () => ({ ADAPTMR_CACHE_DIR: '/sys/adaptmr-cache' }),
    exit: 2,
    first: /^error: \/sys\/adaptmr-cache: cache folder is not writable/u,
  },
  {
    name: 'LLM cache folder unwritable (llm.cache.dir under a file)',
    area: 'paths',
    setup: withFile((c) => {
      const data = put(c, 'data.json', JSON.stringify([lmeItem('q1')]));
      put(
        c,
        'exp.yaml',
        experimentYaml({
          datasets: pathDataset(data),
          extra: `llm: { cache: { dir: '${under(c, 'llm-cache')}' }, roles: { reader: { model: m, baseURL: 'http://127.0.0.1:9/v1' } } }\nqa: {}`,
        }),
      );
    }),
    args: runArgs(),
    exit: 2,
    first: /^error: .*a-file\.txt\/llm-cache: LLM cache folder is not writable .*set llm\.cache\.dir/u,
  },
];

export const resultsCases: BadInputCase[] = [
  {
    name: 'report of a results file that does not exist',
    area: 'results',
    args: () => ['report', 'nope.duckdb'],
    exit: 2,
    first: /^error: nope\.duckdb: results file not found$/u,
  },
  {
    name: 'export of a results file that does not exist',
    area: 'results',
    args: () => ['export', 'nope.duckdb'],
    exit: 2,
    first: /^error: nope\.duckdb: results file not found$/u,
  },
  {
    name: 'report of a file that is not DuckDB',
    area: 'results',
    setup: (c) => put(c, 'notes.duckdb', 'just text'),
    args: () => ['report', 'notes.duckdb'],
    exit: 2,
    first: /^error: notes\.duckdb: cannot open results file: .*not a valid DuckDB database file/u,
  },
  {
    name: 'report of a DuckDB file without our schema',
    area: 'results',
    setup: (c) => duckdbFile(c, 'CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1);'),
    args: () => ['report', 'other.duckdb'],
    exit: 2,
    first: /^error: other\.duckdb: not an AdaptMR results file \(no meta table\)$/u,
  },
  {
    name: 'report of a results file of a newer schema version',
    area: 'results',
    setup: (c) =>
      duckdbFile(
        c,
        "CREATE TABLE meta (key VARCHAR, value VARCHAR); INSERT INTO meta VALUES ('schema_version', '99');",
      ),
    args: () => ['report', 'other.duckdb'],
    exit: 2,
    first: /^error: other\.duckdb: results file has schema version 99, this harness reads version \d+/u,
  },
  {
    name: 'export of a DuckDB file without our schema',
    area: 'results',
    setup: (c) => duckdbFile(c, 'CREATE TABLE t (x INTEGER);'),
    args: () => ['export', 'other.duckdb', '--out', 'csv'],
    exit: 2,
    first: /^error: other\.duckdb: not an AdaptMR results file/u,
  },
  {
    name: 'run --out into a file that is not DuckDB',
    area: 'results',
    setup: async (c) => {
      await validRun()(c);
      put(c, 'text.duckdb', 'not a database');
    },
    args: () => ['run', 'exp.yaml', '--out', 'text.duckdb', '--no-progress'],
    exit: 2,
    first: /^error: text\.duckdb: cannot open results file: .*not a valid DuckDB database file/u,
  },
  {
    name: 'report of a folder',
    area: 'results',
    setup: (c) => put(c, 'folder.duckdb/x', ''),
    args: () => ['report', 'folder.duckdb'],
    exit: 2,
    first: /^error: folder\.duckdb: /u,
  },
];
