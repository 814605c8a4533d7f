/**
 * Corpus cases of the hostile round: inputs made by an attacker or by accident — credentials in endpoint URLs (the
 * password is the corpus's secret key, so the test's "no key in the output" check covers it), a results file beside
 * another file's write-ahead log, a bit-flipped results file, a merge whose output links to an input, replies
 * without end or not UTF-8, a dataset download cut off, a read-only cache, a model with NaN weights, terminal escape
 * sequences in stored text and a control character in a dataset name.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_FEATURE_SPEC } from '../../src/classify/onnx/features.ts';
import { fakeBatch } from '../../src/store/testing/fake-batch.ts';
import { openResultStore } from '../../src/store/index.ts';
import { writeLinearModel } from '../../src/tools/classifier/train/export.ts';
import { BILINGUAL_TRAIN } from '../../src/tools/classifier/train/testing/bilingual-train.ts';
import { trainLinear } from '../../src/tools/classifier/train/train.ts';
import { SECRET_KEY, experimentYaml, lmeItem, pathDataset } from './fixtures.ts';
import { put, runArgs, type BadInputCase, type CaseContext } from './case.ts';

const METHODS = ['bm25', 'dense', 'adaptmr'];

/** A results file of run "kill" holding questions [from, to), closed cleanly. */
async function results(c: CaseContext, name: string, from: number, to: number, dataset = 'fake'): Promise<string> {
  const file = join(c.dir, name);
  const store = await openResultStore(file);
  await store.upsertRun({
    runId: 'kill',
    name: 'kill',
    configJson: JSON.stringify({ name: 'kill', seed: 0, methods: METHODS.map((m) => ({ id: m, method: m })) }),
    configHash: 'h',
    gitCommit: null,
    gitDirty: null,
    packageVersions: {},
    datasetHashes: {},
    seed: 0,
    startedAt: '2026-01-01T00:00:00Z',
    status: 'done',
  });
  await Promise.all(
    Array.from({ length: to - from }, (_, i) => store.writeQuestion(fakeBatch('kill', from + i, METHODS, dataset))),
  );
  await store.close();
  return file;
}

/** The store's kill fixture writing into `file`, SIGKILLed after a few commits: its write-ahead log stays. */
function killedWriter(file: string): Promise<void> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(import.meta.dirname, '..', '..', 'src', 'store', 'kill-writer.fixture.ts'),
      file,
      '0',
      '1000',
    ],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  let lines = 0;
  child.stdout.on('data', (b: Buffer) => {
    lines += b.toString().split('\n').filter(Boolean).length;
    if (lines >= 4) child.kill('SIGKILL');
  });
  return new Promise((resolve) => child.on('close', () => resolve()));
}

/** `exp.yaml` with the openai embedder at `url` (start-up probe), extra embedder options given. */
function embedderAt(url: (c: CaseContext) => string, extra = '') {
  return (c: CaseContext): void => {
    const data = put(c, 'data.json', JSON.stringify([lmeItem('q1')]));
    put(
      c,
      'exp.yaml',
      experimentYaml({
        datasets: pathDataset(data),
        methods: '  - { id: e, method: unified-embedding, k: 5 }',
        extra: `embedder: { name: openai, options: { model: probe-me, baseURL: '${url(c)}', maxRetries: 1, timeoutMs: 5000, cache: false${extra} } }`,
      }),
    );
  };
}

const withPassword = (url: string): string => url.replace('http://', `http://proxy-user:${SECRET_KEY}@`);
const ESC = '\u001b';

export const hostileCases: BadInputCase[] = [
  {
    name: 'endpoint URL with a password: the proxy echoes its Basic header, nothing of it printed',
    area: 'api',
    server: 'echo-key-401',
    setup: embedderAt((c) => withPassword(c.url)),
    args: runArgs(),
    exit: 2,
    first:
      /^error: embeddings endpoint http:\/\/127\.0\.0\.1:\d+\/v1 \(model probe-me\) failed the start-up check: 401 invalid key: Basic \[redacted\]$/u,
  },
  {
    name: 'ADAPTMR_HF_ENDPOINT with a password: one line, the mirror URL without it',
    area: 'api',
    server: 'echo-key-401',
    args: () => ['data', 'pull', 'longmemeval-oracle', '--data-dir', 'data'],
    env: (c) => ({ ADAPTMR_HF_ENDPOINT: withPassword(c.url.replace(/\/v1$/u, '')) }),
    exit: 2,
    first: /^error: http:\/\/127\.0\.0\.1:\d+ xiaowu0162\/longmemeval-cleaned@main: cannot resolve revision/u,
  },
  {
    name: 'embedder reply that never ends: stopped at the cap',
    area: 'api',
    server: 'endless-body',
    setup: embedderAt((c) => c.url, ', maxReplyBytes: 65536'),
    args: runArgs(),
    exit: 2,
    first: /failed the start-up check: .*reply body exceeds the 65536-byte cap \(embedder option maxReplyBytes\)/u,
  },
  {
    name: 'embedder reply that is not UTF-8: the byte named, no replacement character',
    area: 'api',
    server: 'not-utf8',
    setup: embedderAt((c) => c.url),
    args: runArgs(),
    exit: 2,
    first: /failed the start-up check: .*reply body is not valid UTF-8 \(byte \d+\)/u,
  },
  {
    name: 'dataset download cut off midway: one line, no file kept',
    area: 'dataset',
    server: 'cut-body',
    args: (c) => ['data', 'pull', 'locomo', '--data-dir', 'data', '--locomo-url', c.url.replace(/\/v1$/u, '')],
    exit: 2,
    first: /^locomo: downloading http:\/\/127\.0\.0\.1:\d+\//u,
    errorLine:
      /^error: http:\/\/127\.0\.0\.1:\d+\/snap-research\/locomo\/.*locomo10\.json: download cut off after \d+ bytes .*run the pull again$/u,
  },
  {
    name: "results file copied over one whose run was killed (another file's write-ahead log beside it)",
    area: 'results',
    setup: async (c) => {
      const killed = join(c.dir, 'killed.duckdb');
      await killedWriter(killed);
      copyFileSync(await results(c, 'other.duckdb', 0, 5), join(c.dir, 'results.duckdb'));
      copyFileSync(`${killed}.wal`, join(c.dir, 'results.duckdb.wal'));
    },
    args: () => ['report', 'results.duckdb'],
    exit: 2,
    first:
      /^error: results\.duckdb: results\.duckdb\.wal is another database file's write-ahead log .*move results\.duckdb\.wal away .*rerun$/u,
  },
  {
    name: 'results file with a flipped bit in a data block',
    area: 'results',
    setup: async (c) => {
      const file = await results(c, 'results.duckdb', 0, 600);
      const bytes = readFileSync(file);
      // The last block holds table data (not the catalog): damaged, it is found when a query reads it.
      bytes[statSync(file).size - 262_144 + 4_321]! ^= 0xff;
      writeFileSync(file, bytes);
    },
    args: () => ['export', 'results.duckdb', '--out', 'csv'],
    exit: 2,
    first:
      /^error: results\.duckdb: the file is damaged \(Corrupt database file: .*\); restore it from a copy, or rerun the experiment into a new file$/u,
  },
  {
    name: 'merge --out that is a symlink to an input',
    area: 'results',
    setup: async (c) => {
      await results(c, 'a.duckdb', 0, 3);
      await results(c, 'b.duckdb', 3, 6);
      symlinkSync(join(c.dir, 'b.duckdb'), join(c.dir, 'out.duckdb'));
    },
    args: () => ['merge', 'a.duckdb', 'b.duckdb', '--out', 'out.duckdb'],
    exit: 2,
    first:
      /^error: b\.duckdb: an input is also the output of the merge \(--out out\.duckdb is a symlink to it\); merge into a new file$/u,
  },
  {
    name: 'LLM cache folder on a read-only file system: the message names llm.cache.mode: read-only',
    area: 'paths',
    setup: (c) => {
      const data = put(c, 'data.json', JSON.stringify([lmeItem('q1')]));
      put(
        c,
        'exp.yaml',
        experimentYaml({
          datasets: pathDataset(data),
          extra:
            "llm: { cache: { dir: '/sys/adaptmr-llm-cache' }, roles: { reader: { model: m, baseURL: 'http://127.0.0.1:9/v1' } } }\nqa: {}",
        }),
      );
    },
    args: runArgs(),
    exit: 2,
    first:
      /^error: \/sys\/adaptmr-llm-cache: LLM cache folder is not writable .*or set llm\.cache\.mode: read-only to use the replies it holds/u,
  },
  {
    name: 'classifier model whose weights hold NaN',
    area: 'model',
    setup: async (c) => {
      const model = trainLinear(BILINGUAL_TRAIN, {
        spec: { ...DEFAULT_FEATURE_SPEC, dim: 1 << 10 },
        epochs: 5,
        seed: 3,
      });
      model.weights[0] = Number.NaN;
      await writeLinearModel(model, join(c.dir, 'nan.onnx'));
    },
    args: () => ['classify', '--classifier', 'onnx', '--model', 'nan.onnx', '我现在住在哪里？'],
    exit: 2,
    first: /^error: nan\.onnx: weights hold NaN \(initializer W, element 0\); retrain the model or restore the file$/u,
  },
  {
    name: 'question id with terminal escape sequences: the error line carries none',
    area: 'results',
    setup: (c) => results(c, 'results.duckdb', 0, 2),
    args: () => ['explain', '--results', 'results.duckdb', '--question', `q9${ESC}]0;owned\u0007${ESC}[2J`],
    exit: 2,
    // eslint-disable-next-line no-control-regex
    first: /^error: [^\u0000-\u0008\u000b-\u001f\u007f-\u009f]*q9[^\u0000-\u0008\u000b-\u001f\u007f-\u009f]*$/u,
  },
  {
    name: 'dataset named with a control character: report and its charts render (handled)',
    area: 'results',
    setup: (c) => results(c, 'results.duckdb', 0, 6, `fa\u0001ke${ESC}[2J`),
    args: () => ['report', 'results.duckdb'],
    exit: 0,
    first: /^(stats: .*)?$/u,
  },
];
