/**
 * Screenshot of an HTML report page in headless Chromium (puppeteer-core + the Debian chromium, as the browser test
 * uses), for docs/img/: `tsx scripts/report-screenshot.ts <page.html> <out.png> [--width 1440] [--height 4000] [--top 0] [--select '#v-type=all'] [--from '#experiment-detail']`.
 * Waits until every chart has rendered, prints any console error, and reports each element wider than its
 * container (the page's "charts that fit" rule) so a screenshot is never taken of a page that overflows silently.
 * The PNG is `--height` pixels of the page from `--top` (default the top: the experiment's own sections come first).
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import puppeteer from 'puppeteer-core';
import { overflowingElements } from '../src/report/html/testing/page-checks.ts';

const args = process.argv.slice(2);
const flag = (name: string, fallback: number): number => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args.splice(i, 2)[1]) : fallback;
};
// `--select '#v-type=all'`: set a control of the page first (repeatable), e.g. to show the overall verdicts only.
const selects: [string, string][] = [];
for (let i = args.indexOf('--select'); i >= 0; i = args.indexOf('--select')) {
  const [sel = '', value = ''] = (args.splice(i, 2)[1] ?? '').split('=');
  selects.push([sel, value]);
}
const width = flag('width', 1440);
const height = flag('height', 4000);
let top = flag('top', 0);
// `--from '#experiment-detail'`: start at that element (after any --select) instead of --top.
const fromAt = args.indexOf('--from');
const from = fromAt >= 0 ? args.splice(fromAt, 2)[1] : undefined;
const [page, out] = args;
if (!page || !out) {
  console.error('usage: tsx scripts/report-screenshot.ts <page.html> <out.png> [--width 1440] [--height 4000]');
  process.exit(2);
}
const chromium = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find(
  (p) => p && existsSync(p),
);
if (!chromium) {
  console.error('no Chromium found: apt-get install chromium (or set CHROMIUM_PATH)');
  process.exit(2);
}
const browser = await puppeteer.launch({
  executablePath: chromium,
  headless: true,
  args: ['--no-sandbox', '--disable-gpu'],
});
try {
  const tab = await browser.newPage();
  tab.on('console', (m) => {
    if (m.type() === 'error') console.error(`console: ${m.text()}`);
  });
  await tab.setViewport({ width, height: 900 });
  await tab.goto(`file://${resolve(page)}`, { waitUntil: 'load' });
  await tab.waitForFunction('window.adaptmrReport && window.adaptmrReport.settled === true', { timeout: 120_000 });
  for (const [sel, value] of selects) await tab.select(sel, value);
  if (from)
    top = Math.max(
      0,
      Math.floor(
        (await tab.evaluate(
          `document.querySelector(${JSON.stringify(from)}).getBoundingClientRect().top + window.scrollY`,
        )) as number,
      ) - 8,
    );
  const wide = await overflowingElements(tab);
  for (const w of wide) console.error(`wider than its container: ${w}`);
  const full = (await tab.evaluate('document.documentElement.scrollHeight')) as number;
  const shown = Math.max(1, Math.min(height, full - top));
  await tab.screenshot({ path: out, clip: { x: 0, y: top, width, height: shown } });
  console.log(
    `${out}: ${width} × ${shown} px from y = ${top} of ${full}${wide.length ? `; ${wide.length} element(s) overflow` : ''}`,
  );
} finally {
  await browser.close();
}
