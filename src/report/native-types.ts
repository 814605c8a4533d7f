/**
 * Scores per native type beside the AdaptMR types, for every dataset whose AdaptMR types pool several of its
 * benchmark's native labels (e.g. a "temporal" that averages temporal reasoning with event ordering; abilities
 * outside the five pooled under `outside`), or whose benchmark asks for it (`display.perNativeType`): an average never
 * hides a native type at chance. Driven by the native labels the results file stores with each question
 * (`questions.native_type`, as the benchmark's `mapType` gave them), never by a dataset's name. Read from
 * `scores_by_type` (its adapt_type × native_type cells, with their bootstrap CIs) at each dataset's headline; shown on
 * the HTML page (a table and a dot plot) and in the notebooks; the terminal report of the beyond-benchmarks run has
 * its own (src/plan-experiments/beyond-benchmarks/section.ts).
 */
import { datasetEntry } from '../core/benchmarks-installed.ts';
import type { ResultStore } from '../store/index.ts';
import type { SeriesKey } from './series-label.ts';

/** One cell: a method's mean on one native type of a dataset, at the dataset's headline. */
export interface NativeTypeScore {
  dataset: string;
  series: string;
  upperBound: boolean;
  level: string;
  metric: string;
  k: number | null;
  granularity: string;
  /** `<AdaptMR type> · <native type>` (the type the native label is averaged into first). */
  type: string;
  adaptType: string;
  nativeType: string;
  n: number;
  mean: number;
  ciLow: number | null;
  ciHigh: number | null;
}

/**
 * The datasets shown per native type: those whose AdaptMR types pool two or more native labels (one of their types
 * averages several), and those whose benchmark asks for it (`display.perNativeType`, src/core/benchmark.ts).
 */
export async function pooledDatasets(store: ResultStore): Promise<Set<string>> {
  const rows = await store.query<{ dataset: string; natives: number }>(
    `SELECT dataset, max(natives)::INT AS natives FROM (
       SELECT dataset, adapt_type, count(DISTINCT native_type) AS natives FROM questions GROUP BY dataset, adapt_type)
     GROUP BY dataset ORDER BY dataset`,
  );
  return new Set(
    rows
      .filter((r) => r.natives > 1 || datasetEntry(r.dataset)?.benchmark.display.perNativeType === true)
      .map((r) => r.dataset),
  );
}

interface Row extends SeriesKey {
  dataset: string;
  level: string;
  metric: string;
  k: number | null;
  adapt_type: string;
  native_type: string;
  n: number;
  mean: number;
  ci_low: number | null;
  ci_high: number | null;
}

/**
 * Every native type's cells of the pooled datasets at each dataset's headline (metric, level, k); `ci` is false for
 * a file whose `scores_by_type` has no CI columns.
 */
export async function loadNativeScores(
  store: ResultStore,
  headlines: Readonly<Record<string, { metric: string; level: string; k: number | null }>>,
  label: (r: SeriesKey) => string,
  isUpper: (r: SeriesKey) => boolean,
  ci = true,
): Promise<NativeTypeScore[]> {
  const pooled = [...(await pooledDatasets(store))].filter((d) => headlines[d]);
  if (pooled.length === 0) return [];
  // One clause per pooled dataset: its headline cell only (the view holds every metric and k).
  const params = pooled.flatMap((d) => [d, headlines[d]!.metric, headlines[d]!.level, headlines[d]!.k ?? -1]);
  const where = pooled
    .map(
      (_, i) =>
        `(dataset = $${4 * i + 1} AND metric = $${4 * i + 2} AND level = $${4 * i + 3} AND coalesce(k, -1) = $${4 * i + 4})`,
    )
    .join(' OR ');
  const rows = await store.query<Row>(
    `SELECT run_id, dataset, method, granularity, level, metric, k, adapt_type, native_type, n, mean,
       ${ci ? 'ci_low, ci_high' : 'NULL AS ci_low, NULL AS ci_high'}
     FROM scores_by_type WHERE native_type <> 'all' AND adapt_type <> 'all' AND (${where})
     ORDER BY dataset, adapt_type, native_type, method, run_id`,
    params,
  );
  return rows.map((r) => ({
    dataset: r.dataset,
    series: label(r),
    upperBound: isUpper(r),
    level: r.level,
    metric: r.metric,
    k: r.k,
    granularity: r.granularity,
    type: `${r.adapt_type} · ${r.native_type}`,
    adaptType: r.adapt_type,
    nativeType: r.native_type,
    n: r.n,
    mean: r.mean,
    ciLow: r.ci_low,
    ciHigh: r.ci_high,
  }));
}

const pct = (x: number): string => `${(x * 100).toFixed(1)}`;

/** A cell's text: mean [CI] (n), in percent. */
export const nativeCell = (r: Pick<NativeTypeScore, 'mean' | 'ciLow' | 'ciHigh' | 'n'>): string =>
  `${pct(r.mean)}${r.ciLow === null || r.ciHigh === null ? '' : ` [${pct(r.ciLow)}, ${pct(r.ciHigh)}]`} (${r.n})`;

/** Per dataset: its native types (columns, grouped by AdaptMR type) and one row per method. */
export function nativeGrid(
  rows: readonly NativeTypeScore[],
  methodOf: (r: NativeTypeScore) => string,
): { dataset: string; columns: string[]; rows: { method: string; cells: (string | null)[] }[] }[] {
  const datasets = [...new Set(rows.map((r) => r.dataset))];
  return datasets.map((dataset) => {
    const mine = rows.filter((r) => r.dataset === dataset);
    const columns = [...new Set(mine.map((r) => r.type))];
    const methods = [...new Set(mine.map(methodOf))];
    return {
      dataset,
      columns,
      rows: methods.map((method) => ({
        method,
        cells: columns.map((c) => {
          const r = mine.find((x) => x.type === c && methodOf(x) === method);
          return r ? nativeCell(r) : null;
        }),
      })),
    };
  });
}
