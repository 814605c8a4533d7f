/**
 * `adaptmr report`: opens a results file read-only, builds the per-type table for each requested k and renders the
 * recall-by-type chart (first k) into `<outDir>/charts/`. Defaults follow LongMemEval's headline retrieval numbers:
 * recall_any at session level for k = 5 and 10.
 */
import { dirname, join } from 'node:path';
import { openResultStore, type ResultStore } from '../store/index.ts';
import { perTypeTable } from './per-type-table.ts';
import { recallByTypeSpec } from './recall-by-type-spec.ts';
import { renderChart, type ChartFiles } from './render-chart.ts';
import { loadTypeMeans } from './type-means.ts';

export const REPORT_DEFAULTS = { metric: 'recall_any', level: 'session', ks: [5, 10] } as const;

export interface ReportOptions {
  /** Default: the results file's folder. */
  outDir?: string;
  metric?: string;
  level?: string;
  ks?: readonly number[];
}

export interface ReportOutput {
  text: string;
  /** Null when the file has no counted scores for the chosen metric. */
  chart: ChartFiles | null;
}

/** Lists the metric/level/k combinations the file does hold, for a report that found nothing to show. */
async function availableHint(store: ResultStore): Promise<string> {
  const rows = await store.query<{ metric: string; level: string; ks: (number | null)[] }>(
    `SELECT metric, level, list(DISTINCT k ORDER BY k) AS ks FROM scores_by_type GROUP BY metric, level ORDER BY ALL`,
  );
  if (rows.length === 0) return 'the file holds no counted scores yet';
  return `available: ${rows.map((r) => `${r.metric}/${r.level} k=${r.ks.map((k) => k ?? 'none').join(',')}`).join('; ')}`;
}

export async function runReport(file: string, opts: ReportOptions = {}): Promise<ReportOutput> {
  const metric = opts.metric ?? REPORT_DEFAULTS.metric;
  const level = opts.level ?? REPORT_DEFAULTS.level;
  const ks = opts.ks && opts.ks.length > 0 ? opts.ks : REPORT_DEFAULTS.ks;
  const store = await openResultStore(file, { readOnly: true });
  try {
    const tables: string[] = [];
    let chart: ChartFiles | null = null;
    for (const [i, k] of ks.entries()) {
      const rows = await loadTypeMeans(store, { metric, level, k });
      const title = `${metric}@${k} (${level} level)`;
      tables.push(perTypeTable(rows, title));
      if (i === 0 && rows.length > 0) {
        const base = join(opts.outDir ?? dirname(file), 'charts', 'recall-by-type');
        chart = await renderChart(recallByTypeSpec(rows, { title }), base);
      }
    }
    if (chart === null) tables.push(await availableHint(store));
    return { text: tables.join('\n\n'), chart };
  } finally {
    await store.close();
  }
}
