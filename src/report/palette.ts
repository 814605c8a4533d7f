/**
 * The one categorical palette of every chart, report and notebook: 24 colours that stay distinguishable side by
 * side, and a colour assignment that depends only on the series name, so a method keeps its colour in every chart
 * of every results file, whatever other methods are shown with it.
 *
 * Colours: Kelly's 20 colours of maximum contrast (K. L. Kelly, "Twenty-two colors of maximum contrast", Color
 * Engineering 3(6), 1965; white and black left out), plus four from Green-Armytage's "colour alphabet" (P.
 * Green-Armytage, "A Colour Alphabet and the Limits of Colour Coding", Colour: Design & Creativity 5, 2010) that
 * fill the hue gaps Kelly's set leaves (dark blue, teal, magenta, violet). palette.test.ts checks the minimum
 * pairwise CIE76 distance.
 *
 * Assignment: each name hashes (FNV-1a, 32 bit) to a preferred slot. Names sharing a slot are resolved by open
 * addressing in a fixed order — preferred slot, then name — so the result is the same on every machine and for any
 * order of the input; a name only moves when another name with the same preferred slot sorts before it. With more
 * names than colours, colours repeat (the legend and the outline keep them apart).
 */

/** Kelly (1965) 20 + Green-Armytage (2010) 4, as #rrggbb. */
export const PALETTE: readonly string[] = [
  '#F3C300', '#875692', '#F38400', '#A1CAF1', '#BE0032', '#C2B280', '#848482', '#008856', '#E68FAC', '#0067A5',
  '#F99379', '#604E97', '#F6A600', '#B3446C', '#DCD300', '#882D17', '#8DB600', '#654522', '#E25822', '#2B3D26',
  '#003380', '#00998F', '#C20088', '#740AFF',
];

/** FNV-1a over UTF-16 code units: tiny, stable across platforms and Node/Deno/browsers. */
export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** Colour of each name (see the header for the assignment rule). */
export function assignColors(names: Iterable<string>, palette: readonly string[] = PALETTE): Map<string, string> {
  const unique = [...new Set(names)];
  const preferred = new Map(unique.map((n) => [n, fnv1a(n) % palette.length]));
  const order = unique.sort((a, b) => preferred.get(a)! - preferred.get(b)! || (a < b ? -1 : a > b ? 1 : 0));
  const taken = new Set<number>();
  const out = new Map<string, string>();
  for (const name of order) {
    if (taken.size === palette.length) taken.clear(); // more names than colours: start a second round
    let slot = preferred.get(name)!;
    while (taken.has(slot)) slot = (slot + 1) % palette.length;
    taken.add(slot);
    out.set(name, palette[slot]!);
  }
  return out;
}

/** A Vega-Lite colour scale fixing each series' colour (domain and range in the same order). */
export function colorScale(names: Iterable<string>): { domain: string[]; range: string[] } {
  const colors = assignColors(names);
  const domain = [...colors.keys()].sort();
  return { domain, range: domain.map((n) => colors.get(n)!) };
}

/** Suffix that marks oracle / upper-bound series in every legend, table and drill-down. */
export const UPPER_BOUND_MARK = '(upper bound)';

/** The series label shown for a method: upper-bound methods carry the mark. */
export function markedLabel(label: string, upperBound: boolean): string {
  return upperBound && !label.includes(UPPER_BOUND_MARK) ? `${label} ${UPPER_BOUND_MARK}` : label;
}

/**
 * Vega-Lite encodings that outline upper-bound marks (black dashed border, lighter fill) so an oracle is never read
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
