/**
 * Scale benchmark of one large named dataset (`--dataset`; `npm run bench:datasets` names the tier of long chats
 * docs/datasets.md §9 reports), each measurement a fresh `adaptmr` process (wall time, peak RSS with worker threads
 * counted — bench-process.ts):
 *   - `adaptmr data info --dataset <dataset>` (every chat read and normalised, defects counted);
 *   - BM25 over all of it (messages, both roles, k 10): `adaptmr run` of a one-method experiment — and over the first
 *     5 chats only, so the peak RSS of 35 chats can be read against that of 5 (bounded memory: it must not grow);
 *   - AdaptMR the same way (rules classifier, single route, the five strategies, the `--thresholds` abstention file);
 *   - with `--all-methods`, once: every offline method of the registry in one run (the baselines offline, the
 *     strategies, AdaptMR single / fusion / oracle), to show the tier runs through all of them in bounded memory.
 * Each run writes a fresh results file in a temp dir and includes its statistics pass (bootstrap CIs and paired
 * comparisons), whose own time is printed apart. Medians over `--runs` (default 3) after no warm-up (each run is a
 * cold process by design: that is what a user starts). Memory should not grow with the tier: a chat's index is built
 * once per chat and dropped when the run moves on (src/run/index-cache.ts), so peak RSS tracks one chat, not 35.
 *
 *   npm run bench:datasets                        # BM25 and AdaptMR, 3 runs each
 *   npm run bench:datasets -- --runs 1 --all-methods
 *   npm run bench:datasets -- --workers 0         # in the runner's thread only (no worker threads)
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadAverage, repeat, runAdaptmr, type Measured } from './bench-process.ts';
import { adaptmr, allOffline, BM25, experiment, scaleSetup } from './scale-methods.ts';

function statsSeconds(m: Measured): number {
  const s = /stats: .* in ([\d.]+) s/.exec(m.stderr);
  return s ? Number(s[1]) : NaN;
}

function main(): void {
  const args = process.argv.slice(2);
  const flag = (name: string): string | undefined => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const setup = scaleSetup(args, 'bench-datasets [--runs N] [--workers N] [--all-methods]');
  const dataset = setup.dataset;
  const runs = Number(flag('--runs') ?? 3);
  const workers = flag('--workers');
  if (!(Number.isInteger(runs) && runs >= 1)) {
    console.error('usage: bench-datasets [--runs N] [--workers N] [--all-methods]');
    process.exit(2);
  }
  const dir = mkdtempSync(join(tmpdir(), 'adaptmr-bench-datasets-'));
  const workerArgs = workers !== undefined ? ['--workers', workers] : [];
  console.log(
    `${dataset} scale benchmark — ${runs} run(s) each, workers ${workers ?? 'auto'}, load average ${loadAverage()}`,
  );
  const rows: string[][] = [];
  const row = (what: string, r: ReturnType<typeof repeat>, questions: number, stats?: number): void => {
    rows.push([
      what,
      `${r.wallS.toFixed(1)} s (${r.minS.toFixed(1)}–${r.maxS.toFixed(1)})`,
      `${(questions / r.wallS).toFixed(1)}`,
      `${r.rssMiB.toFixed(0)} MiB`,
      stats === undefined ? '' : `${stats.toFixed(1)} s`,
    ]);
  };
  try {
    const info = repeat(runs, 0, () => runAdaptmr(['data', 'info', '--dataset', dataset, '--json']));
    const questions = (JSON.parse(info.last.stdout) as { questions: number }).questions;
    row(`data info --dataset ${dataset}`, info, questions);
    const measureRun = (name: string, methods: string, times: number, limit?: number): void => {
      const file = join(dir, `${name}.yaml`);
      writeFileSync(file, experiment(setup, name, methods, limit));
      const r = repeat(times, 0, (i) =>
        runAdaptmr(['run', file, '--out', join(dir, `${name}-${i}.duckdb`), '--no-progress', ...workerArgs]),
      );
      const n = limit ?? questions;
      row(
        `run: ${name} (${methods.split('\n').length} method${methods.includes('\n') ? 's' : ''}, ${n} questions)`,
        r,
        n,
        statsSeconds(r.last),
      );
    };
    // The first 5 chats (their 100 questions) against all 35: peak RSS that does not grow with the chats read is bounded.
    measureRun('bm25-5-chats', BM25, runs, 100);
    measureRun('bm25', BM25, runs);
    measureRun('adaptmr-5-chats', adaptmr(setup), runs, 100);
    measureRun('adaptmr-single-rules', adaptmr(setup), runs);
    if (args.includes('--all-methods')) measureRun('all-offline-methods', allOffline(setup), 1);
    const head = ['command', 'wall time, median (min–max)', 'questions/s', 'peak RSS', 'of which statistics'];
    const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
    const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ');
    console.log(line(head));
    for (const r of rows) console.log(line(r));
    console.log(`${questions} questions, 35 chats, 38,058 messages; peak RSS counts worker threads (one process)`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main();
