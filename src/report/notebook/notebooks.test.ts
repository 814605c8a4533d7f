/**
 * The notebooks run for real: `npm run notebooks` (scripts/notebooks.ts) executes every notebook in notebooks/ on
 * Deno's Jupyter kernel through jupyter-nbconvert against a small results file made here (a real run with the
 * loopback LLM stand-in), and each HTML export carries its charts as PNG data URLs and no error output. A notebook
 * with a failing cell, or a cell that displays nothing, makes the command exit non-zero and name it. On a sweep's
 * results (experiment 4, two datasets) the ablation notebook shows every dataset's verdicts and comparisons, and
 * every chart is drawn at a readable size.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../run/record/provenance.ts';
import { makeSampleResults } from '../testing/sample-results.ts';
import { makePlanResults } from '../testing/plan-results.ts';
import { note } from './notebook-kit.ts';

const dir = mkdtempSync(join(tmpdir(), 'adaptmr-notebooks-'));
const results = join(dir, 'sample.duckdb');
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeAll(async () => {
  await makeSampleResults(results, dir);
}, 180_000);

function runNotebooks(...args: string[]): { status: number | null; out: string } {
  const r = spawnSync(
    process.execPath,
    ['--import', 'tsx', join(REPO_ROOT, 'scripts', 'notebooks.ts'), results, ...args],
    {
      cwd: REPO_ROOT,
      encoding: 'utf8',
      timeout: 600_000,
    },
  );
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

describe('notes from a results file', () => {
  // Names in a results file (an experiment, run or dataset from a shard made elsewhere) with markup, a markdown
  // link and Chinese text: rendered by nbconvert itself, as the dashboards' HTML is.
  const hostile = '实验 <img src=x onerror=alert(1)> [click](javascript:alert(2)) *bold* <script>alert(3)</script>';

  it("shows interpolated values as text in nbconvert's HTML: no tag, no link, no emphasis", () => {
    const bundle = (
      note`**${hostile}** · ${2} run(s) · metric ${'recall_any'}` as unknown as Record<
        symbol,
        () => Record<string, string>
      >
    )[Symbol.for('Jupyter.display')]!();
    expect(bundle['text/plain']).toBe(`**${hostile}** · 2 run(s) · metric recall_any`);
    const nb = {
      nbformat: 4,
      nbformat_minor: 5,
      metadata: {},
      cells: [
        {
          cell_type: 'code',
          id: 'n',
          metadata: {},
          execution_count: 1,
          source: ['note'],
          outputs: [{ output_type: 'display_data', metadata: {}, data: bundle }],
        },
      ],
    };
    const file = join(dir, 'hostile-note.ipynb');
    writeFileSync(file, JSON.stringify(nb));
    const r = spawnSync('jupyter-nbconvert', ['--to', 'html', '--stdout', file], {
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(r.status, r.stderr).toBe(0);
    const body = r.stdout.slice(r.stdout.indexOf('jp-RenderedMarkdown'));
    expect(body).not.toMatch(/<img[^>]*onerror|<script>alert|href="javascript|<em>bold<\/em>/u);
    expect(body).toContain('实验 &lt;img src=x onerror=alert(1)&gt;');
    expect(body).toMatch(/<strong>实验 &lt;img/u);
    expect(body).toContain('recall_any');
  });

  it('every note in the dashboards is a tagged template (an interpolated string could carry markup)', () => {
    for (const nb of readdirSync(join(REPO_ROOT, 'notebooks')).filter((f) => f.endsWith('.ipynb'))) {
      expect(readFileSync(join(REPO_ROOT, 'notebooks', nb), 'utf8'), nb).not.toMatch(/\bnote\(/u);
    }
  });
});

describe('npm run notebooks', () => {
  it('executes every notebook into results HTML with PNG charts and no error', () => {
    const out = join(dir, 'html');
    const r = runNotebooks('--out', out);
    expect(r.out).not.toMatch(/FAILED/u);
    expect(r.status).toBe(0);
    const notebooks = readdirSync(join(REPO_ROOT, 'notebooks'))
      .filter((f) => f.endsWith('.ipynb'))
      .sort();
    expect(notebooks).toEqual(['ablation.ipynb', 'efficiency.ipynb', 'overview.ipynb']);
    for (const nb of notebooks) {
      const html = readFileSync(join(out, nb.replace('.ipynb', '.html')), 'utf8');
      expect(html.match(/<img src="data:image\/png;base64,/gu)?.length ?? 0, nb).toBeGreaterThanOrEqual(1);
      expect(html, nb).not.toMatch(
        /output_error|jp-RenderedText[^>]*data-mime-type="application\/vnd.jupyter.stderr"/u,
      );
      expect(html, nb).toContain('<strong>sample</strong>'); // the run's name, printed by the second cell
      expect(html, nb).toContain('<table');
    }
    expect(readFileSync(join(out, 'overview.html'), 'utf8')).toContain('adaptmr-oracle (gold-type routing)');
  }, 600_000);

  it('keeps every dataset of a sweep in the ablation notebook, reads its verdicts and comparisons, and draws charts to be read', async () => {
    mkdirSync(join(dir, 'plan'), { recursive: true });
    const plan = await makePlanResults(join(dir, 'plan'));
    const out = join(dir, 'plan-html');
    const r = spawnSync(
      process.execPath,
      ['--import', 'tsx', join(REPO_ROOT, 'scripts', 'notebooks.ts'), plan.exp4, '--out', out],
      { cwd: REPO_ROOT, encoding: 'utf8', timeout: 600_000 },
    );
    expect(r.status, `${r.stdout}${r.stderr}`).toBe(0);
    const html = readFileSync(join(out, 'ablation.html'), 'utf8');
    // Both datasets, in the verdicts and in the sweep's comparisons, named as shown; the variations in words.
    expect(html).toMatch(/datasets with ablation verdicts: locomo, longmemeval-oracle — every dataset of the file/u);
    expect(html).toMatch(/datasets with comparisons: locomo, longmemeval-oracle — every dataset of the file/u);
    expect(html).toMatch(/The sweep(&#39;|')s comparisons — \d+ rows/u);
    expect(html).toContain('w/o temporal strategy − full system');
    expect(html).not.toContain('No paired comparisons');
    // The overview shows native types beside the AdaptMR types (a table per dataset whose types pool several labels).
    expect(readFileSync(join(out, 'overview.html'), 'utf8')).toMatch(/<th>factual · [^<]+<\/th>/u);
    // Every chart of every notebook is drawn at a readable size: no strip (the old overview chart was 1,300 × 150).
    for (const nb of ['ablation', 'overview', 'efficiency']) {
      const page = readFileSync(join(out, `${nb}.html`), 'utf8');
      const pngs = [...page.matchAll(/<img src="data:image\/png;base64,([^"]+)"/gu)].map((m) =>
        Buffer.from(m[1]!, 'base64'),
      );
      expect(pngs.length, nb).toBeGreaterThan(0);
      for (const png of pngs) {
        const [w, h] = [png.readUInt32BE(16), png.readUInt32BE(20)];
        expect(h, `${nb}: ${w} × ${h}`).toBeGreaterThanOrEqual(400); // PNGs are drawn at 2×: ≥ 200 px on the page
        expect(w / h, `${nb}: ${w} × ${h}`).toBeLessThan(5);
      }
    }
  }, 600_000);

  it('exits non-zero and names the notebook when a cell fails', () => {
    const broken = join(dir, 'broken');
    mkdirSync(broken);
    copyFileSync(join(REPO_ROOT, 'notebooks', 'deno.json'), join(broken, 'deno.json'));
    const nb = JSON.parse(readFileSync(join(REPO_ROOT, 'notebooks', 'overview.ipynb'), 'utf8')) as { cells: unknown[] };
    const code = (id: string, line: string): unknown => ({
      cell_type: 'code',
      id,
      metadata: {},
      execution_count: null,
      outputs: [],
      source: [line],
    });
    nb.cells = [code('ok', '1 + 1'), code('boom', "throw new Error('deliberate failure');")];
    writeFileSync(join(broken, 'broken.ipynb'), JSON.stringify(nb));
    // A cell that displays nothing (and is not tagged no-output) is a failure too, not a silently empty dashboard.
    nb.cells = [code('quiet', 'const x = 1;')];
    writeFileSync(join(broken, 'silent.ipynb'), JSON.stringify(nb));
    const r = runNotebooks('--out', join(dir, 'broken-html'), '--notebooks', broken);
    expect(r.status).toBe(1);
    expect(r.out).toMatch(/broken\.ipynb: FAILED/u);
    expect(r.out).toContain('deliberate failure');
    expect(r.out).toMatch(/silent\.ipynb: FAILED[^\n]*\ncells without output after 3 attempts: quiet/u);
  }, 300_000);
});
