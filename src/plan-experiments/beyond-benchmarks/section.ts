/**
 * The section of `experiments/beyond-lme-locomo.yaml` (plan: { experiment: beyond-benchmarks }): the plan's
 * comparison carried to the benchmarks beyond LongMemEval and LoCoMo. Each dataset at its own headline metric:
 * - every method's per-type mean with its 95% CI (the five types, and LoCoMo-Plus's `cognitive` as its own type);
 * - a benchmark reported per native type (`display.perNativeType`, src/core/benchmark.ts) per ability beside the type
 *   that averages it (event ordering is not temporal reasoning), and the native types outside the five types (a task
 *   judged for compliance, a summary), which no per-type or overall average contains, per ability with CIs;
 * - paired comparisons of every method with the reference (first unified-embedding method), Holm-corrected within
 *   the declared families (primary: AdaptMR variants; exploratory: the rest), and how each AdaptMR variant routed;
 * - the oracle of plan experiment 2 (the best strategy per type chosen on a seeded half, reported on the other)
 *   against the reference, the best single strategy and the per-question ceiling (src/eval/verdicts/oracle.ts) — it
 *   works for any type label, so `cognitive` gets its best strategy too;
 * - the Chinese dataset's per-type recall next to the English one's (plan.languages);
 * - the stored verdicts (experiment 3's and experiment 2's claims per dataset; nothing here decides one).
 * Chart: per-type bars with CIs.
 */
import { join } from 'node:path';
import Table from 'cli-table3';
import { datasetEntry } from '../../core/benchmarks-installed.ts';
import { ClaimContext, adaptmrVariants, oracleAnalyses } from '../../eval/verdicts/index.ts';
import { loadVerdictInput, type ResultStore } from '../../store/index.ts';
import { comparisonsTable } from '../../report/comparison-cells.ts';
import { perTypeTable, typeColumns } from '../../report/per-type-table.ts';
import { recallByTypeSpec } from '../../report/recall-by-type-spec.ts';
import { renderChart } from '../../report/render-chart.ts';
import { markedMethod, type SeriesKey } from '../../report/series-label.ts';
import { labelledTypeMeans } from '../../report/plan/labelled-type-means.ts';
import { oracleTable } from '../../report/plan/oracle-table.ts';
import {
  headlineComparisons,
  headlineTitle,
  pct,
  runHeadlineTitle,
  typeMeansOfRuns,
  type Headline,
  type PlanRun,
} from '../../report/plan/plan-runs.ts';
import { meanCi, pctCi } from '../../report/plan/question-means.ts';
import { routingTables } from '../../report/plan/routing-table.ts';
import type { PlanSection } from '../../report/plan/section.ts';
import { sectionVerdicts } from '../../report/plan/section-verdicts.ts';

/**
 * Per ability: dataset × method rows, one column per native ability, at the dataset's headline metric. `outside`: the
 * native types kept out of the headline; `inside`: every native type of a benchmark reported per native type that one
 * of the five types averages (e.g. temporal holding temporal reasoning and event ordering), printed beside the types
 * so an average never hides an ability at chance.
 */
async function abilityTable(
  store: ResultStore,
  run: PlanRun,
  resamples: number,
  label: (k: SeriesKey) => string,
  scope: 'outside' | 'inside' = 'outside',
): Promise<string | null> {
  const cells = new Map<string, string>();
  const rowKeys: string[] = [];
  const abilities = new Set<string>();
  for (const dataset of run.datasets) {
    if (scope === 'inside' && !perNativeType(dataset)) continue;
    const h: Headline = run.headlineOf(dataset);
    const rows = await store.query<{
      method: string;
      granularity: string;
      native_type: string;
      question_id: string;
      value: number;
    }>(
      `SELECT s.method, s.granularity, q.native_type || ${scope === 'inside' ? "' (' || q.adapt_type || ')'" : "''"} AS native_type, s.question_id, s.value FROM scores s
       JOIN questions q ON q.run_id = s.run_id AND q.dataset = s.dataset AND q.question_id = s.question_id
       WHERE s.run_id = $1 AND s.dataset = $2 AND ${scope === 'inside' ? "q.adapt_type <> 'outside'" : "q.adapt_type = 'outside'"} AND s.metric = $3 AND s.level = $4 AND s.k IS NOT DISTINCT FROM $5
       ORDER BY s.method, q.native_type, s.question_id`,
      [run.runId, dataset, h.metric, h.level, h.k],
    );
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
      cells.set(
        `${rowKey}\t${ability}`,
        pctCi(
          meanCi(
            list.map((r) => ({ questionId: r.question_id, value: r.value })),
            run.seed,
            resamples,
            `outside\t${key}`,
          ),
        ),
      );
    }
  }
  if (rowKeys.length === 0) return null;
  const cols = [...abilities].sort();
  const table = new Table({ head: ['dataset', 'method', ...cols], style: { head: [], border: [], compact: true } });
  for (const rowKey of rowKeys)
    table.push([...rowKey.split('\t'), ...cols.map((a) => cells.get(`${rowKey}\t${a}`) ?? '—')]);
  const who = labelsOf(run.datasets);
  return [
    scope === 'inside'
      ? `${who} per ability, beside the AdaptMR type that averages it (in parentheses): each dataset at its headline metric, mean [95% CI] (n)`
      : `Outside the per-type headline: ${who} abilities that fit none of the five types (a new task judged for compliance, or a summary), in no per-type or overall mean above; each dataset at its headline metric, mean [95% CI] (n)`,
    table.toString(),
  ].join('\n');
}

/** Whether a dataset's benchmark is reported per native type beside the type that averages it. */
function perNativeType(dataset: string): boolean {
  return datasetEntry(dataset)?.benchmark.display.perNativeType === true;
}

/** The prose names of the benchmarks reported per native type among `datasets` (`A`, or `A and B`). */
function labelsOf(datasets: readonly string[]): string {
  const labels = [...new Set(datasets.filter(perNativeType).map((d) => datasetEntry(d)!.benchmark.display.label))];
  return labels.length === 0 ? 'Native' : labels.join(' and ');
}

/** The Chinese dataset's per-type means next to the English dataset's, per method, both at one metric. */
function languagesTable(
  rows: Awaited<ReturnType<typeof typeMeansOfRuns>>,
  zh: string,
  en: string,
  h: Headline,
): string | null {
  const zhRows = rows.filter((r) => r.dataset === zh);
  const enRows = rows.filter((r) => r.dataset === en);
  if (zhRows.length === 0 || enRows.length === 0) return null;
  const types = typeColumns(zhRows.map((r) => r.adaptType)).filter((t) => zhRows.some((r) => r.adaptType === t));
  const table = new Table({
    head: ['method', ...types.flatMap((t) => [`${t} zh`, `${t} en`])],
    style: { head: [], border: [], compact: true },
  });
  const cell = (list: typeof rows, series: string, t: string): string => {
    const r = list.find((x) => x.series === series && x.adaptType === t);
    return r
      ? `${pct(r.mean)}${r.ciLow !== undefined && r.ciHigh !== undefined ? ` [${pct(r.ciLow)}, ${pct(r.ciHigh)}]` : ''} (${r.n})`
      : '—';
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

export async function beyondBenchmarksSection(
  store: ResultStore,
  run: PlanRun,
  chartsDir: string,
  resamples: number,
): Promise<PlanSection> {
  const { marks, label, rows } = await labelledTypeMeans(store, run);
  const title = `Beyond LongMemEval and LoCoMo — ${runHeadlineTitle(run)}, run ${run.name}`;
  const text: string[] = [perTypeTable(rows, title)];
  const inside = await abilityTable(store, run, resamples, label, 'inside');
  if (inside) text.push(inside);
  const outside = await abilityTable(store, run, resamples, label);
  if (outside) text.push(outside);

  const cmp = await headlineComparisons(store, [run.runId], run.headlineOf, run.datasets);
  const table = comparisonsTable(
    cmp,
    `Paired comparisons vs ${run.reference} (${runHeadlineTitle(run)}; Holm within the declared families: primary = AdaptMR variants per dataset × type, exploratory = the rest)`,
    label,
  );
  if (table) text.push(table);
  const input = await loadVerdictInput(store);
  const ctx = new ClaimContext(input);
  const variants = adaptmrVariants(ctx, run.input).map((m) => ({
    runId: run.runId,
    label: markedMethod(marks, run.runId, m.id),
    method: m.id,
  }));
  const routing = routingTables(input.retrievals, input.questions, variants, run.datasets);
  if (routing) text.push(routing);

  const analyses = oracleAnalyses(ctx, run.input);
  if (run.reference && analyses.length > 0) {
    const split = run.plan.split ?? 0.5;
    text.push(
      [
        `Oracle strategy (plan experiment 2: per type the best of ${run.methods.filter((m) => m.method === 'strategy').length} strategies chosen on a ${split} selection split, seed ${run.seed}, tie rule: the type's own strategy, else the first by id; reported on the other questions) vs ${run.reference}, ` +
          `the best single strategy on the selection half (${analyses.map((a) => `${a.dataset}: ${a.bestSingle.id}`).join('; ')}) and the per-question ceiling (the upper bound of any routing over the strategies)`,
        oracleTable(analyses, run.reference).toString(),
      ].join('\n'),
    );
  }
  const langs = run.plan.languages;
  if (langs) {
    const level = langs.level ?? 'turn';
    const h: Headline = { metric: langs.metric ?? 'ndcg_any', level, k: level === 'qa' ? null : (langs.k ?? 10) };
    const lt = languagesTable(await typeMeansOfRuns(store, [run.runId], h, label), langs.zh, langs.en, h);
    if (lt) text.push(lt);
  }
  text.push(
    await sectionVerdicts(
      store,
      run.experiment,
      'Verdicts — experiment 3 (adaptmr-vs-unified, adaptmr-vs-baseline, adaptmr-vs-all-baselines: primary families per dataset, overall and per-type; adaptmr-over-bm25 / -over-hybrid: exploratory) and experiment 2 (oracle-vs-unified, oracle-vs-best-single, premise-single-strategy: per dataset, overall and per-type); a type outside the five enters "all" only',
    ),
  );
  const charts =
    rows.length > 0 ? [await renderChart(recallByTypeSpec(rows, { title }), join(chartsDir, 'beyond-lme-locomo'))] : [];
  return { experiment: 'beyond-benchmarks', text: text.join('\n\n'), charts };
}
