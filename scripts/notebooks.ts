/**
 * `npm run notebooks -- <results.duckdb> [--out dir] [--notebooks dir]`: executes every notebook in notebooks/
 * (or --notebooks) headlessly on Deno's
 * Jupyter kernel (`jupyter nbconvert --to html --execute`) against the results file (ADAPTMR_RESULTS, opened
 * read-only by the notebooks) and writes `<out>/<notebook>.html` (default results/notebooks/). Installs the Deno
 * kernelspec when it is missing or points at another binary (`deno jupyter --install --force`). Exits non-zero when
 * any cell of any notebook fails, naming the notebooks.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { errorMessage } from '../src/core/errors.ts';
import { REPO_ROOT } from '../src/run/provenance.ts';
import { openResultStore } from '../src/store/index.ts';

const NOTEBOOKS = join(REPO_ROOT, 'notebooks');

function fail(message: string): never {
  console.error(`error: ${message}`);
  process.exit(2);
}

function parseArgs(argv: string[]): { file: string; out: string; notebooks: string } {
  let out = join('results', 'notebooks');
  let notebooks = NOTEBOOKS;
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--out') out = argv[++i] ?? fail('--out needs a folder');
    else if (argv[i] === '--notebooks') notebooks = argv[++i] ?? fail('--notebooks needs a folder');
    else rest.push(argv[i]!);
  }
  if (rest.length !== 1) fail('usage: npm run notebooks -- <results.duckdb> [--out dir] [--notebooks dir]');
  return { file: resolve(rest[0]!), out: resolve(out), notebooks: resolve(notebooks) };
}

/** The npm package's Deno binary (its bin.cjs installs it from the platform package on first use). */
function denoBinary(): string {
  const bin = join(REPO_ROOT, 'node_modules', 'deno', process.platform === 'win32' ? 'deno.exe' : 'deno');
  if (!existsSync(bin)) {
    try {
      execFileSync(process.execPath, [join(REPO_ROOT, 'node_modules', 'deno', 'bin.cjs'), '--version'], { stdio: 'ignore' });
    } catch (err) {
      fail(`the deno npm package is not installed (npm install): ${errorMessage(err)}`);
    }
  }
  return bin;
}

function ensureKernel(deno: string): void {
  let dataDir: string;
  try {
    dataDir = execFileSync('jupyter', ['--data-dir'], { encoding: 'utf8' }).trim();
    execFileSync('jupyter-nbconvert', ['--version'], { stdio: 'ignore' });
  } catch {
    fail('jupyter-nbconvert is not installed (Debian: apt-get install jupyter-nbconvert)');
  }
  const spec = join(dataDir, 'kernels', 'deno', 'kernel.json');
  const current = existsSync(spec) ? (JSON.parse(readFileSync(spec, 'utf8')) as { argv?: string[] }).argv?.[0] : undefined;
  if (current === deno && existsSync(deno)) return;
  console.error(`installing the Deno Jupyter kernel (${deno})`);
  execFileSync(deno, ['jupyter', '--install', '--force'], { stdio: ['ignore', 'ignore', 'inherit'] });
}

async function checkResults(file: string): Promise<void> {
  try {
    const store = await openResultStore(file, { readOnly: true });
    await store.close();
  } catch (err) {
    fail(errorMessage(err));
  }
}

const { file, out, notebooks: folder } = parseArgs(process.argv.slice(2));
await checkResults(file);
ensureKernel(denoBinary());
mkdirSync(out, { recursive: true });
if (!existsSync(folder)) fail(`no notebooks folder ${folder}`);
const notebooks = readdirSync(folder).filter((f) => f.endsWith('.ipynb')).sort();
if (notebooks.length === 0) fail(`no .ipynb in ${folder}`);
const failed: string[] = [];
for (const nb of notebooks) {
  const started = performance.now();
  // nbclient waits only iopub_timeout (default 4 s) for a cell's outputs after the kernel's reply and then drops
  // them with a warning; on a loaded machine Deno's display can arrive later, so wait longer and fail, not drop.
  const r = spawnSync('jupyter', ['nbconvert', '--to', 'html', '--execute', '--ExecutePreprocessor.timeout=900',
    '--ExecutePreprocessor.iopub_timeout=120', '--ExecutePreprocessor.raise_on_iopub_timeout=True',
    '--ExecutePreprocessor.kernel_name=deno', '--output-dir', out, join(folder, nb)], {
    env: { ...process.env, ADAPTMR_RESULTS: file }, encoding: 'utf8',
  });
  const secs = ((performance.now() - started) / 1000).toFixed(1);
  if (r.status === 0) {
    console.log(`${nb}: ok in ${secs} s → ${join(out, nb.replace(/\.ipynb$/u, '.html'))}`);
  } else {
    failed.push(nb);
    // nbconvert prints the failing cell and its error; keep the tail, without the kernel's noise.
    const log = `${r.stderr ?? ''}${r.error ? errorMessage(r.error) : ''}`.split('\n').filter((l) => !/is unstable/u.test(l));
    console.error(`${nb}: FAILED after ${secs} s\n${log.slice(-40).join('\n')}`);
  }
}
if (failed.length > 0) {
  console.error(`notebooks with errors: ${failed.join(', ')}`);
  process.exit(1);
}
