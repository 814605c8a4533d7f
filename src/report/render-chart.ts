/**
 * Renders any Vega-Lite spec to `<base>.vl.json`, `<base>.svg` and `<base>.png` (DESIGN.md §7): vega-lite compiles
 * the spec, a headless vega View (renderer 'none') produces SVG, and resvg rasterises it. resvg draws text only
 * with a font it can load: it reads the system fonts and maps vega's default `sans-serif` to DejaVu Sans (Debian
 * package fonts-dejavu-core); without any system font the PNG would have bars but no text.
 */
import { writeFilesAtomic } from '../core/atomic-write.ts';
import { Resvg } from '@resvg/resvg-js';
import { View, parse, logger, Error as VEGA_ERROR } from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';

export const CHART_FONT = 'DejaVu Sans';

const QUIET = logger(VEGA_ERROR);

export interface ChartFiles {
  specPath: string;
  svgPath: string;
  pngPath: string;
}

export async function specToSvg(spec: TopLevelSpec): Promise<string> {
  // Errors only: vega-lite's warnings about faceted independent scales are expected for our per-dataset facets and
  // would otherwise land on stderr (and in notebook outputs) on every chart.
  const view = new View(parse(compile(spec, { logger: QUIET }).spec), { renderer: 'none', logLevel: VEGA_ERROR });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

/** PNG bytes of an SVG at twice its size (readable when embedded in reports). */
export function svgToPng(svg: string): Buffer {
  const resvg = new Resvg(svg, {
    background: 'white',
    fitTo: { mode: 'zoom', value: 2 },
    font: { loadSystemFonts: true, defaultFontFamily: CHART_FONT, sansSerifFamily: CHART_FONT },
  });
  return resvg.render().asPng();
}

/** Writes the spec, SVG and PNG beside each other at `basePath` + extension, creating folders as needed. */
export async function renderChart(spec: TopLevelSpec, basePath: string): Promise<ChartFiles> {
  const files = { specPath: `${basePath}.vl.json`, svgPath: `${basePath}.svg`, pngPath: `${basePath}.png` };
  const svg = await specToSvg(spec);
  // All three replace the previous chart together, or none does (a full disk keeps the last good chart).
  writeFilesAtomic([
    { path: files.specPath, data: `${JSON.stringify(spec, null, 2)}\n` },
    { path: files.svgPath, data: svg },
    { path: files.pngPath, data: svgToPng(svg) },
  ]);
  return files;
}
