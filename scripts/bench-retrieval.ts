/**
 * Retrieval benchmark: runs BM25 (the official LongMemEval setup, session and turn granularity) and the
 * unified-embedding baseline (offline wink-sif vectors) over the whole LongMemEval S split through the real runner
 * (load → index → rank → metrics → DuckDB), each configuration in its own process, and prints wall time,
 * questions per second and the process's peak RSS.
 *
 *   npm run bench:retrieval               # all configurations
 *   npm run bench:retrieval -- bm25-turn  # one
 *
 * Reference: the official Python BM25 pipeline takes about 9 s for S on 2 cores with ~0.9 GB in its
 * main process; docs/official-parity.md records our own measurement of it.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseExperiment } from '../src/run/load-config.ts';
import { runExperiment } from '../src/run/runner.ts';

const CONFIGS: Record<string, string> = {
  'bm25-session': `
    - id: bm25-session
      method: bm25
      index: { granularity: session, roles: [user], includeCaptions: false, keepEmpty: true }
      k: 1000
      options: { tokenizer: whitespace, tieBreak: reverse }`,
  'bm25-turn': `
    - id: bm25-turn
      method: bm25
      index: { granularity: turn, roles: [user], includeCaptions: false, keepEmpty: true }
      k: 1000
      options: { tokenizer: whitespace, tieBreak: reverse }`,
  'embed-session': `
    - id: embed-session
      method: unified-embedding
      index: { granularity: session, roles: [user], includeCaptions: false, keepEmpty: true }
      k: 50`,
  'embed-turn': `
    - id: embed-turn
      method: unified-embedding
      index: { granularity: turn, roles: [user], includeCaptions: false, keepEmpty: true }
      k: 1000`,
};

function experimentYaml(name: string): string {
  return `name: bench-${name}\ndatasets:\n  - name: longmemeval-s\nembedder: { name: wink-sif }\nconcurrency: 2\nmethods:${CONFIGS[name]}\n`;
}

/** Child mode: run one configuration and print its figures as JSON on the last stdout line. */
async function worker(name: string, dir: string): Promise<void> {
  const exp = parseExperiment(experimentYaml(name), `bench:${name}`);
  const summary = await runExperiment(exp, { out: join(dir, `${name}.duckdb`), progress: false, log: () => {} });
  const maxRssMb = process.resourceUsage().maxRSS / 1024;
  console.log(JSON.stringify({ name, questions: summary.written, errors: summary.errors, wallMs: summary.wallMs, maxRssMb }));
}

function parent(names: string[]): void {
  const dir = mkdtempSync(join(tmpdir(), 'adaptmr-bench-'));
  console.log(`LongMemEval S, whole split, ${process.env.ADAPTMR_DATA_DIR ?? './datasets'}; each configuration in a fresh process`);
  console.log('wall s: the run itself (load → index → rank → metrics → DuckDB); process s: the whole process, start-up included');
  console.log('config           questions  wall s   process s  q/s     peak RSS MB  errors');
  try {
    for (const name of names) {
      const t0 = performance.now();
      const child = spawnSync(process.execPath, ['--import', 'tsx', import.meta.filename, '--worker', name, dir], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      const processSecs = (performance.now() - t0) / 1000;
      const last = child.stdout.trim().split('\n').pop() ?? '';
      if (child.status !== 0 || !last.startsWith('{')) {
        console.log(`${name.padEnd(16)} failed (exit ${child.status})`);
        continue;
      }
      const r = JSON.parse(last) as { questions: number; errors: number; wallMs: number; maxRssMb: number };
      const secs = r.wallMs / 1000;
      console.log(
        `${name.padEnd(16)} ${String(r.questions).padStart(9)}  ${secs.toFixed(2).padStart(6)}  ${processSecs.toFixed(2).padStart(9)}  ${(r.questions / secs).toFixed(1).padStart(6)}  ${r.maxRssMb.toFixed(0).padStart(11)}  ${r.errors}`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const args = process.argv.slice(2);
if (args[0] === '--worker') {
  await worker(args[1] ?? '', args[2] ?? tmpdir());
} else {
  const names = args.length > 0 ? args : Object.keys(CONFIGS);
  const unknown = names.filter((n) => !(n in CONFIGS));
  if (unknown.length > 0) {
    console.error(`unknown configuration(s): ${unknown.join(', ')}; known: ${Object.keys(CONFIGS).join(', ')}`);
    process.exit(2);
  }
  parent(names);
}
