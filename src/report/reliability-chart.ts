/**
 * Reliability diagram (Guo et al. 2017, Fig. 1; DeGroot & Fienberg 1983) as a vega-lite spec: per confidence bin,
 * accuracy against mean confidence, one line per series (e.g. rules raw vs calibrated), point size = questions in
 * the bin, with the diagonal of perfect calibration. The series' ECE is written in the legend label.
 */
import type { TopLevelSpec } from 'vega-lite';

export interface ReliabilitySeries {
  name: string;
  ece: number;
  bins: readonly { lower: number; upper: number; n: number; confidence: number; accuracy: number }[];
}

export function reliabilityChartSpec(title: string, series: readonly ReliabilitySeries[]): TopLevelSpec {
  const values = series.flatMap((s) =>
    s.bins
      .filter((b) => b.n > 0)
      .map((b) => ({
        series: `${s.name} (ECE ${s.ece.toFixed(3)})`,
        confidence: b.confidence,
        accuracy: b.accuracy,
        n: b.n,
        bin: `${b.lower.toFixed(1)}–${b.upper.toFixed(1)}`,
      })),
  );
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title,
    width: 320,
    height: 320,
    layer: [
      {
        data: {
          values: [
            { x: 0, y: 0 },
            { x: 1, y: 1 },
          ],
        },
        mark: { type: 'line', strokeDash: [4, 4], color: 'gray' },
        encoding: {
          x: { field: 'x', type: 'quantitative', scale: { domain: [0, 1] }, title: 'mean confidence (top label)' },
          y: { field: 'y', type: 'quantitative', scale: { domain: [0, 1] }, title: 'accuracy' },
        },
      },
      {
        data: { values },
        mark: { type: 'line', point: false },
        encoding: {
          x: { field: 'confidence', type: 'quantitative' },
          y: { field: 'accuracy', type: 'quantitative' },
          color: { field: 'series', type: 'nominal', title: null },
        },
      },
      {
        data: { values },
        mark: { type: 'circle', opacity: 0.8 },
        encoding: {
          x: { field: 'confidence', type: 'quantitative' },
          y: { field: 'accuracy', type: 'quantitative' },
          color: {
            field: 'series',
            type: 'nominal',
            title: null,
            legend: { labelLimit: 400, orient: 'bottom', direction: 'vertical' },
          },
          size: { field: 'n', type: 'quantitative', title: 'questions', legend: { orient: 'right' } },
          tooltip: [
            { field: 'bin' },
            { field: 'n' },
            { field: 'confidence', format: '.3f' },
            { field: 'accuracy', format: '.3f' },
          ],
        },
      },
    ],
  } as TopLevelSpec;
}
