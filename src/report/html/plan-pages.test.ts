/**
 * The report pages of the plan's five experiments in headless Chromium (puppeteer-core + Debian chromium), on small
 * results files the real runner makes (testing/plan-results.ts): every plan experiment's section renders with its
 * stored verdicts — the element `#experiment` holds one table row per `verdicts` row, grouped by experiment — and
 * its own charts; each dataset is shown at its own headline; and at 1,280, 1,440 and 1,920 px no element of the
 * experiment 3 and 4 pages is wider than its container and no chart label is cut with an ellipsis (the experiment 3
 * file lists thirteen methods, several with long ids). A method keeps its palette colour on the page.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openResultStore } from '../../store/index.ts';
import { methodColor } from '../palette.ts';
import { makePlanResults, type PlanFiles } from '../testing/plan-results.ts';
import { writeHtmlReport } from './html-report.ts';
import { overflowingElements, truncatedChartLabels } from './testing/page-checks.ts';

const dir = mkdtempSync(join(tmpdir(), 'adaptmr-plan-pages-'));
let files: PlanFiles;
let browser: Browser;
const pages: Record<string, string> = {};

beforeAll(async () => {
  files = await makePlanResults(dir);
  for (const [name, file] of Object.entries(files)) {
    pages[name] = join(dir, `${name}.html`);
    await writeHtmlReport(file, pages[name]!);
  }
  const chromium = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find(
    (p): p is string => !!p && existsSync(p),
  );
  if (!chromium) throw new Error('no Chromium found: apt-get install chromium (or set CHROMIUM_PATH)');
  browser = await puppeteer.launch({
    executablePath: chromium,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu'],
  });
}, 600_000);

afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function open(html: string, width: number): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage();
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${String(e)}`));
  await page.setViewport({ width, height: 900 });
  await page.goto(`file://${html}`, { waitUntil: 'load' });
  await page.waitForFunction('window.adaptmrReport && window.adaptmrReport.settled === true', { timeout: 120_000 });
  return { page, problems };
}

/** Verdict rows per experiment, counted in the file. */
async function verdictCounts(file: string): Promise<Record<string, number>> {
  const store = await openResultStore(file, { readOnly: true });
  try {
    const rows = await store.query<{ experiment: string; n: number }>(
      'SELECT experiment, count(*)::INTEGER AS n FROM verdicts GROUP BY experiment',
    );
    return Object.fromEntries(rows.map((r) => [r.experiment, r.n]));
  } finally {
    await store.close();
  }
}

describe('plan experiment pages in headless Chromium', () => {
  it('renders every plan experiment section with its verdicts, one table row per stored verdict, and its charts', async () => {
    const seen = new Set<string>();
    for (const name of ['exp125', 'exp3', 'exp4'] as const) {
      const counts = await verdictCounts(files[name]);
      expect(Object.keys(counts).length, name).toBeGreaterThan(0);
      const { page, problems } = await open(pages[name]!, 1440);
      const total = Object.values(counts).reduce((a, b) => a + b, 0);
      expect(await page.$$eval('#experiment tbody tr', (r) => r.length), name).toBe(total);
      for (const [experiment, n] of Object.entries(counts)) {
        seen.add(experiment);
        expect(
          await page.$$eval(
            `#experiment .exp-verdicts[data-experiment="${experiment}"] tbody tr.verdict`,
            (r) => r.length,
          ),
          experiment,
        ).toBe(n);
      }
      // The experiment's own charts and the verdicts at a glance drew marks; nothing failed.
      const charts = await page.$$eval('[data-chart]', (ns) =>
        ns.map(
          (n) => [n.getAttribute('data-chart'), n.querySelectorAll('svg path, svg line, svg rect').length] as const,
        ),
      );
      expect(charts.filter(([id]) => id?.startsWith('verdicts-')).length, name).toBe(Object.keys(counts).length);
      expect(charts.filter(([id]) => id?.startsWith('exp-')).length, name).toBeGreaterThan(0);
      for (const [id, marks] of charts) expect(marks, `${name} ${id}`).toBeGreaterThan(5);
      // The findings open the page when there are any; then the experiment, before the generic sections.
      const order = await page.$$eval('main > section', (s) => s.map((x) => x.id));
      expect(order.indexOf('findings'), name).toBeLessThanOrEqual(0);
      expect(order.filter((id) => id !== 'findings').slice(0, 2), name).toEqual(['experiment', 'experiment-detail']);
      // Each dataset at its own headline (LongMemEval sessions, LoCoMo turns), side by side in one table.
      const metrics = await page.$$eval('#score-table tbody tr', (rows) =>
        rows.map((r) => `${r.children[0]?.textContent} ${r.children[2]?.textContent}`),
      );
      expect(
        metrics.some((m) => /^longmemeval-oracle recall_any@\d+ \(session level\)/u.test(m)),
        name,
      ).toBe(true);
      expect(
        metrics.some((m) => /^locomo recall_any@\d+ \(turn level\)/u.test(m)),
        name,
      ).toBe(true);
      // Native types beside the AdaptMR types, in a visible section (not collapsed text): a table per dataset whose
      // types average several native labels, and its dot plot.
      const native = await page.$eval('#native-types', (n) => ({
        shown: (n as unknown as { offsetHeight: number }).offsetHeight > 0,
        tables: n.querySelectorAll('table.native tbody tr').length,
        heads: [...n.querySelectorAll('h3')].map((h) => h.textContent ?? ''),
      }));
      expect(native.shown, name).toBe(true);
      expect(native.tables, name).toBeGreaterThan(0);
      expect(
        native.heads.some((h) => h.startsWith('longmemeval-oracle')),
        name,
      ).toBe(true);
      await page.close();
      expect(problems, name).toEqual([]);
    }
    expect([...seen].sort()).toEqual([
      'ablations',
      'adaptmr-vs-baselines',
      'efficiency',
      'existing-systems',
      'oracle-upper-bound',
    ]);
  }, 300_000);

  for (const name of ['exp3', 'exp4'] as const) {
    it(`fits the ${name} page at 1,280, 1,440 and 1,920 px: nothing wider than its container, no label cut`, async () => {
      for (const width of [1280, 1440, 1920]) {
        const { page, problems } = await open(pages[name]!, width);
        expect(await overflowingElements(page), `${name} at ${width} px`).toEqual([]);
        expect(await truncatedChartLabels(page), `${name} at ${width} px`).toEqual([]);
        if (name === 'exp3') {
          // The per-type chart is a dot plot (type-dot-spec.ts): methods are its rows, so the long method ids are
          // its axis labels, whole, and each dot is drawn in its method's colour.
          const labels = await page.$$eval('#chart-scores svg .role-axis-label text', (ts) =>
            ts.map((t) => t.textContent ?? ''),
          );
          expect(labels).toContain('adaptmr-single-rules-with-a-long-descriptive-name');
          expect(labels).toContain('strategy-temporal-with-date-arithmetic');
          const fills = await page.$$eval('#chart-scores svg .mark-symbol path', (ps) =>
            ps.map((p) => (p.getAttribute('fill') ?? '').toUpperCase()),
          );
          expect(fills).toContain(methodColor('unified-embedding').toUpperCase());
          expect(fills).toContain(methodColor('bm25').toUpperCase());
        } else {
          // Forest plots name each variation in words, not "adaptmr vs adaptmr".
          const text = await page.$eval('#experiment-detail', (n) => n.textContent ?? '');
          expect(text).toContain('w/o temporal strategy');
          expect(await page.$eval('#chart-verdicts-0', (n) => n.textContent ?? '')).toContain('w/o multi-hop strategy');
          expect(await page.$eval('#comparison-table', (n) => n.textContent ?? '')).toMatch(
            /w\/o classifier − full system/u,
          );
        }
        await page.close();
        expect(problems).toEqual([]);
      }
    }, 300_000);
  }
});
