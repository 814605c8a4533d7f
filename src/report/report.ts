/**
 * `adaptmr report`: opens a results file read-only, builds the per-type table for each requested k and renders the
 * recall-by-type chart (first k) into `<outDir>/charts/`. Defaults follow LongMemEval's headline retrieval numbers:
 * recall_any at session level for k = 5 and 10. A file with QA rows adds the QA section (qa-tables.ts), the
 * accuracy-by-type chart, the judge-panel, probe, gold-version and answer-length tables (judges-section.ts,
 * gold-length-section.ts) and, with LLM calls, the latency/tokens/cost table (cost-table.ts). Methods without source ids
 * (Mem0) are named under each retrieval table as "n/a" (no-source-ids.ts); memory systems whose provider was cut to k, or
 * returned fewer, are named after them (provider-cuts.ts).
 */
import { unlockedNote } from './unlocked-note.ts';
import { dirname, join } from 'node:path';
import { ensureWritableDir } from '../core/writable-dir.ts';
import { openResultStore, readVerdicts, type ResultStore } from '../store/index.ts';
import { loadStageCosts, stageCostTable } from './cost-table.ts';
import {
  costPerCorrectTable,
  cutoffAccuracyTable,
  loadCostPerCorrect,
  loadCutoffAccuracy,
} from './cost-per-correct.ts';
import { perTypeTable } from './per-type-table.ts';
import { methodsWithoutSourceIds, noSourceIdsNote } from './no-source-ids.ts';
import { loadProviderCuts, providerCutsNote } from './provider-cuts.ts';
import { loadReplicateSpread, replicateSpreadTable } from './replicate-spread.ts';
import { loadQaItems } from './qa-items.ts';
import { locomoTable, longMemEvalTable, qaAccuracyByType } from './qa-tables.ts';
import { judgeSections } from './judges-section.ts';
import { answerLengthSection, goldVersionsSection } from './gold-length-section.ts';
import { recallByTypeSpec } from './recall-by-type-spec.ts';
import { renderChart, type ChartFiles } from './render-chart.ts';
import { loadNoMemoryMethods, noMemoryGainTable } from './no-memory-gain.ts';
import { loadDegradedMarks, seriesLabeller, type SeriesKey } from './series-label.ts';
import { loadTypeMeans } from './type-means.ts';
import { comparisonsTable, loadComparisons } from './comparison-cells.ts';
import { refreshFileStats } from './refresh.ts';
import { familiesTable } from './findings-text.ts';
import { planSections } from './plan/index.ts';

export const REPORT_DEFAULTS = { metric: 'recall_any', level: 'session', ks: [5, 10] } as const;

export interface ReportOptions {
  /** Default: the results file's folder. */
  outDir?: string;
  metric?: string;
  level?: string;
  ks?: readonly number[];
  /** Recompute the file's statistics first when its rows changed (default true; needs a writable open). */
  refreshStats?: boolean;
}

export interface ReportOutput {
  text: string;
  /** Null when the file has no counted scores for the chosen metric. */
  chart: ChartFiles | null;
  /** The accuracy-by-type chart; null when the file has no counted judge accuracy. */
  qaChart: ChartFiles | null;
  /** Charts of the plan-experiment sections. */
  planCharts: ChartFiles[];
}

const QA_ACCURACY_TITLE = 'QA accuracy (LLM judge) by AdaptMR type';

/** QA tables, the accuracy chart and the cost table; no text at all when the file has no QA rows and no LLM calls. */
async function qaSection(store: ResultStore, chartsDir: string): Promise<{ text: string[]; chart: ChartFiles | null }> {
  // One labeller over every method variant of the file, so a method has one name in all QA and cost tables.
  const label = seriesLabeller(
    await store.query<SeriesKey>(
      `SELECT DISTINCT run_id, method, granularity FROM retrievals UNION SELECT DISTINCT run_id, method, granularity FROM scores`,
    ),
    await loadDegradedMarks(store),
  );
  const items = await loadQaItems(store);
  const text: string[] = [];
  let chart: ChartFiles | null = null;
  if (items.length > 0) {
    const byType = await qaAccuracyByType(store, items, label);
    if (byType.length > 0) {
      text.push(perTypeTable(byType, `${QA_ACCURACY_TITLE} (counted questions; ± sd over judge runs)`));
      chart = await renderChart(
        recallByTypeSpec(byType, { title: QA_ACCURACY_TITLE }),
        join(chartsDir, 'accuracy-by-type'),
      );
    }
    for (const t of [longMemEvalTable(items, label), locomoTable(items, label)]) if (t) text.push(t);
    const gain = noMemoryGainTable(items, await loadNoMemoryMethods(store), label);
    if (gain) text.push(gain);
    // Judge panels, leniency probes, gold versions, answer length (docs/qa-and-judges.md).
    text.push(...(await judgeSections(store, label)));
    for (const t of [await goldVersionsSection(store, label), await answerLengthSection(store, label)])
      if (t) text.push(t);
    const cutoffs = cutoffAccuracyTable(await loadCutoffAccuracy(store, label));
    if (cutoffs) text.push(cutoffs);
  }
  const costs = stageCostTable(await loadStageCosts(store, label));
  if (costs) text.push(costs);
  const perCorrect = costs ? costPerCorrectTable(await loadCostPerCorrect(store, label)) : null;
  if (perCorrect) text.push(perCorrect);
  return { text, chart };
}

/** Lists the metric/level/k combinations the file does hold, for a report that found nothing to show. */
async function availableHint(store: ResultStore): Promise<string> {
  const rows = await store.query<{ metric: string; level: string; ks: (number | null)[] }>(
    `SELECT metric, level, list(DISTINCT k ORDER BY k) AS ks FROM scores_by_type GROUP BY metric, level ORDER BY ALL`,
  );
  if (rows.length === 0) return 'the file holds no counted scores yet';
  return `available: ${rows.map((r) => `${r.metric}/${r.level} k=${r.ks.map((k) => k ?? 'none').join(',')}`).join('; ')}`;
}

/**
 * What a level's number is, for table titles: at session level a method that ranks turns (or rounds) is scored on
 * the sessions of its top units — "session of top turns" — so on LoCoMo-as-turns the session table is not a session
 * ranking. Names the datasets and how many of their methods that concerns.
 */
export async function levelLabel(store: ResultStore, level: string): Promise<string> {
  if (level !== 'session') return `${level} level`;
  const rows = await store.query<{ dataset: string; derived: number; methods: number }>(
    `SELECT dataset, count(DISTINCT CASE WHEN granularity IN ('turn', 'round') THEN run_id || '/' || method END)::INTEGER AS derived,
            count(DISTINCT run_id || '/' || method)::INTEGER AS methods
     FROM retrievals GROUP BY dataset HAVING derived > 0 ORDER BY dataset`,
  );
  if (rows.length === 0) return 'session level';
  return `session level; ${rows.map((r) => `${r.dataset}: session of top turns${r.derived === r.methods ? '' : ` for the ${r.derived} methods that rank turns`}`).join('; ')}`;
}

/** The across-replicate spread tables (methods run with `replicates: n`): the retrieval metric at the first k, and
 * judged QA accuracy. */
async function replicateSpreads(
  store: ResultStore,
  metric: string,
  level: string,
  k: number | null,
  levelText: string,
): Promise<string[]> {
  const retrieval = replicateSpreadTable(
    await loadReplicateSpread(store, { metric, level, k }),
    `Across replicates, ${metric}@${k} (${levelText}): mean of the replicates' per-type means [min–max] sd`,
  );
  const qa = replicateSpreadTable(
    await loadReplicateSpread(store, { metric: 'accuracy', level: 'qa', k: null }),
    "Across replicates, QA accuracy (LLM judge): mean of the replicates' per-type means [min–max] sd",
  );
  return [retrieval, qa].filter((t): t is string => t !== null);
}

export async function runReport(file: string, opts: ReportOptions = {}): Promise<ReportOutput> {
  const metric = opts.metric ?? REPORT_DEFAULTS.metric;
  const level = opts.level ?? REPORT_DEFAULTS.level;
  const ks = opts.ks && opts.ks.length > 0 ? opts.ks : REPORT_DEFAULTS.ks;
  const statsNote = opts.refreshStats === false ? null : await refreshFileStats(file);
  const store = await openResultStore(file, { readOnly: true });
  try {
    const unlocked = await unlockedNote(store);
    const tables: string[] = [...(unlocked ? [unlocked] : []), ...(statsNote ? [statsNote] : [])];
    let chart: ChartFiles | null = null;
    const chartsDir = join(opts.outDir ?? dirname(file), 'charts');
    ensureWritableDir(chartsDir, 'charts folder', 'choose another --out');
    const note = noSourceIdsNote(await methodsWithoutSourceIds(store));
    const marks = await loadDegradedMarks(store);
    const levelText = await levelLabel(store, level);
    for (const [i, k] of ks.entries()) {
      const rows = await loadTypeMeans(store, { metric, level, k, marks });
      const title = `${metric}@${k} (${levelText})`;
      tables.push(note ? `${perTypeTable(rows, title)}\n${note}` : perTypeTable(rows, title));
      if (i === 0 && rows.length > 0) {
        chart = await renderChart(recallByTypeSpec(rows, { title }), join(chartsDir, 'recall-by-type'));
      }
    }
    if (chart === null) tables.push(await availableHint(store));
    const cuts = providerCutsNote(await loadProviderCuts(store));
    if (cuts) tables.push(cuts);
    tables.push(...(await replicateSpreads(store, metric, level, ks[0] ?? null, levelText)));
    const k0 = ks[0] ?? null;
    const label = seriesLabeller(
      await store.query<SeriesKey>(`SELECT DISTINCT run_id, method, granularity FROM methods`),
      marks,
    );
    const cmp = comparisonsTable(
      await loadComparisons(store, { metric, level, k: k0 }),
      `Paired comparisons, ${metric}@${k0} (${levelText}), each method vs its run's reference`,
      label,
    );
    if (cmp) tables.push(cmp);
    const qa = await qaSection(store, chartsDir);
    // The plan's experiments (runs with a `plan:` block), each with its own section and chart.
    const sections = await planSections(store, chartsDir);
    const planText = sections.map(
      (s) => `${'═'.repeat(100)}\n${s.text}${s.charts.map((c) => `\nchart: ${c.pngPath} (${c.svgPath})`).join('')}`,
    );
    const families = familiesTable(await readVerdicts(store));
    return {
      text: [...tables, ...qa.text, ...planText, ...(families ? [families] : [])].join('\n\n'),
      chart,
      qaChart: qa.chart,
      planCharts: sections.flatMap((s) => s.charts),
    };
  } finally {
    await store.close();
  }
}
