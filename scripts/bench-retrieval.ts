/**
 * Retrieval benchmark: BM25 in the official LongMemEval configuration (session and turn granularity) and the
 * unified-embedding baseline (offline wink-sif vectors) over the whole LongMemEval S split, each run as the user runs
 * it — `adaptmr run` in a fresh process, from spawn to a finished results file. Per configuration: one warm-up run,
 * then the median of `--runs` runs (default 5) of wall time and peak RSS, and questions per second.
 *
 * With OFFICIAL_LME_DIR pointing at a checkout of the official code (github.com/xiaowu0162/LongMemEval) and
 * `rank_bm25` importable by python3, the official pipeline (`src/retrieval/run_retrieval.py --retriever flat-bm25`)
 * runs in the same way on the same 499 questions (combined into one JSON file, as it expects), and the ratio is
 * printed (official-pipeline.ts: the stand-ins for its unused imports; the official files are run unmodified).
 *
 *   npm run build && npm run bench:retrieval                      # all configurations
 *   npm run bench:retrieval -- --runs 3 bm25-session bm25-turn    # some, fewer runs
 */
import { createWriteStream, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { gunzipSync } from 'node:zlib';
import { loadAverage, repeat, runAdaptmr } from './bench-process.ts';
import { officialEnv, officialObstacle, runOfficialBm25 } from './official-pipeline.ts';

const OFFICIAL_INDEX = 'index: { granularity: %G, roles: [user], includeCaptions: false, keepEmpty: true }';
const CONFIGS: Record<
  string,
  { method: string; granularity: 'session' | 'turn'; k: number; options?: string; official?: boolean }
> = {
  'bm25-session': {
    method: 'bm25',
    granularity: 'session',
    k: 1000,
    options: '{ tokenizer: whitespace, k1: 1.5, b: 0.75, epsilon: 0.25, tieBreak: reverse }',
    official: true,
  },
  'bm25-turn': {
    method: 'bm25',
    granularity: 'turn',
    k: 1000,
    options: '{ tokenizer: whitespace, k1: 1.5, b: 0.75, epsilon: 0.25, tieBreak: reverse }',
    official: true,
  },
  'embed-session': { method: 'unified-embedding', granularity: 'session', k: 50 },
  'embed-turn': { method: 'unified-embedding', granularity: 'turn', k: 1000 },
};

function experimentYaml(name: string): string {
  const c = CONFIGS[name]!;
  return [
    `name: bench-${name}`,
    'datasets:',
    '  - name: longmemeval-s',
    'embedder: { name: wink-sif }',
    'metrics: { ks: [1, 3, 5, 10, 30, 50], gold: official }',
    'methods:',
    `  - id: ${name}`,
    `    method: ${c.method}`,
    `    ${OFFICIAL_INDEX.replace('%G', c.granularity)}`,
    `    k: ${c.k}`,
    ...(c.options ? [`    options: ${c.options}`] : []),
    '',
  ].join('\n');
}

/** The S split as the one JSON array file the official script reads. */
async function combinedS(dataDir: string, out: string): Promise<void> {
  const folder = join(dataDir, 'longmemeval', 's_cleaned');
  const files = readdirSync(folder)
    .filter((f) => f.endsWith('.json.gz'))
    .sort();
  const w = createWriteStream(out);
  w.write('[');
  files.forEach((f, i) => {
    if (i > 0) w.write(',');
    w.write(gunzipSync(readFileSync(join(folder, f))));
  });
  w.end(']');
  await once(w, 'finish');
}

function row(cells: (string | number)[]): string {
  const widths = [22, 9, 9, 13, 10, 11];
  return cells.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]!) : String(c).padStart(widths[i]!))).join(' ');
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  let runs = 5;
  const names: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--runs') runs = Number(args[++i]);
    else names.push(args[i]!);
  }
  const chosen = names.length > 0 ? names : Object.keys(CONFIGS);
  const unknown = chosen.filter((n) => !(n in CONFIGS));
  if (unknown.length > 0 || !(runs >= 1)) {
    console.error(`usage: bench-retrieval [--runs N] [${Object.keys(CONFIGS).join(' | ')} …]`);
    process.exit(2);
  }
  const dataDir = process.env.ADAPTMR_DATA_DIR ?? join(import.meta.dirname, '..', '..', 'shared', 'datasets');
  const dir = mkdtempSync(join(tmpdir(), 'adaptmr-bench-'));
  const officialDir = process.env.OFFICIAL_LME_DIR;
  const obstacle = officialObstacle(officialDir);
  try {
    console.log(
      `LongMemEval S, whole split (${dataDir}); whole process from spawn to exit; 1 warm-up + median of ${runs} runs`,
    );
    console.log(`load average at start: ${loadAverage()} (the machine is shared: compare runs made together)`);
    console.log(row(['configuration', 'questions', 'wall s', 'wall min–max', 'q/s', 'peak RSS MiB']));
    const ours = new Map<string, number>();
    for (const name of chosen) {
      const yaml = join(dir, `${name}.yaml`);
      writeFileSync(yaml, experimentYaml(name));
      const m = repeat(runs, 1, (i) =>
        runAdaptmr(['run', yaml, '--out', join(dir, `${name}-${i}.duckdb`), '--no-progress'], {
          ...process.env,
          ADAPTMR_DATA_DIR: dataDir,
        }),
      );
      const questions = Number(m.last.stdout.match(/(\d+) questions written/)?.[1] ?? NaN);
      ours.set(name, m.wallS);
      console.log(
        row([
          name,
          questions,
          m.wallS.toFixed(2),
          `${m.minS.toFixed(1)}–${m.maxS.toFixed(1)}`,
          (questions / m.wallS).toFixed(1),
          m.rssMiB.toFixed(0),
        ]),
      );
    }
    const official = chosen.filter((n) => CONFIGS[n]!.official);
    if (official.length === 0) return;
    if (obstacle) {
      console.log(`official pipeline: not run (${obstacle})`);
      return;
    }
    const inFile = join(dir, 'longmemeval_s.json');
    await combinedS(dataDir, inFile);
    const env = officialEnv(dir, officialDir!);
    console.log(`official pipeline (${officialDir}, flat-bm25; peak RSS = its largest process):`);
    for (const name of official) {
      const g = CONFIGS[name]!.granularity;
      const m = repeat(runs, 1, () => runOfficialBm25(officialDir!, env, inFile, join(dir, `official-${g}`), g));
      const ratio = m.wallS / ours.get(name)!;
      console.log(
        `${row([`official ${g}`, 499, m.wallS.toFixed(2), `${m.minS.toFixed(1)}–${m.maxS.toFixed(1)}`, (499 / m.wallS).toFixed(1), m.rssMiB.toFixed(0)])}   official ÷ ours = ${ratio.toFixed(2)}×`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
