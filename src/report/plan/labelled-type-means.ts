/**
 * The prelude every per-type plan section shares: the file's degraded-method marks, the run's series labeller
 * ("(offline)" on stand-ins) and the run's per-type means with CIs at each dataset's headline, labelled by it.
 */
import type { ResultStore } from '../../store/index.ts';
import {
  loadDegradedMarks,
  markedMethod,
  seriesLabeller,
  type DegradedMarks,
  type SeriesKey,
} from '../series-label.ts';
import type { TypeMeanRow } from '../type-means.ts';
import { typeMeansOfRuns, type PlanRun } from './plan-runs.ts';

export interface LabelledTypeMeans {
  marks: DegradedMarks;
  label: (k: SeriesKey) => string;
  rows: TypeMeanRow[];
}

/**
 * `labelBy: 'series'` (default) names a series by method, with granularity when the run has several; `'method'`
 * leaves granularity out, so each method keeps one series (and colour) across the dataset facets.
 */
export async function labelledTypeMeans(
  store: ResultStore,
  run: Pick<PlanRun, 'runId' | 'headlineOf'>,
  labelBy: 'series' | 'method' = 'series',
): Promise<LabelledTypeMeans> {
  const marks = await loadDegradedMarks(store);
  const label =
    labelBy === 'method'
      ? (k: { run_id: string; method: string }): string => markedMethod(marks, k.run_id, k.method)
      : seriesLabeller(
          await store.query<SeriesKey>(`SELECT DISTINCT run_id, method, granularity FROM methods WHERE run_id = $1`, [
            run.runId,
          ]),
          marks,
        );
  const rows = await typeMeansOfRuns(store, [run.runId], run.headlineOf, label);
  return { marks, label, rows };
}
