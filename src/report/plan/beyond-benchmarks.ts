/**
 * The section of `experiments/beyond-lme-locomo.yaml` (plan: { experiment: beyond-benchmarks }): the plan's
 * comparison carried to BEAM, MemDaily (Chinese) and LoCoMo-Plus. Each dataset at its own headline metric:
 * - every method's per-type mean with its 95% CI (the five types, and LoCoMo-Plus's `cognitive` as its own type);
 * - BEAM's abilities outside the five types (preference following, instruction following, summarization), which no
 *   per-type or overall average contains, per ability with CIs;
 * - paired comparisons of every method with the reference (first unified-embedding method), Holm-corrected per
 *   family, and the plan's predictions checked on the best AdaptMR variant (as plan experiment 3);
 * - the oracle of plan experiment 2 (the best strategy per type chosen on a seeded half, reported on the other)
 *   against the reference, with its verdict — it works for any type label, so `cognitive` gets its best strategy too;
 * - the Chinese dataset's per-type recall next to the English one's (plan.languages).
 * Chart: per-type bars with CIs.
 */
import { join } from 'node:path';
import Table from 'cli-table3';
import type { ResultStore } from '../../store/index.ts';
import { loadScoreInputs } from '../../store/index.ts';
import { comparisonsTable } from '../comparison-cells.ts';
import { perTypeTable, typeColumns } from '../per-type-table.ts';
import { recallByTypeSpec } from '../recall-by-type-spec.ts';
import { renderChart } from '../render-chart.ts';
import { seriesLabeller, type SeriesKey } from '../series-label.ts';
import { gapVerdict, predictionLine } from './beyond-legacy.ts';
import { oracleGap } from './oracle-gap.ts';
import { headlineComparisons, headlineTitle, isHeadline, pct, points, runHeadlineTitle, typeMeansOfRuns, type Headline, type PlanRun } from './plan-runs.ts';
import { meanCi, pctCi } from './question-means.ts';
import type { PlanSection } from './section.ts';

const WEAK_TYPES = ['temporal', 'update'] as const;

/** BEAM's abilities kept out of the headline: dataset × method rows, one column per ability, at the dataset's headline metric. */
async function outsideTable(store: ResultStore, run: PlanRun, resamples: number, label: (k: SeriesKey) => string): Promise<string | null> {
  const cells = new Map<string, string>();
  const rowKeys: string[] = [];
  const abilities = new Set<string>();
  for (const dataset of run.datasets) {
    const h: Headline = run.headlineOf(dataset);
    const rows = await store.query<{ method: string; granularity: string; native_type: string; question_id: string; value: number }>(
      `SELECT s.method, s.granularity, q.native_type, s.question_id, s.value FROM scores s
       JOIN questions q ON q.run_id = s.run_id AND q.dataset = s.dataset AND q.question_id = s.question_id
       WHERE s.run_id = $1 AND s.dataset = $2 AND q.adapt_type = 'outside' AND s.metric = $3 AND s.level = $4 AND s.k IS NOT DISTINCT FROM $5
       ORDER BY s.method, q.native_type, s.question_id`,
      [run.runId, dataset, h.metric, h.level, h.k]);
    const groups = new Map<string, typeof rows>();
    for (const r of rows) {
      const key = `${dataset}\t${label({ run_id: run.runId, method: r.method, granularity: r.granularity })}\t${r.native_type}`;
      groups.set(key, [...(groups.get(key) ?? []), r]);
    }
    for (const [key, list] of groups) {
      const [, series, ability] = key.split('\t') as [string, string, string];
      abilities.add(ability);
      const rowKey = `${dataset}\t${series}`;
      if (!rowKeys.includes(rowKey)) rowKeys.push(rowKey);
      cells.set(`${rowKey}\t${ability}`, pctCi(meanCi(list.map((r) => ({ questionId: r.question_id, value: r.value })), run.seed, resamples, `outside\t${key}`)));
    }
  }
  if (rowKeys.length === 0) return null;
  const cols = [...abilities].sort();
  const table = new Table({ head: ['dataset', 'method', ...cols], style: { head: [], border: [], compact: true } });
  for (const rowKey of rowKeys) table.push([...rowKey.split('\t'), ...cols.map((a) => cells.get(`${rowKey}\t${a}`) ?? '—')]);
  return [
    'Outside the per-type headline: BEAM abilities that fit none of the five types (a new task judged for compliance, or a summary), in no per-type or overall mean above; each dataset at its headline metric, mean [95% CI] (n)',
    table.toString(),
  ].join('\n');
}

/** The Chinese dataset's per-type means next to the English dataset's, per method, both at one metric. */
function languagesTable(rows: Awaited<ReturnType<typeof typeMeansOfRuns>>, zh: string, en: string, h: Headline): string | null {
  const zhRows = rows.filter((r) => r.dataset === zh);
  const enRows = rows.filter((r) => r.dataset === en);
  if (zhRows.length === 0 || enRows.length === 0) return null;
  const types = typeColumns(zhRows.map((r) => r.adaptType)).filter((t) => zhRows.some((r) => r.adaptType === t));
  const table = new Table({ head: ['method', ...types.flatMap((t) => [`${t} zh`, `${t} en`])], style: { head: [], border: [], compact: true } });
  const cell = (list: typeof rows, series: string, t: string): string => {
    const r = list.find((x) => x.series === series && x.adaptType === t);
    return r ? `${pct(r.mean)}${r.ciLow !== undefined && r.ciHigh !== undefined ? ` [${pct(r.ciLow)}, ${pct(r.ciHigh)}]` : ''} (${r.n})` : '—';
  };
  for (const series of [...new Set(zhRows.map((r) => r.series))]) {
    table.push([series, ...types.flatMap((t) => [cell(zhRows, series, t), cell(enRows, series, t)])]);
  }
  return [
    `Chinese (${zh}) next to English (${en}), both at ${headlineTitle(h)}: the same methods, analyser, embedder, time parser and classifiers on both.`,
    'The datasets differ in more than language (a 4–16-message history against a 190–390-message chat; question style), so a gap is not a language effect alone.',
    table.toString(),
  ].join('\n');
}

export async function beyondBenchmarksSection(store: ResultStore, run: PlanRun, chartsDir: string, resamples: number): Promise<PlanSection> {
  const label = seriesLabeller(await store.query<SeriesKey>(`SELECT DISTINCT run_id, method, granularity FROM methods WHERE run_id = $1`, [run.runId]));
  const rows = await typeMeansOfRuns(store, [run.runId], run.headlineOf, label);
  const title = `Beyond LongMemEval and LoCoMo — ${runHeadlineTitle(run)}, run ${run.name}`;
  const text: string[] = [perTypeTable(rows, title)];
  const outside = await outsideTable(store, run, resamples, label);
  if (outside) text.push(outside);

  const cmp = await headlineComparisons(store, [run.runId], run.headlineOf, run.datasets);
  const table = comparisonsTable(cmp, `Paired comparisons vs ${run.reference} (${runHeadlineTitle(run)})`, label);
  if (table) text.push(table);
  const adaptmr = new Set(run.methods.filter((m) => m.method === 'adaptmr').map((m) => m.id));
  const upper = new Set((await store.query<{ method: string }>(`SELECT method FROM methods WHERE run_id = $1 AND upper_bound`, [run.runId])).map((r) => r.method));
  for (const dataset of run.datasets) {
    const overall = cmp
      .filter((c) => c.dataset === dataset && c.adaptType === 'all' && adaptmr.has(c.methodA) && !upper.has(c.methodA))
      .sort((a, b) => b.meanDiff - a.meanDiff || a.pHolm - b.pHolm || b.ciLow - a.ciLow);
    const best = overall[0];
    if (!best) continue;
    const lines = [
      `${dataset} (${headlineTitle(run.headlineOf(dataset))}): plan predictions for the best deployable AdaptMR variant overall (${best.methodA}, chosen on these questions, so optimistic; oracle routes excluded):`,
      predictionLine(best, 5, 10, 'overall'),
    ];
    for (const t of WEAK_TYPES) {
      const c = cmp.find((x) => x.dataset === dataset && x.methodA === best.methodA && x.adaptType === t);
      if (c) lines.push(predictionLine(c, 15, 25, t));
    }
    text.push(lines.join('\n'));
  }

  const strategies = run.methods.filter((m) => m.method === 'strategy').map((m) => m.id);
  if (run.reference && strategies.length >= 2) {
    const scores = (await loadScoreInputs(store))
      .filter((s) => s.runId === run.runId && isHeadline(run.headlineOf, s))
      .map((s) => ({ dataset: s.dataset, questionId: s.questionId, adaptType: s.adaptType, method: s.method, value: s.value }));
    const split = run.plan.split ?? 0.5;
    const target = run.plan.gapTarget ?? 10;
    const gaps = oracleGap({ scores, strategies, reference: run.reference, split, seed: run.seed, resamples });
    const ot = new Table({ head: ['dataset', 'type', 'strategy chosen', 'n', 'oracle [95% CI]', `${run.reference} [95% CI]`, 'gap [95% CI] p'], style: { head: [], border: [], compact: true } });
    const ci = (i: { estimate: number; low: number; high: number }): string => `${pct(i.estimate)} [${pct(i.low)}, ${pct(i.high)}]`;
    for (const r of gaps) {
      ot.push([r.dataset, r.adaptType, r.adaptType === 'all' ? '(per type)' : r.chosen, r.n, ci(r.oracle), ci(r.reference),
        `${points(r.gap.meanDiff)} [${points(r.gap.ciLow)}, ${points(r.gap.ciHigh)}] p ${r.gap.pValue < 0.001 ? '<0.001' : r.gap.pValue.toFixed(3)}`]);
    }
    text.push([
      `Oracle strategy (plan experiment 2's upper bound: the best of ${strategies.length} strategies per type, chosen on a ${split} split, seed ${run.seed}, reported on the other questions) vs ${run.reference}`,
      ot.toString(),
      ...gaps.filter((r) => r.adaptType === 'all').map((r) => `${r.dataset} (${headlineTitle(run.headlineOf(r.dataset))}): "oracle − unified ≥ ${target} points" — ${gapVerdict(r.gap, target)}`),
    ].join('\n'));
  }
  const langs = run.plan.languages;
  if (langs) {
    const level = langs.level ?? 'turn';
    const h: Headline = { metric: langs.metric ?? 'ndcg_any', level, k: level === 'qa' ? null : (langs.k ?? 10) };
    const lt = languagesTable(await typeMeansOfRuns(store, [run.runId], h, label), langs.zh, langs.en, h);
    if (lt) text.push(lt);
  }
  const charts = rows.length > 0 ? [await renderChart(recallByTypeSpec(rows, { title }), join(chartsDir, 'beyond-lme-locomo'))] : [];
  return { experiment: 'beyond-benchmarks', text: text.join('\n\n'), charts };
}
