/**
 * The headline rule's test of a cell at ceiling (headline.ts): a cell whose best method reaches this share says little
 * about the methods, so the rule prefers another. A verdict's own cells at ceiling are flagged in flags.ts.
 */

/** The share a cell's best method must reach for the headline rule to call the cell at ceiling. */
export const HEADLINE_CEILING = 0.99;
