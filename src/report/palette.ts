/**
 * The one categorical palette of every chart, report and notebook: 24 colours that stay distinguishable side by
 * side, and one colour per method id — the same in the PNG/SVG charts, the HTML report and the notebooks, whatever
 * other methods a chart shows.
 *
 * Colours: Kelly's 20 colours of maximum contrast (K. L. Kelly, "Twenty-two colors of maximum contrast", Color
 * Engineering 3(6), 1965; white and black left out), plus four from Green-Armytage's "colour alphabet" (P.
 * Green-Armytage, "A Colour Alphabet and the Limits of Colour Coding", Colour: Design & Creativity 5, 2010) that
 * fill the hue gaps Kelly's set leaves (dark blue, teal, magenta, violet). palette.test.ts checks the minimum
 * pairwise CIE76 distance.
 *
 * Assignment: a function of the method id alone (`methodColor`), never of the set of methods shown, so adding or
 * removing a method never recolours another. Two rules:
 *  1. `METHOD_COLORS`, a fixed table for the method ids of the committed experiment files, chosen once so that no two
 *     methods of one experiment file share a colour (palette.test.ts checks every file), and the routers fitted on one
 *     dataset (`adaptmr-from-<dataset>`) the colour its benchmark gives them (`display.fittedColours`). The
 *     reference (unified embedding) is grey, BM25 blue, full context dark olive.
 *  2. Any other id: its FNV-1a hash (32 bit) picks a palette slot, and bits of the same hash a shade of that colour
 *     (as is, 25% darker, 25% lighter), so two unknown ids share an exact colour only when their hashes agree on
 *     both — a collision the legend's full names still tell apart. Add the ids of a new experiment to the table
 *     when its chart needs every colour distinct (the test names the clashing ids).
 * A series label (`adaptmr (offline)`, `bm25 (turn, run-1) (gold-type routing)`) takes its method id's colour: method ids
 * have no spaces (the config schema), so the id is the label up to its first space.
 */
import { datasetEntry } from '../core/benchmarks-installed.ts';

/** Kelly (1965) 20 + Green-Armytage (2010) 4, as #rrggbb. */
export const PALETTE: readonly string[] = [
  '#F3C300',
  '#875692',
  '#F38400',
  '#A1CAF1',
  '#BE0032',
  '#C2B280',
  '#848482',
  '#008856',
  '#E68FAC',
  '#0067A5',
  '#F99379',
  '#604E97',
  '#F6A600',
  '#B3446C',
  '#DCD300',
  '#882D17',
  '#8DB600',
  '#654522',
  '#E25822',
  '#2B3D26',
  '#003380',
  '#00998F',
  '#C20088',
  '#740AFF',
];

/** Rule 1: the committed experiments' method ids (distinct within each experiment file). */
export const METHOD_COLORS: Readonly<Record<string, string>> = Object.freeze({
  'a-mem': '#E68FAC',
  'a-mem-offline': '#DCD300',
  'ablation-no-abstention-strategy': '#00998F',
  'ablation-no-entity-rerank': '#875692',
  'ablation-no-multi-hop-strategy': '#B3446C',
  'ablation-no-temporal-strategy': '#DCD300',
  'ablation-no-update-strategy': '#F3C300',
  'ablation-random-strategy': '#8DB600',
  'abstention-calibrated': '#BE0032',
  adaptmr: '#BE0032',
  'adaptmr-fusion': '#F6A600',
  'adaptmr-fusion-calibrated': '#875692',
  'adaptmr-fusion-llm': '#8DB600',
  'adaptmr-fusion-onnx': '#882D17',
  'adaptmr-fusion-rules': '#B3446C',
  'adaptmr-fusion-rules-bm25': '#00998F',
  'adaptmr-oracle': '#F99379',
  'adaptmr-rules': '#F38400',
  'adaptmr-single': '#A1CAF1',
  'adaptmr-single-llm': '#654522',
  'adaptmr-single-onnx': '#C2B280',
  'adaptmr-single-onnx-locomo': '#F3C300',
  'adaptmr-single-rules': '#DCD300',
  'adaptmr-single-rules-bm25': '#003380',
  'adaptmr-single-rules-hybrid': '#F6A600',
  bm25: '#0067A5',
  'bm25-session': '#E68FAC',
  'bm25-turn': '#2B3D26',
  'embed-session': '#604E97',
  'embed-turn': '#C20088',
  'factual-all-units': '#604E97',
  'full-context': '#2B3D26',
  'generative-agents': '#F99379',
  'generative-agents-offline': '#008856',
  hybrid: '#00998F',
  'longmemeval-rag': '#008856',
  'longmemeval-rag-offline': '#740AFF',
  'longmemeval-rag-paper': '#F38400',
  mem0: '#F99379',
  'multi-hop-semantic-base': '#F6A600',
  'python-reference': '#2B3D26',
  rae: '#A1CAF1',
  'rae-offline': '#B3446C',
  rago: '#604E97',
  'rago-offline': '#F3C300',
  reasoningbank: '#8DB600',
  'reasoningbank-cosine-offline': '#654522',
  'reasoningbank-offline': '#875692',
  'strategy-abstention': '#C20088',
  'strategy-factual': '#882D17',
  'strategy-multi-hop': '#740AFF',
  'strategy-temporal': '#604E97',
  'strategy-update': '#E25822',
  'temporal-semantic-base': '#8DB600',
  'unified-embedding': '#848482',
  'update-g1000': '#B3446C',
  'update-g2': '#E25822',
  'update-g3': '#C2B280',
  'update-g4': '#F3C300',
  'update-semantic-base': '#882D17',
  zep: '#F3C300',
});

/** FNV-1a over UTF-16 code units: tiny, stable across platforms and Node/Deno/browsers. */
export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** `#rrggbb` scaled towards black (f < 1) or white (f > 1). */
function shade(hex: string, f: number): string {
  const c = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  const out = c.map((v) => Math.round(f <= 1 ? v * f : v + (255 - v) * (f - 1)));
  return `#${out
    .map((v) => v.toString(16).padStart(2, '0'))
    .join('')
    .toUpperCase()}`;
}

/** A router fitted on one dataset (`adaptmr-from-<dataset>`): the colour its benchmark gives it (`display.fittedColours`). */
function fittedRouterColour(id: string): string | undefined {
  const prefix = 'adaptmr-from-';
  if (!id.startsWith(prefix)) return undefined;
  const entry = datasetEntry(id.slice(prefix.length));
  return entry?.benchmark.display.fittedColours?.[entry.dataset.name];
}

/** The method id a series label names: the label up to its first space (ids have none). */
export function methodIdOf(label: string): string {
  const i = label.indexOf(' ');
  return i < 0 ? label : label.slice(0, i);
}

/** The colour of a method id (or of a series label, by its id): see the header for the two rules. */
export function methodColor(idOrLabel: string): string {
  const id = methodIdOf(idOrLabel);
  const fixed = Object.hasOwn(METHOD_COLORS, id) ? METHOD_COLORS[id] : fittedRouterColour(id);
  if (fixed) return fixed;
  const h = fnv1a(id);
  const base = PALETTE[h % PALETTE.length]!;
  const variant = Math.floor(h / PALETTE.length) % 3;
  return variant === 0 ? base : shade(base, variant === 1 ? 0.75 : 1.25);
}

/** Colour of each name: `methodColor` of each (kept as a map for callers that colour a list). */
export function assignColors(names: Iterable<string>): Map<string, string> {
  return new Map([...new Set(names)].map((n) => [n, methodColor(n)]));
}

/** A Vega-Lite colour scale fixing each series' colour (domain sorted, range in the same order). */
export function colorScale(names: Iterable<string>): { domain: string[]; range: string[] } {
  const domain = [...new Set(names)].sort();
  return { domain, range: domain.map((n) => methodColor(n)) };
}

/**
 * The vega-lite config of every chart: legend, axis and facet-header labels are never shortened with an ellipsis
 * (`labelLimit: 0`) — a chart shows full method names, and its layout makes room for them.
 */
export const CHART_CONFIG = {
  background: 'white',
  legend: { labelLimit: 0, titleLimit: 0 },
  axis: { labelLimit: 0, titleLimit: 0 },
  header: { labelLimit: 0, titleLimit: 0 },
} as const;

/**
 * One colour per AdaptMR type where a chart colours by type (forest plots of ablations): Okabe & Ito's
 * colour-blind-safe set (M. Okabe, K. Ito, "Color Universal Design", 2002), `all` in black.
 */
export const TYPE_COLORS: Readonly<Record<string, string>> = Object.freeze({
  factual: '#0072B2',
  temporal: '#D55E00',
  update: '#009E73',
  'multi-hop': '#CC79A7',
  abstention: '#E69F00',
  all: '#000000',
});

/** A vega-lite colour scale over the AdaptMR types shown (type order). */
export function typeColorScale(types: Iterable<string>): { domain: string[]; range: string[] } {
  const shown = new Set(types);
  const domain = Object.keys(TYPE_COLORS).filter((t) => shown.has(t));
  return { domain, range: domain.map((t) => TYPE_COLORS[t]!) };
}

/** Suffix that marks gold-type (oracle) series in every legend, table and drill-down. */
export const UPPER_BOUND_MARK = '(gold-type routing)';

/** The series label shown for a method: upper-bound methods carry the mark. */
export function markedLabel(label: string, upperBound: boolean): string {
  return upperBound && !label.includes(UPPER_BOUND_MARK) ? `${label} ${UPPER_BOUND_MARK}` : label;
}

/**
 * Vega-Lite encodings that outline gold-type (oracle) marks (black dashed border, lighter fill) so an oracle is never read
 * as an achievable result; the data needs a boolean `upperBound` field.
 */
export function upperBoundEncoding(): Record<string, unknown> {
  const isUpper = 'datum.upperBound === true';
  return {
    stroke: { condition: { test: isUpper, value: '#000000' }, value: null },
    strokeWidth: { condition: { test: isUpper, value: 1.5 }, value: 0 },
    strokeDash: { condition: { test: isUpper, value: [3, 2] }, value: [1, 0] },
    fillOpacity: { condition: { test: isUpper, value: 0.45 }, value: 1 },
  };
}
