/**
 * `npm run notebooks -- <results.duckdb> [--out dir] [--notebooks dir]`: executes every notebook in notebooks/
 * (or --notebooks) headlessly on Deno's
 * Jupyter kernel (`jupyter nbconvert --to html --execute`) against the results file (ADAPTMR_RESULTS, opened
 * read-only by the notebooks) and writes `<out>/<notebook>.html` (default results/notebooks/). Installs the Deno
 * kernelspec when it is missing or points at another binary (`deno jupyter --install --force`). Exits non-zero when
 * any cell of any notebook fails, naming the notebooks.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { errorMessage } from '../src/core/errors.ts';
import { REPO_ROOT } from '../src/run/record/provenance.ts';
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
      execFileSync(process.execPath, [join(REPO_ROOT, 'node_modules', 'deno', 'bin.cjs'), '--version'], {
        stdio: 'ignore',
      });
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
  const current = existsSync(spec)
    ? (JSON.parse(readFileSync(spec, 'utf8')) as { argv?: string[] }).argv?.[0]
    : undefined;
  // Compare real paths: a worktree reaches the same binary through a node_modules symlink.
  const real = (p: string | undefined): string | undefined => (p && existsSync(p) ? realpathSync(p) : undefined);
  if (real(current) !== undefined && real(current) === real(deno)) return;
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
const notebooks = readdirSync(folder)
  .filter((f) => f.endsWith('.ipynb'))
  .sort();
if (notebooks.length === 0) fail(`no .ipynb in ${folder}`);
const failed: string[] = [];
const tmp = mkdtempSync(join(tmpdir(), 'adaptmr-notebooks-'));

interface Cell {
  cell_type: string;
  id?: string;
  metadata?: { tags?: string[] };
  outputs?: unknown[];
}

/** Code cells that should display something (all but those tagged `no-output`) and came back without output. */
function silentCells(executed: string): string[] {
  const nb = JSON.parse(readFileSync(executed, 'utf8')) as { cells: Cell[] };
  return nb.cells
    .map((c, i) => ({ c, i }))
    .filter(
      ({ c }) =>
        c.cell_type === 'code' && !(c.metadata?.tags ?? []).includes('no-output') && (c.outputs ?? []).length === 0,
    )
    .map(({ c, i }) => c.id ?? `#${i}`);
}

function nbconvert(args: string[]): { status: number | null; log: string } {
  const r = spawnSync('jupyter', ['nbconvert', ...args], {
    env: { ...process.env, ADAPTMR_RESULTS: file },
    encoding: 'utf8',
  });
  // Keep the tail (nbconvert prints the failing cell and its error), without the kernel's noise.
  const log = `${r.stderr ?? ''}${r.error ? errorMessage(r.error) : ''}`
    .split('\n')
    .filter((l) => !/is unstable/u.test(l))
    .slice(-40)
    .join('\n');
  return { status: r.status, log };
}

/**
 * Executes one notebook into an executed .ipynb. Deno's kernel (2.9) now and then loses a cell's display under
 * load, and nbconvert keeps the empty output silently; every cell must display something (unless tagged
 * `no-output`), so a notebook with a silent cell is executed again (at most 3 times in all) and fails after that.
 * nbclient also waits only iopub_timeout (default 4 s) for outputs after the kernel's reply, then drops them:
 * wait longer and fail instead.
 */
function execute(nb: string): { ok: boolean; message: string } {
  const executed = join(tmp, nb);
  let message = '';
  for (let attempt = 1; attempt <= 3; attempt++) {
    const r = nbconvert([
      '--to',
      'notebook',
      '--execute',
      '--ExecutePreprocessor.timeout=900',
      '--ExecutePreprocessor.iopub_timeout=120',
      '--ExecutePreprocessor.raise_on_iopub_timeout=True',
      '--ExecutePreprocessor.kernel_name=deno',
      '--output-dir',
      tmp,
      join(folder, nb),
    ]);
    if (r.status !== 0) return { ok: false, message: r.log };
    const silent = silentCells(executed);
    if (silent.length === 0) {
      const html = nbconvert(['--to', 'html', '--output-dir', out, executed]);
      return html.status === 0
        ? { ok: true, message: attempt > 1 ? ` (attempt ${attempt})` : '' }
        : { ok: false, message: html.log };
    }
    message = `cells without output after ${attempt} attempts: ${silent.join(', ')}`;
  }
  return { ok: false, message };
}

try {
  for (const nb of notebooks) {
    const started = performance.now();
    const r = execute(nb);
    const secs = ((performance.now() - started) / 1000).toFixed(1);
    if (r.ok) {
      console.log(`${nb}: ok in ${secs} s${r.message} → ${join(out, nb.replace(/\.ipynb$/u, '.html'))}`);
    } else {
      failed.push(nb);
      console.error(`${nb}: FAILED after ${secs} s\n${r.message}`);
    }
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
if (failed.length > 0) {
  console.error(`notebooks with errors: ${failed.join(', ')}`);
  process.exit(1);
}
