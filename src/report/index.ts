/**
 * Report: per-type tables, chart specs and rendering (docs/design.md §3). Re-exports only.
 *   runReport(file, { outDir?, metric?, level?, ks? }) → { text, chart, qaChart }
 *   loadTypeMeans(store, { metric, level, k }) → TypeMeanRow[]          (from the scores_by_type view)
 *   perTypeTable(rows, title) → string                                    (cli-table3)
 *   recallByTypeSpec(rows, { title? }) → Vega-Lite spec                    (pure)
 *   renderChart(spec, basePath) → { specPath, svgPath, pngPath }          (shared by every chart)
 *   loadQaItems(store) → QaItem[]                                         (QA scores + judge verdicts per question)
 *   qaAccuracyByType(store, items, label) → TypeMeanRow[] (with sd)        longMemEvalTable / locomoTable(items, label)
 *   loadStageCosts(store, label) → StageCostRow[]; stageCostTable(rows)   (p50/p95 latency, tokens, cost per stage)
 *   seriesLabeller(keys, marks?) → label(key)                             (method + granularity/run when ambiguous, "(offline)")
 *   verdictTable(rows, title, marks?) / formatVerdict(row, marks?)        (the stored verdicts as a table / one line)
 */
export { runReport, REPORT_DEFAULTS, type ReportOptions, type ReportOutput } from './report.ts';
export { loadTypeMeans, type TypeMeanQuery, type TypeMeanRow } from './type-means.ts';
export { perTypeTable, TYPE_COLUMNS } from './per-type-table.ts';
export { recallByTypeSpec, type RecallByTypeOptions } from './recall-by-type-spec.ts';
export { renderChart, specToSvg, svgToPng, CHART_FONT, type ChartFiles } from './render-chart.ts';
export { seriesLabeller, loadDegradedMarks, loadMethodMarks, markedMethod, type SeriesKey } from './series-label.ts';
export { verdictTable, formatVerdict, verdictEstimate, type MethodMarks } from './verdict-table.ts';
export { loadQaItems, type QaItem } from './qa-items.ts';
export {
  qaAccuracyByType,
  longMemEvalTable,
  locomoTable,
  datasetProtocol,
  statCell,
  type QaProtocol,
} from './qa-tables.ts';
export { loadStageCosts, stageCostTable, type StageCostRow } from './cost-table.ts';
