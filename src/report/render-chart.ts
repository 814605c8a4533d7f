/**
 * Renders any Vega-Lite spec to `<base>.vl.json`, `<base>.svg` and `<base>.png` (docs/design.md §7): vega-lite compiles
 * the spec, a headless vega View (renderer 'none') produces SVG, and resvg rasterises it. resvg draws text only
 * with a font it can load: it reads the system fonts and maps vega's default `sans-serif` to DejaVu Sans (Debian
 * package fonts-dejavu-core); without any system font the PNG would have bars but no text.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { basename } from 'node:path';
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

/**
 * Characters XML 1.0 does not allow in a document (§2.2 Char: C0 controls other than tab, newline and carriage
 * return; lone surrogates; U+FFFE, U+FFFF). vega writes text from the data (a dataset or method name) into the SVG
 * as it is, escaping only markup, so such a character would make the SVG unparseable (resvg refuses it).
 */
// eslint-disable-next-line no-control-regex
const XML_FORBIDDEN =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/gu;

/** An SVG with every character XML forbids removed (the SVG file, the PNG and notebook outputs all use this). */
export function xmlSafe(svg: string): string {
  return svg.replace(XML_FORBIDDEN, '');
}

export async function specToSvg(spec: TopLevelSpec): Promise<string> {
  // Errors only: vega-lite's warnings about faceted independent scales are expected for our per-dataset facets and
  // would otherwise land on stderr (and in notebook outputs) on every chart.
  const view = new View(parse(compile(spec, { logger: QUIET }).spec), { renderer: 'none', logLevel: VEGA_ERROR });
  try {
    return xmlSafe(await view.toSVG());
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

/** A chart a section asked to render, kept as its spec (`captureCharts`). */
export interface CapturedChart {
  /** The file name the chart would have had (`exp2-oracle-upper-bound`). */
  name: string;
  spec: TopLevelSpec;
}

const capturing = new AsyncLocalStorage<CapturedChart[]>();

/**
 * Runs `fn` with `renderChart` collecting specs instead of writing files: the HTML report embeds the plan sections'
 * charts as live vega views, and renders nothing to disk (the paths `renderChart` returns inside are not written).
 */
export async function captureCharts<T>(fn: () => Promise<T>): Promise<{ result: T; charts: CapturedChart[] }> {
  const charts: CapturedChart[] = [];
  const result = await capturing.run(charts, fn);
  return { result, charts };
}

/** Writes the spec, SVG and PNG beside each other at `basePath` + extension, creating folders as needed. */
export async function renderChart(spec: TopLevelSpec, basePath: string): Promise<ChartFiles> {
  const files = { specPath: `${basePath}.vl.json`, svgPath: `${basePath}.svg`, pngPath: `${basePath}.png` };
  const captured = capturing.getStore();
  if (captured) {
    captured.push({ name: basename(basePath), spec });
    return files;
  }
  const svg = await specToSvg(spec);
  // All three replace the previous chart together, or none does (a full disk keeps the last good chart).
  writeFilesAtomic([
    { path: files.specPath, data: `${JSON.stringify(spec, null, 2)}\n` },
    { path: files.svgPath, data: svg },
    { path: files.pngPath, data: svgToPng(svg) },
  ]);
  return files;
}
