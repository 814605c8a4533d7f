/**
 * Renders the confusion heatmap: vega-lite → vega (SVG, renderer "none", no canvas) → @resvg/resvg-js (PNG),
 * the pipeline DESIGN.md §7 names. Stand-in until src/report's shared `renderChart` lands; then this file should
 * only call it.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import * as vega from 'vega';
import * as vegaLite from 'vega-lite';
import { Resvg } from '@resvg/resvg-js';

export async function renderConfusionChart(spec: Record<string, unknown>, basePath: string): Promise<string[]> {
  const compiled = vegaLite.compile(spec as unknown as vegaLite.TopLevelSpec).spec;
  const view = new vega.View(vega.parse(compiled), { renderer: 'none' });
  const svg = await view.toSVG();
  view.finalize();
  await mkdir(dirname(basePath), { recursive: true });
  const png = new Resvg(svg, { background: 'white', fitTo: { mode: 'zoom', value: 2 } }).render().asPng();
  await writeFile(`${basePath}.svg`, svg);
  await writeFile(`${basePath}.png`, png);
  return [`${basePath}.svg`, `${basePath}.png`];
}
