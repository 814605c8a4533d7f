/**
 * Scale benchmark: builds a synthetic LongMemEval-M-shaped file from S in a temp dir (never committed, removed at
 * the end) — every S question keeps its own sessions and gets the sessions of the next `--factor − 1` questions as
 * extra filler (renamed ids, no answer labels), one JSON array file as M is published (~2.7 GB at factor 10) — then
 * measures, each as a fresh process: `adaptmr data info` on it, BM25 in the official configuration at session
 * granularity over it, `adaptmr classifier eval` (rules) on its questions, and `adaptmr explain` of its last question
 * (the file is read to the end), in that order: the run memoises the file's catalog (question ids and types), which
 * the later two reuse. Prints wall time and peak RSS: memory should not grow with the file. With `--official` and
 * OFFICIAL_LME_DIR set as for bench:retrieval, the official flat-bm25 pipeline runs once on the same file too and the
 * ratio is printed. It reads the whole file with `json.load`: on this 24 GB machine, at factor 10, it went past
 * 21 GB and had to be stopped, so each of its processes is capped at half the machine's memory (RLIMIT_AS) and a
 * run that hits the cap is reported as such.
 *
 *   npm run bench:scale                 # factor 10 (≈ M: ~500 sessions per question, ~2.7 GB)
 *   npm run bench:scale -- --factor 3   # smaller, quicker
 *   OFFICIAL_LME_DIR=~/LongMemEval npm run bench:scale -- --official   # + the official pipeline
 */
import {
  createWriteStream,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { once } from 'node:events';
import { tmpdir, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { loadAverage, runAdaptmr } from './bench-process.ts';
import { officialEnv, officialObstacle, runOfficialBm25 } from './official-pipeline.ts';

interface Item {
  question_id: string;
  haystack_session_ids: string[];
  haystack_dates: string[];
  haystack_sessions: { role: string; content: string; has_answer?: boolean }[][];
  [key: string]: unknown;
}

/** Writes the file; returns the number of questions and the last question's id. */
async function buildFile(dataDir: string, factor: number, out: string): Promise<{ questions: number; lastId: string }> {
  const folder = join(dataDir, 'longmemeval', 's_cleaned');
  const files = readdirSync(folder)
    .filter((f) => f.endsWith('.json.gz'))
    .sort();
  const read = (i: number): Item =>
    JSON.parse(gunzipSync(readFileSync(join(folder, files[i % files.length]!))).toString('utf8')) as Item;
  const w = createWriteStream(out);
  w.write('[');
  // A window of the next questions supplies the filler, so at most `factor` parsed files are held at once.
  const window: Item[] = Array.from({ length: factor }, (_, j) => read(j));
  let lastId = '';
  for (let i = 0; i < files.length; i++) {
    const item = window[0]!;
    lastId = item.question_id;
    const ids = [...item.haystack_session_ids];
    const dates = [...item.haystack_dates];
    const sessions = [...item.haystack_sessions];
    for (let j = 1; j < factor; j++) {
      const filler = window[j]!;
      filler.haystack_session_ids.forEach((id, s) => {
        ids.push(`${id.replace(/^answer_/, 'filler_')}_x${i}_${j}`);
        dates.push(filler.haystack_dates[s]!);
        sessions.push(filler.haystack_sessions[s]!.map(({ role, content }) => ({ role, content })));
      });
    }
    const text = JSON.stringify({
      ...item,
      haystack_session_ids: ids,
      haystack_dates: dates,
      haystack_sessions: sessions,
    });
    if (!w.write(i > 0 ? `,${text}` : text)) await once(w, 'drain');
    window.shift();
    window.push(read(i + factor));
  }
  w.end(']');
  await once(w, 'finish');
  return { questions: files.length, lastId };
}

type Env = NodeJS.ProcessEnv;

/** `adaptmr run` of BM25 over every session of the file: its wall time and peak memory. */
function timeBm25(dir: string, file: string, env: Env): ReturnType<typeof runAdaptmr> {
  const yaml = join(dir, 'bm25.yaml');
  writeFileSync(
    yaml,
    [
      'name: bench-scale-bm25',
      'datasets:',
      `  - path: ${file}`,
      '    format: longmemeval',
      'metrics: { ks: [1, 3, 5, 10, 30, 50], gold: official }',
      'methods:',
      '  - id: bm25-session',
      '    method: bm25',
      '    index: { granularity: session, roles: [user], includeCaptions: false, keepEmpty: true }',
      '    k: 1000',
      '    options: { tokenizer: whitespace, k1: 1.5, b: 0.75, epsilon: 0.25, tieBreak: reverse }',
      '',
    ].join('\n'),
  );
  const run = runAdaptmr(['run', yaml, '--out', join(dir, 'bm25.duckdb'), '--no-progress'], env);
  const written = run.stdout.match(/(\d+) questions written/)?.[1] ?? '?';
  console.log(
    `BM25 session   wall ${run.wallS.toFixed(1)} s  peak RSS ${run.rssMiB.toFixed(0)} MiB  (${written} questions written)`,
  );
  return run;
}

/** `adaptmr classifier eval` of the rules classifier over the file, found by dataset name. */
function timeClassifierEval(dir: string, mDataDir: string, env: Env): void {
  const evalRun = runAdaptmr(
    [
      'classifier',
      'eval',
      '--classifier',
      'rules',
      '--dataset',
      'longmemeval-m',
      '--data-dir',
      mDataDir,
      '--out',
      join(dir, 'classifier-eval.duckdb'),
      '--chart-dir',
      join(dir, 'charts'),
      '--json',
    ],
    env,
  );
  const evaluated = JSON.parse(evalRun.stdout) as { n: number };
  console.log(
    `classifier eval wall ${evalRun.wallS.toFixed(1)} s  peak RSS ${evalRun.rssMiB.toFixed(0)} MiB  (rules, ${evaluated.n} questions)`,
  );
}

/** `adaptmr explain` of the file's last question (the farthest one to reach). */
function timeExplain(dir: string, mDataDir: string, lastId: string, env: Env): void {
  const explainYaml = join(dir, 'explain.yaml');
  writeFileSync(
    explainYaml,
    [
      'name: bench-scale-explain',
      'datasets:',
      '  - name: longmemeval-m',
      'methods:',
      '  - id: bm25-session',
      '    method: bm25',
      '    index: { granularity: session }',
      '    k: 10',
      '',
    ].join('\n'),
  );
  const explained = runAdaptmr(
    ['explain', '--experiment', explainYaml, '--question', lastId, '--data-dir', mDataDir, '--json'],
    env,
  );
  const units = (JSON.parse(explained.stdout) as { methods: { units: unknown[] }[] }).methods[0]?.units.length ?? 0;
  console.log(
    `explain        wall ${explained.wallS.toFixed(1)} s  peak RSS ${explained.rssMiB.toFixed(0)} MiB  (question ${lastId}, the file's last; ${units} units ranked)`,
  );
}

/** The official LongMemEval BM25 pipeline on the same file (`--official`), capped at half the machine's memory. */
function timeOfficial(dir: string, file: string, run: ReturnType<typeof runAdaptmr>): void {
  const officialDir = process.env.OFFICIAL_LME_DIR;
  const obstacle = officialObstacle(officialDir);
  if (obstacle) {
    console.log(`official pipeline: not run (${obstacle})`);
    return;
  }
  const cap = totalmem() / 2;
  let official: ReturnType<typeof runOfficialBm25>;
  try {
    official = runOfficialBm25(
      officialDir!,
      officialEnv(dir, officialDir!),
      file,
      join(dir, 'official'),
      'session',
      cap,
    );
  } catch (err) {
    // Its own last words (a MemoryError, say), not the wrapper's RSS line after them.
    const lines = String(err instanceof Error ? err.message : err)
      .trim()
      .split('\n')
      .filter((l) => l.trim() && !l.includes('max-rss'));
    console.log(
      `official BM25  did not finish with ${(cap / 2 ** 30).toFixed(0)} GiB of address space per process (${(lines.pop() ?? '').trim().slice(0, 160)})`,
    );
    return;
  }
  console.log(
    `official BM25  wall ${official.wallS.toFixed(1)} s  peak RSS ${official.rssMiB.toFixed(0)} MiB (its largest process)   ` +
      `official ÷ ours: ${(official.wallS / run.wallS).toFixed(2)}× wall, ${(official.rssMiB / run.rssMiB).toFixed(1)}× memory`,
  );
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const at = args.indexOf('--factor');
  const factor = at >= 0 ? Number(args[at + 1]) : 10;
  const withOfficial = args.includes('--official');
  if (!(factor >= 1)) {
    console.error('usage: bench-scale [--factor N] [--official]');
    process.exit(2);
  }
  const dataDir = process.env.ADAPTMR_DATA_DIR ?? join(import.meta.dirname, '..', '..', 'shared', 'datasets');
  const dir = mkdtempSync(join(tmpdir(), 'adaptmr-scale-'));
  try {
    // Where a data folder keeps M, so the commands that take a dataset name (classifier eval, explain) find it.
    const mDataDir = join(dir, 'data');
    const file = join(mDataDir, 'longmemeval', 'longmemeval_m_cleaned.json');
    mkdirSync(dirname(file), { recursive: true });
    const t0 = performance.now();
    const { questions, lastId } = await buildFile(dataDir, factor, file);
    const gb = statSync(file).size / 1e9;
    console.log(
      `synthetic M-shaped file: ${questions} questions × ~${factor}× S haystacks, ${gb.toFixed(2)} GB (built in ${((performance.now() - t0) / 1000).toFixed(0)} s, ${file})`,
    );
    console.log(`load average: ${loadAverage()} (shared machine)`);
    // The commands' memos of this temporary file (its hash, its catalog) live and die with the temp dir.
    const env = { ...process.env, ADAPTMR_CACHE_DIR: join(dir, 'cache') };
    const info = runAdaptmr(['data', 'info', '--path', file, '--format', 'longmemeval', '--json'], env);
    const counted = JSON.parse(info.stdout) as { questions: number; sessions: number; turns: number };
    console.log(
      `data info      wall ${info.wallS.toFixed(1)} s  peak RSS ${info.rssMiB.toFixed(0)} MiB  (${counted.questions} questions, ${counted.sessions} sessions, ${counted.turns} turns)`,
    );
    const run = timeBm25(dir, file, env);
    timeClassifierEval(dir, mDataDir, env);
    timeExplain(dir, mDataDir, lastId, env);
    if (withOfficial) timeOfficial(dir, file, run);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
