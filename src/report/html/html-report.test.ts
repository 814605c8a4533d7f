/**
 * The HTML report in a real browser: the sample results file (a real run with the loopback LLM stand-in) is
 * rendered to a page, which headless Chromium (Debian `chromium`, driven by puppeteer-core over the DevTools
 * protocol; no browser download) opens from file://. The test fails on any console error or page error and on any
 * request that is not the page itself, checks that every chart drew a non-empty SVG, that the filters narrow the
 * question list as the data says, that a click opens the drill-down with every method, each ranked unit with its date
 * and first lines, and two picked methods side by side. A copy of the file with
 * a `comparisons` table (the statistics issue's contract columns) must grow the comparisons section and chart; the
 * file without it must not. Screenshots go to results/screenshots/.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../run/record/provenance.ts';
import { openResultStore } from '../../store/index.ts';
import { makeSampleResults } from '../testing/sample-results.ts';
import { writeHtmlReport } from './html-report.ts';

const dir = mkdtempSync(join(tmpdir(), 'adaptmr-html-'));
const shots = join(REPO_ROOT, 'results', 'screenshots');
let browser: Browser;

/** The Debian chromium (or CHROMIUM_PATH); a missing browser fails the test with the install command. */
function chromiumPath(): string {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(
    (p): p is string => !!p,
  );
  const found = candidates.find((p) => existsSync(p));
  if (!found) throw new Error('no Chromium found: apt-get install chromium (or set CHROMIUM_PATH)');
  return found;
}

const sample = join(dir, 'sample.duckdb');
const withComparisons = join(dir, 'with-comparisons.duckdb');

beforeAll(async () => {
  await makeSampleResults(sample, dir);
  copyFileSync(sample, withComparisons);
  // A comparisons table with the contract's columns, its numbers computed from the file's own per-question scores
  // (mean paired difference; the interval and p-values are placeholders of the right shape: this test checks the
  // page, the statistics issue checks the statistics).
  const store = await openResultStore(withComparisons);
  // The statistics work keeps its own comparisons table in the schema; this fixture replaces it.
  await store.query('DROP TABLE IF EXISTS comparisons');
  await store.query(`CREATE TABLE comparisons AS
    SELECT a.run_id AS run, a.dataset, a.method AS method_a, b.method AS method_b, a.level, a.metric, a.k, 'all' AS adapt_type,
           count(*) AS n_pairs, avg(b.value - a.value) AS mean_diff, avg(b.value - a.value) - 0.1 AS ci_low,
           avg(b.value - a.value) + 0.1 AS ci_high, 0.5 AS p_value, 0.5 AS p_holm, 'fixture' AS test, 'vs bm25' AS family
    FROM scores a JOIN scores b USING (run_id, dataset, question_id, level, metric, k)
    WHERE a.method = 'bm25' AND b.method <> 'bm25' AND a.counted AND b.counted
    GROUP BY ALL`);
  await store.close();
  browser = await puppeteer.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: ['--no-sandbox', '--disable-gpu'],
  });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Opened {
  page: Page;
  problems: string[];
}

/** Rows of the file's comparisons table (0 when it has none). */
async function comparisonRows(file: string): Promise<number> {
  const store = await openResultStore(file, { readOnly: true });
  try {
    const [t] = await store.query<{ n: number }>(
      "SELECT count(*) AS n FROM information_schema.tables WHERE table_name = 'comparisons'",
    );
    if (!t || t.n === 0) return 0;
    const [r] = await store.query<{ n: number }>('SELECT count(*) AS n FROM comparisons');
    return r?.n ?? 0;
  } finally {
    await store.close();
  }
}

async function open(html: string): Promise<Opened> {
  const page = await browser.newPage();
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${String(e)}`));
  page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()}`));
  page.on('request', (r) => {
    if (r.url() !== `file://${html}`) problems.push(`request: ${r.url()}`);
  });
  await page.setViewport({ width: 1300, height: 900 });
  await page.goto(`file://${html}`, { waitUntil: 'load' });
  await page.waitForFunction(
    'window.adaptmrReport && window.adaptmrReport.rendered + window.adaptmrReport.failed.length === window.adaptmrReport.expected',
    { timeout: 60_000 },
  );
  return { page, problems };
}

/** Per chart container: number of drawn marks and the SVG's size. */
async function chartStats(page: Page): Promise<Record<string, { marks: number; width: number; height: number }>> {
  return page.$$eval('[data-chart]', (nodes) =>
    Object.fromEntries(
      nodes.map((n) => {
        const svg = n.querySelector('svg');
        const box = svg?.getBoundingClientRect();
        const marks = svg ? svg.querySelectorAll('path, rect, line, circle').length : 0;
        return [n.getAttribute('data-chart') ?? '?', { marks, width: box?.width ?? 0, height: box?.height ?? 0 }];
      }),
    ),
  );
}

describe('HTML report in headless Chromium', () => {
  it('renders every chart, filters and opens the drill-down, with no console error or request', async () => {
    const html = join(dir, 'sample.html');
    const summary = await writeHtmlReport(sample, html);
    const withRows = await comparisonRows(sample);
    expect(summary.charts.sort()).toEqual(
      ['latency', 'routes', 'scores', 'tokens', ...(withRows > 0 ? ['comparisons'] : [])].sort(),
    );
    const text = readFileSync(html, 'utf8');
    expect(text).not.toMatch(/<script[^>]+src=|<link[^>]+href=/u); // everything inline

    const { page, problems } = await open(html);
    const charts = await chartStats(page);
    expect(Object.keys(charts).sort()).toEqual(summary.charts.sort());
    for (const [id, c] of Object.entries(charts)) {
      expect(c.marks, `chart ${id}`).toBeGreaterThan(5);
      expect(c.width * c.height, `chart ${id}`).toBeGreaterThan(100 * 100);
    }
    // Gold-type routing is labelled in the method legend and has its own entry in the role (shape) legend of the
    // dot plot (type-dot-spec.ts: a triangle).
    expect(await page.$eval('#chart-scores', (n) => n.textContent ?? '')).toContain(
      'adaptmr-oracle (gold-type routing)',
    );
    expect(
      await page.$$eval('#chart-scores text', (ns) => ns.filter((n) => n.textContent === 'gold-type routing').length),
    ).toBeGreaterThan(0);

    // Filters: the type filter keeps exactly the questions of that type.
    const store = await openResultStore(sample, { readOnly: true });
    const [temporal] = await store.query<{ n: number }>(
      "SELECT count(DISTINCT (dataset, question_id)) AS n FROM questions WHERE adapt_type = 'temporal'",
    );
    const [all] = await store.query<{ n: number }>('SELECT count(DISTINCT (dataset, question_id)) AS n FROM questions');
    await store.close();
    expect(await page.$$eval('#drill-rows tr', (r) => r.length)).toBe(all!.n);
    await page.select('#f-type', 'temporal');
    expect(await page.$$eval('#drill-rows tr', (r) => r.length)).toBe(temporal!.n);

    // The drill-down: a click shows the question, its gold and one card per method with units and answer.
    await page.click('#drill-rows tr');
    const detail = await page.$eval('#drill-detail', (n) => ({
      hidden: n.hasAttribute('hidden'),
      text: n.textContent ?? '',
      cards: n.querySelectorAll('div.method').length,
      units: n.querySelectorAll('table.units tbody tr').length,
    }));
    expect(detail.hidden).toBe(false);
    expect(detail.cards).toBe(3);
    expect(detail.units).toBeGreaterThan(0);
    expect(detail.text).toMatch(/gold type\s*temporal/u);
    expect(detail.text).toContain('route: single:temporal');
    expect(detail.text).toMatch(/verdict: (correct|wrong)/u);

    // Ranked units carry their date and first lines, read back from the dataset (no "—" for a dataset unit).
    const unitRows = await page.$$eval('#drill-detail table.units tbody tr', (rows) =>
      rows.map((r) => [r.children[2]?.textContent ?? '', r.children[3]?.textContent ?? '']),
    );
    expect(unitRows.length).toBeGreaterThan(0);
    for (const [date, text] of unitRows) {
      expect(date).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/u);
      expect(text.length).toBeGreaterThan(5);
    }
    // Two methods side by side: picking a method and "compare with" shows exactly those two, in that order.
    await page.select('#f-method', 'bm25');
    await page.select('#f-method-b', 'adaptmr-single');
    await page.click('#drill-rows tr');
    const pair = await page.$$eval('#drill-detail .pair > div.method h4', (hs) => hs.map((x) => x.textContent ?? ''));
    expect(pair).toEqual(['bm25', 'adaptmr-single']);
    await page.select('#f-method', '');
    await page.select('#f-method-b', '');

    // The picker switches the table and the charts to QA accuracy without errors.
    const option = await page.$$eval('#pick-metric option', (o) =>
      o.map((x) => x.getAttribute('value') ?? '').find((v) => v.startsWith('accuracy|')),
    );
    expect(option).toBeDefined();
    await page.select('#pick-metric', option!);
    expect(await page.$eval('#score-table', (n) => n.textContent ?? '')).toMatch(/\d+\.\d%/u);

    mkdirSync(shots, { recursive: true });
    await page.screenshot({ path: join(shots, 'html-report.png'), fullPage: true });
    expect(statSync(join(shots, 'html-report.png')).size).toBeGreaterThan(50_000);
    await page.close();
    expect(problems).toEqual([]);
  }, 120_000);

  it('shows the comparisons section and chart only when the file has a comparisons table', async () => {
    const html = join(dir, 'with-comparisons.html');
    const summary = await writeHtmlReport(withComparisons, html);
    expect(summary.charts).toContain('comparisons');
    const { page, problems } = await open(html);
    const charts = await chartStats(page);
    expect(charts.comparisons!.marks).toBeGreaterThan(5);
    const rows = await page.$$eval('#comparison-table tbody tr', (r) => r.map((x) => x.textContent ?? ''));
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.join('\n')).toContain('adaptmr-single');
    await page.screenshot({ path: join(shots, 'html-report-comparisons.png'), fullPage: true });
    await page.close();
    expect(problems).toEqual([]);
    // The sample file shows the section exactly when it has comparison rows of its own.
    expect(readFileSync(join(dir, 'sample.html'), 'utf8').includes('id="comparison-table"')).toBe(
      (await comparisonRows(sample)) > 0,
    );
  }, 120_000);

  it('runs no script from data strings: no "View Source" action, and the CSP blocks markup a window is written', async () => {
    // A dataset named with markup whose handler, if it ever ran, marks the report window (its opener, for a popup).
    const hostile = join(dir, 'hostile.duckdb');
    copyFileSync(sample, hostile);
    const name = 'loc<img src=x onerror="(window.opener||window).__pwned=1">';
    const store = await openResultStore(hostile);
    const tables = await store.query<{ table_name: string }>(
      "SELECT DISTINCT table_name FROM information_schema.columns WHERE column_name = 'dataset' AND table_schema = 'main' AND table_name IN (SELECT table_name FROM information_schema.tables WHERE table_type = 'BASE TABLE')",
    );
    for (const t of tables) await store.query(`UPDATE ${t.table_name} SET dataset = $1`, [name]);
    await store.close();
    const html = join(dir, 'hostile.html');
    await writeHtmlReport(hostile, html);
    const text = readFileSync(html, 'utf8');
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/u.exec(text)?.[1] ?? '';
    expect(csp).toMatch(/script-src 'sha256-/u);
    expect(csp).not.toMatch(/unsafe-inline'[^;]*;.*style|script-src[^;]*unsafe/u);

    const { page, problems } = await open(html);
    const popups: string[] = [];
    browser.on('targetcreated', (t) => popups.push(t.url()));
    // Every action the chart menus offer is clicked: none may open a window with the spec (vega-embed's "View
    // Source" / "View Compiled Vega" / "Open in Vega Editor" write or post it unescaped).
    const actions = await page.$$eval('.vega-actions a', (as) => as.map((a) => a.textContent ?? ''));
    expect(actions.length).toBeGreaterThan(0);
    expect(actions.filter((a) => /source|compiled|editor/iu.test(a))).toEqual([]);
    // What the source action did, done by hand: the CSP the window inherits refuses the inline handler.
    await page.evaluate(
      `(() => { const w = window.open('', '_blank'); w.document.write('<pre>' + ${JSON.stringify(name)} + '</pre>'); w.document.close(); })()`,
    );
    // The same markup put into the report's own DOM does not run either.
    await page.evaluate(`document.body.insertAdjacentHTML('beforeend', ${JSON.stringify(name)})`);
    await new Promise((r) => setTimeout(r, 500));
    expect(await page.evaluate('window.__pwned || 0')).toBe(0);
    expect(await page.$eval('#drill-rows', (n) => n.textContent ?? '')).toContain('loc<img');
    await page.close();
    // The two refused handlers are the only complaints (the CSP's own console errors).
    expect(problems.filter((p) => !/Content Security Policy|request(?: failed)?: .*\/x$/u.test(p))).toEqual([]);
    expect(popups.length).toBeLessThanOrEqual(1);
  }, 120_000);

  it('is refused with one line for a file that is not a results file', async () => {
    const bogus = join(dir, 'bogus.duckdb');
    execFileSync('node', ['-e', 'require("fs").writeFileSync(process.argv[1], "not duckdb")', bogus]);
    await expect(writeHtmlReport(bogus, join(dir, 'x.html'))).rejects.toThrow(
      /bogus\.duckdb: cannot open results file/u,
    );
  });
});
