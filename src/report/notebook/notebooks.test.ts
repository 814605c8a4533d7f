/**
 * The notebooks run for real: `npm run notebooks` (scripts/notebooks.ts) executes every notebook in notebooks/ on
 * Deno's Jupyter kernel through jupyter-nbconvert against a small results file made here (a real run with the
 * loopback LLM stand-in), and each HTML export carries its charts as PNG data URLs and no error output. A notebook
 * with a failing cell makes the command exit non-zero and name it.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../run/provenance.ts';
import { makeSampleResults } from '../testing/sample-results.ts';

const dir = mkdtempSync(join(tmpdir(), 'adaptmr-notebooks-'));
const results = join(dir, 'sample.duckdb');
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeAll(async () => {
  await makeSampleResults(results, dir);
}, 180_000);

function runNotebooks(...args: string[]): { status: number | null; out: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(REPO_ROOT, 'scripts', 'notebooks.ts'), results, ...args], {
    cwd: REPO_ROOT, encoding: 'utf8', timeout: 600_000,
  });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

describe('npm run notebooks', () => {
  it('executes every notebook into results HTML with PNG charts and no error', () => {
    const out = join(dir, 'html');
    const r = runNotebooks('--out', out);
    expect(r.out).not.toMatch(/FAILED/u);
    expect(r.status).toBe(0);
    const notebooks = readdirSync(join(REPO_ROOT, 'notebooks')).filter((f) => f.endsWith('.ipynb')).sort();
    expect(notebooks).toEqual(['ablation.ipynb', 'efficiency.ipynb', 'overview.ipynb']);
    for (const nb of notebooks) {
      const html = readFileSync(join(out, nb.replace('.ipynb', '.html')), 'utf8');
      expect(html.match(/<img src="data:image\/png;base64,/gu)?.length ?? 0, nb).toBeGreaterThanOrEqual(1);
      expect(html, nb).not.toMatch(/output_error|jp-RenderedText[^>]*data-mime-type="application\/vnd.jupyter.stderr"/u);
      expect(html, nb).toContain('<strong>sample</strong>'); // the run's name, printed by the second cell
      expect(html, nb).toContain('<table');
    }
    expect(readFileSync(join(out, 'overview.html'), 'utf8')).toContain('adaptmr-oracle (upper bound)');
  }, 600_000);

  it('exits non-zero and names the notebook when a cell fails', () => {
    const broken = join(dir, 'broken');
    mkdirSync(broken);
    copyFileSync(join(REPO_ROOT, 'notebooks', 'deno.json'), join(broken, 'deno.json'));
    const nb = JSON.parse(readFileSync(join(REPO_ROOT, 'notebooks', 'overview.ipynb'), 'utf8')) as { cells: unknown[] };
    const code = (id: string, line: string): unknown => ({ cell_type: 'code', id, metadata: {}, execution_count: null, outputs: [], source: [line] });
    nb.cells = [code('ok', '1 + 1'), code('boom', "throw new Error('deliberate failure');")];
    writeFileSync(join(broken, 'broken.ipynb'), JSON.stringify(nb));
    const r = runNotebooks('--out', join(dir, 'broken-html'), '--notebooks', broken);
    expect(r.status).toBe(1);
    expect(r.out).toMatch(/broken\.ipynb: FAILED/u);
    expect(r.out).toContain('deliberate failure');
  }, 300_000);
});
