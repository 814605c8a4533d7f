/**
 * The confusion-matrix heatmap of one evaluation as a vega-lite spec (rect marks, gold on y, predicted on x,
 * colour = share of the gold row, the count written in each cell). Rendering to SVG/PNG is the report helper's
 * job (`renderChart`).
 */
import type { TopLevelSpec } from 'vega-lite';
import { ADAPT_TYPES } from '../core/types.ts';
import type { EvalResult } from '../store/classifier-eval-types.ts';

export function confusionChartSpec(r: EvalResult): TopLevelSpec {
  const values = ADAPT_TYPES.flatMap((gold) => {
    const rowTotal = ADAPT_TYPES.reduce((s, p) => s + r.metrics.confusion[gold][p], 0);
    return ADAPT_TYPES.map((predicted) => {
      const count = r.metrics.confusion[gold][predicted];
      return { gold, predicted, count, share: rowTotal ? count / rowTotal : 0 };
    });
  });
  const title = `${r.label} on ${r.dataset}: accuracy ${(r.metrics.accuracy * 100).toFixed(1)}%, macro-F1 ${(r.metrics.macroF1 * 100).toFixed(1)}% (n=${r.metrics.n})`;
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: r.upperBound ? `${title} — gold type` : title,
    data: { values },
    width: 260,
    height: 260,
    encoding: {
      x: { field: 'predicted', type: 'nominal', sort: [...ADAPT_TYPES], title: 'predicted type' },
      y: { field: 'gold', type: 'nominal', sort: [...ADAPT_TYPES], title: 'gold type' },
    },
    layer: [
      {
        mark: 'rect',
        encoding: {
          color: {
            field: 'share',
            type: 'quantitative',
            title: 'share of gold row',
            scale: { domain: [0, 1], scheme: 'blues' },
          },
        },
      },
      {
        mark: { type: 'text', fontSize: 12 },
        encoding: {
          text: { field: 'count', type: 'quantitative' },
          color: { condition: { test: 'datum.share > 0.5', value: 'white' }, value: 'black' },
        },
      },
    ],
  } as TopLevelSpec;
}
