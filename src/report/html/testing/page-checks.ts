/**
 * Layout checks of a rendered report page, run inside the browser (the Chromium test and the screenshot script use
 * them): elements wider than their container, and chart labels vega truncated. The functions' bodies are sent to
 * the page as strings, so they reference nothing outside themselves.
 */
import type { Page } from 'puppeteer-core';

/**
 * Every visible element whose box reaches past its parent's content box by more than a pixel, or the page itself
 * scrolling sideways — described as `tag#id.class (right edge > parent's)`. Elements inside a scroll container the
 * page means to scroll (`overflow-x: auto`) are not overflow: nothing is clipped, the container scrolls. Hidden
 * elements and elements positioned out of flow are skipped (their containing block is checked).
 */
export async function overflowingElements(page: Page): Promise<string[]> {
  return page.evaluate<[], () => string[]>(`(() => {
    const out = [];
    const doc = document.documentElement;
    if (doc.scrollWidth > window.innerWidth + 1) out.push('page scrolls sideways: ' + doc.scrollWidth + ' > ' + window.innerWidth + ' px');
    const name = (e) => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (typeof e.className === 'string' && e.className ? '.' + e.className.split(' ')[0] : '');
    const scrolls = (e) => {
      for (let p = e; p && p !== doc; p = p.parentElement) {
        const o = getComputedStyle(p).overflowX;
        if (o === 'auto' || o === 'scroll') return true;
      }
      return false;
    };
    for (const e of Array.from(document.querySelectorAll('main *'))) {
      const parent = e.parentElement;
      if (!parent || (e.closest('svg') !== null && e.tagName.toLowerCase() !== 'svg')) continue;
      // Positioned out of flow (vega-embed's menu button sits in its wrapper's padding): its containing block counts.
      const pos = getComputedStyle(e).position;
      if (pos === 'absolute' || pos === 'fixed') continue;
      const box = e.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      const pBox = parent.getBoundingClientRect();
      const style = getComputedStyle(parent);
      const right = pBox.right - parseFloat(style.paddingRight) - parseFloat(style.borderRightWidth);
      if (box.right > right + 1 && !scrolls(parent)) out.push(name(e) + ' in ' + name(parent) + ': right edge ' + Math.round(box.right) + ' > ' + Math.round(right) + ' px');
    }
    return out;
  })()`);
}

/** Legend and axis labels of every chart that vega shortened with an ellipsis (its `labelLimit`). */
export async function truncatedChartLabels(page: Page): Promise<string[]> {
  return page.evaluate<
    [],
    () => string[]
  >(`Array.from(document.querySelectorAll('[data-chart] svg .role-legend-label text, [data-chart] svg .role-axis-label text'))
    .map((t) => t.textContent || '').filter((t) => t.endsWith('…'))`);
}
