/**
 * How a chart fits the page it is drawn on. A wrapped-facet spec (`facet` + `columns`, one panel per dataset) says
 * in `usermeta.fit` how wide a panel should at least be and how much room its axis labels take beside it; the HTML
 * page's script then picks the number of columns and the panel width from the container's width (so two datasets
 * sit side by side on a wide screen and one above the other on a narrow one), and shrinks the panels again if the
 * drawn chart still comes out wider. The PNG/SVG renderer ignores `usermeta` and draws the spec's own defaults.
 */

export interface FitMeta {
  /** Narrowest useful panel (px of the plot area). */
  minWidth: number;
  /** Room beside each panel: y-axis labels and title, padding. */
  reserve: number;
  /** Panels (facet cells) the chart has. */
  panels: number;
}

/** Approximate width in px of a label at vega's default 10–11 px sans-serif (DejaVu Sans: ~6.2 px a character). */
export const labelPx = (text: string): number => Math.ceil(text.length * 6.2) + 8;

/** The room y-axis labels take: the longest label, the axis title and padding. */
export function reserveFor(labels: Iterable<string>, axisTitle = true): number {
  let widest = 0;
  for (const l of labels) widest = Math.max(widest, labelPx(l));
  return widest + (axisTitle ? 30 : 12) + 16;
}

export function fitMeta(minWidth: number, reserve: number, panels: number): { fit: FitMeta } {
  return { fit: { minWidth, reserve, panels } };
}

/**
 * A chart title as lines of at most `max` characters, broken after `; `, `: ` or `, ` (else at spaces): vega
 * never wraps a title, and one long line would make the whole chart as wide as the title.
 */
export function wrapTitle(text: string, max = 90): string | string[] {
  if (text.length <= max) return text;
  const lines: string[] = [];
  let rest = text;
  while (rest.length > max) {
    const head = rest.slice(0, max + 1);
    const at = Math.max(head.lastIndexOf('; '), head.lastIndexOf(': '), head.lastIndexOf(', '));
    const cut = at > max / 3 ? at + 1 : head.lastIndexOf(' ') > 0 ? head.lastIndexOf(' ') : max;
    lines.push(rest.slice(0, cut).trim());
    rest = rest.slice(cut).trim();
  }
  if (rest) lines.push(rest);
  return lines;
}
