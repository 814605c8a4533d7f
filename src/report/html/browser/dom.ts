/**
 * The page script's DOM and text helpers: `h` builds an element whose texts from the data go in as text nodes
 * (never markup), and the number formats of the client-rendered tables. A difference in points is written by the
 * verdict rule's own `points` (src/eval/verdicts/rule.ts), so the page and the verdicts table print it alike.
 */
import { points } from '../../../eval/verdicts/rule.ts';

export interface Attrs {
  text?: string;
  onclick?: () => void;
  [name: string]: string | (() => void) | undefined;
}
export type Child = Node | string | null | undefined;

export function h(tag: string, attrs?: Attrs, children?: Child[]): HTMLElement {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs ?? {})) {
    if (k === 'text') node.textContent = v as string;
    else if (k === 'onclick') node.addEventListener('click', v as () => void);
    else node.setAttribute(k, String(v));
  }
  for (const c of children ?? []) {
    if (c !== null && c !== undefined) node.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
  }
  return node;
}

/** No value: null, undefined or not a number (the tables print a dash). */
const missing = (x: unknown): boolean => x === null || x === undefined || Number.isNaN(Number(x));
export const pct = (x: unknown): string => (missing(x) ? '—' : `${(Number(x) * 100).toFixed(1)}%`);
export const num = (x: unknown, digits: number): string => (missing(x) ? '—' : Number(x).toFixed(digits));
export const pts = (x: unknown): string => (missing(x) ? '—' : points(Number(x)));
export const pText = (p: unknown): string =>
  typeof p !== 'number' || Number.isNaN(p) ? 'n/a' : p < 0.001 ? '< 0.001' : p.toFixed(3);
export const uniq = <T>(xs: T[]): T[] => xs.filter((x, i) => xs.indexOf(x) === i);

export const TYPES = ['all', 'factual', 'temporal', 'update', 'multi-hop', 'abstention'];
const UB = ' (gold-type routing)';
/** A series' name, marked when its run routed by the gold type (gold-type routing, not a bound). */
export const label = (series: string, upper: boolean): string =>
  upper && series.indexOf(UB) < 0 ? series + UB : series;

/** The series' colour swatch, or nothing for a series without a colour. */
export function swatch(colors: Record<string, string>, series: string): HTMLElement | null {
  const c = colors[series];
  return c ? h('span', { class: 'swatch', style: `background:${c}` }) : null;
}

export const byId = <T extends HTMLElement = HTMLElement>(id: string): T | null =>
  document.getElementById(id) as T | null;
