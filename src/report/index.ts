/**
 * Report: per-type tables, chart specs and rendering (DESIGN.md §3). Re-exports only.
 *   runReport(file, { outDir?, metric?, level?, ks? }) → { text, chart }
 *   loadTypeMeans(store, { metric, level, k }) → TypeMeanRow[]          (from the scores_by_type view)
 *   perTypeTable(rows, title) → string                                    (cli-table3)
 *   recallByTypeSpec(rows, { title? }) → Vega-Lite spec                    (pure)
 *   renderChart(spec, basePath) → { specPath, svgPath, pngPath }          (shared by every chart)
 */
export { runReport, REPORT_DEFAULTS, type ReportOptions, type ReportOutput } from './report.ts';
export { loadTypeMeans, type TypeMeanQuery, type TypeMeanRow } from './type-means.ts';
export { perTypeTable, TYPE_COLUMNS } from './per-type-table.ts';
export { recallByTypeSpec, type RecallByTypeOptions } from './recall-by-type-spec.ts';
export { renderChart, specToSvg, svgToPng, CHART_FONT, type ChartFiles } from './render-chart.ts';
