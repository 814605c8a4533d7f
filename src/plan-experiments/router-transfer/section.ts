/**
 * The section of `experiments/router-transfer.yaml` (plan: { experiment: router-transfer }): whether a router built
 * on one benchmark still helps on another. `plan.transfer` names, per AdaptMR method, the benchmark its classifier
 * and abstention thresholds were fitted on (each on that benchmark's seeded calibration split, which every method's
 * evaluation leaves out). Two train × test tables, each test dataset at its own headline metric:
 * - classifier accuracy: the method's predicted type (stored with its retrieval) against the gold type, over the
 *   test questions that have one of the five types (LoCoMo-Plus has none: n/a), with a 95% bootstrap CI;
 * - routing gain: the method minus the reference (the same first stage run alone, `stats.reference`), the paired
 *   comparison of the `comparisons` table (95% paired bootstrap CI, Holm-corrected p: an off-diagonal cell's row is
 *   in its declared transfer family, so its p_holm is its verdict's).
 * Methods not in `plan.transfer` (an untrained rules router, the gold-type oracle) are listed as extra rows for scale.
 * Then the stored verdicts, one per off-diagonal cell (`transfer:<fitted on>-><tested on>`,
 * src/eval/verdicts/claims-transfer.ts), and their count per verdict; nothing here decides one.
 */
import Table from 'cli-table3';
import { ADAPT_TYPES } from '../../core/types.ts';
import type { ResultStore } from '../../store/index.ts';
import { readVerdicts } from '../../store/index.ts';
import { formatComparison, type ComparisonCell } from '../../report/comparison-cells.ts';
import { headlineComparisons, headlineTitle, type PlanRun } from '../../report/plan/plan-runs.ts';
import { meanCi, pctCi } from '../../report/plan/question-means.ts';
import type { PlanSection } from '../../report/plan/section.ts';
import { sectionVerdicts } from '../../report/plan/section-verdicts.ts';
import { routeGoldTable } from './route-gold.ts';

export interface TransferCell {
  method: string;
  trainedOn: string | null;
  dataset: string;
  accuracy: ReturnType<typeof meanCi> | null;
  gain: ComparisonCell | null;
}

export async function transferCells(store: ResultStore, run: PlanRun, resamples: number): Promise<TransferCell[]> {
  const transfer = run.plan.transfer ?? {};
  const methods = run.methods.filter((m) => m.method === 'adaptmr').map((m) => m.id);
  const cmp = await headlineComparisons(store, [run.runId], run.headlineOf, run.datasets);
  const five = ADAPT_TYPES.map((t) => `'${t}'`).join(', ');
  const out: TransferCell[] = [];
  for (const method of methods) {
    for (const dataset of run.datasets) {
      const rows = await store.query<{ question_id: string; correct: boolean }>(
        `SELECT r.question_id, (r.predicted_type = q.adapt_type) AS correct FROM retrievals r
         JOIN questions q ON q.run_id = r.run_id AND q.dataset = r.dataset AND q.question_id = r.question_id
         WHERE r.run_id = $1 AND r.dataset = $2 AND r.method = $3 AND r.error IS NULL AND r.predicted_type IS NOT NULL AND q.adapt_type IN (${five})`,
        [run.runId, dataset, method],
      );
      const accuracy =
        rows.length > 0
          ? meanCi(
              rows.map((r) => ({ questionId: r.question_id, value: r.correct ? 1 : 0 })),
              run.seed,
              resamples,
              `transfer-accuracy\t${method}\t${dataset}`,
            )
          : null;
      const gain = cmp.find((c) => c.dataset === dataset && c.methodA === method && c.adaptType === 'all') ?? null;
      out.push({ method, trainedOn: transfer[method] ?? null, dataset, accuracy, gain });
    }
  }
  return out;
}

export async function routerTransferSection(
  store: ResultStore,
  run: PlanRun,
  _chartsDir: string,
  resamples: number,
): Promise<PlanSection> {
  const cells = await transferCells(store, run, resamples);
  const rowsOf = [...new Set(cells.map((c) => c.method))];
  const upper = new Set(
    (
      await store.query<{ method: string }>(`SELECT method FROM methods WHERE run_id = $1 AND upper_bound`, [run.runId])
    ).map((r) => r.method),
  );
  const rowLabel = (m: string): string => {
    const t = run.plan.transfer?.[m];
    return t ? `${t} (${m})` : upper.has(m) ? `${m} (gold-type routing)` : `${m} (not fitted on a benchmark)`;
  };
  const head = ['fitted on ↓ / tested on →', ...run.datasets.map((d) => `${d}\n${headlineTitle(run.headlineOf(d))}`)];
  const acc = new Table({ head, style: { head: [], border: [], compact: true } });
  const gain = new Table({ head, style: { head: [], border: [], compact: true } });
  for (const m of rowsOf) {
    const mine = run.datasets.map((d) => cells.find((c) => c.method === m && c.dataset === d));
    acc.push([
      rowLabel(m),
      ...mine.map((c) => (upper.has(m) ? 'gold type (gold-type routing)' : c?.accuracy ? pctCi(c.accuracy) : 'n/a')),
    ]);
    gain.push([rowLabel(m), ...mine.map((c) => (c?.gain ? `${formatComparison(c.gain)} (${c.gain.nPairs})` : '—'))]);
  }
  const text = [
    `Router transfer — run ${run.name}; routing gain = method − ${run.reference ?? 'reference'} (the same first stage without routing); a diagonal cell is in-distribution but held out (the model and thresholds saw only that benchmark's calibration split, which is excluded)`,
    'Classifier accuracy (predicted type = gold type, questions with one of the five types; mean [95% bootstrap CI] (n))',
    acc.toString(),
    "Routing gain over the first stage (mean difference [95% paired bootstrap CI] p_holm; * = significant after Holm — an off-diagonal cell within its transfer family, the other rows within the run's default family per dataset × metric × type) (n pairs)",
    gain.toString(),
  ];
  const routes = await routeGoldTable(store, run.runId);
  if (routes) text.push(routes);
  const stored = await readVerdicts(store, { experiment: run.experiment, claim: 'transfer:*' });
  if (stored.length > 0) {
    const count = (v: string): number => stored.filter((x) => x.verdict === v).length;
    const families = [...new Set(stored.map((x) => x.family).filter((f) => f !== null))].length;
    text.push(
      `Out of distribution (fitted on one benchmark, tested on another), ${stored.length} cells vs ${run.reference} (the same first stage without routing), Holm within ${families} declared famil${families === 1 ? 'y' : 'ies'} (plan.families.transfer: ${run.plan.families?.transfer ?? 'all'}${families > 1 ? '; the family-wise error is held per test dataset, not across the table' : ''}): ` +
        `reached (routing helps) in ${count('reached')}, not met in ${count('not met')} (routing hurts, whole CI below 0 and significant, in ${stored.filter((x) => x.reason.includes('routing hurts here')).length}), not established in ${count('not established')}, n/a in ${count('n/a')}`,
    );
  }
  text.push(await sectionVerdicts(store, run.experiment, 'Verdicts (one per off-diagonal cell: routing gain > 0)'));
  return { experiment: 'router-transfer', text: text.join('\n'), charts: [] };
}
