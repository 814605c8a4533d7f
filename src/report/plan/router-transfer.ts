/**
 * The section of `experiments/router-transfer.yaml` (plan: { experiment: router-transfer }): whether a router built
 * on one benchmark still helps on another. `plan.transfer` names, per AdaptMR method, the benchmark its classifier
 * and abstention thresholds were fitted on (each on that benchmark's seeded calibration split, which every method's
 * evaluation leaves out). Two train × test tables, each test dataset at its own headline metric:
 * - classifier accuracy: the method's predicted type (stored with its retrieval) against the gold type, over the
 *   test questions that have one of the five types (LoCoMo-Plus has none: n/a), with a 95% bootstrap CI;
 * - routing gain: the method minus the reference (the same first stage run alone, `stats.reference`), the paired
 *   comparison of the `comparisons` table (95% paired bootstrap CI, Holm-corrected p).
 * Methods not in `plan.transfer` (an untrained rules router, the gold-type oracle) are listed as extra rows for scale.
 * Then a verdict per off-diagonal cell: helps (CI above 0 and significant after Holm), hurts, or not detectable.
 */
import Table from 'cli-table3';
import { ADAPT_TYPES } from '../../core/types.ts';
import type { ResultStore } from '../../store/index.ts';
import { HOLM_ALPHA, formatComparison, type ComparisonCell } from '../comparison-cells.ts';
import { headlineComparisons, headlineTitle, type PlanRun } from './plan-runs.ts';
import { meanCi, pctCi } from './question-means.ts';
import type { PlanSection } from './section.ts';

export interface TransferCell {
  method: string;
  trainedOn: string | null;
  dataset: string;
  accuracy: ReturnType<typeof meanCi> | null;
  gain: ComparisonCell | null;
}

export type TransferVerdict = 'helps' | 'hurts' | 'no detectable difference';

export function transferVerdict(c: Pick<ComparisonCell, 'ciLow' | 'ciHigh' | 'pHolm'>): TransferVerdict {
  if (c.ciLow > 0 && c.pHolm < HOLM_ALPHA) return 'helps';
  if (c.ciHigh < 0 && c.pHolm < HOLM_ALPHA) return 'hurts';
  return 'no detectable difference';
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
        [run.runId, dataset, method]);
      const accuracy = rows.length > 0
        ? meanCi(rows.map((r) => ({ questionId: r.question_id, value: r.correct ? 1 : 0 })), run.seed, resamples, `transfer-accuracy\t${method}\t${dataset}`)
        : null;
      const gain = cmp.find((c) => c.dataset === dataset && c.methodA === method && c.adaptType === 'all') ?? null;
      out.push({ method, trainedOn: transfer[method] ?? null, dataset, accuracy, gain });
    }
  }
  return out;
}

export async function routerTransferSection(store: ResultStore, run: PlanRun, _chartsDir: string, resamples: number): Promise<PlanSection> {
  const cells = await transferCells(store, run, resamples);
  const rowsOf = [...new Set(cells.map((c) => c.method))];
  const upper = new Set((await store.query<{ method: string }>(`SELECT method FROM methods WHERE run_id = $1 AND upper_bound`, [run.runId])).map((r) => r.method));
  const rowLabel = (m: string): string => {
    const t = run.plan.transfer?.[m];
    return t ? `${t} (${m})` : upper.has(m) ? `${m} (upper bound)` : `${m} (not fitted on a benchmark)`;
  };
  const head = ['fitted on ↓ / tested on →', ...run.datasets.map((d) => `${d}\n${headlineTitle(run.headlineOf(d))}`)];
  const acc = new Table({ head, style: { head: [], border: [], compact: true } });
  const gain = new Table({ head, style: { head: [], border: [], compact: true } });
  for (const m of rowsOf) {
    const mine = run.datasets.map((d) => cells.find((c) => c.method === m && c.dataset === d));
    acc.push([rowLabel(m), ...mine.map((c) => (upper.has(m) ? 'gold type (upper bound)' : c?.accuracy ? pctCi(c.accuracy) : 'n/a'))]);
    gain.push([rowLabel(m), ...mine.map((c) => (c?.gain ? `${formatComparison(c.gain)} (${c.gain.nPairs})` : '—'))]);
  }
  const text = [
    `Router transfer — run ${run.name}; routing gain = method − ${run.reference ?? 'reference'} (the same first stage without routing); a diagonal cell is in-distribution but held out (the model and thresholds saw only that benchmark's calibration split, which is excluded)`,
    'Classifier accuracy (predicted type = gold type, questions with one of the five types; mean [95% bootstrap CI] (n))',
    acc.toString(),
    'Routing gain over the first stage (mean difference [95% paired bootstrap CI] p_holm; * = significant after Holm) (n pairs)',
    gain.toString(),
  ];
  const verdicts: string[] = [];
  const tally: Record<TransferVerdict, number> = { helps: 0, hurts: 0, 'no detectable difference': 0 };
  for (const c of cells) {
    if (!c.trainedOn || !c.gain || c.trainedOn === c.dataset) continue;
    const v = transferVerdict(c.gain);
    tally[v]++;
    verdicts.push(`  ${c.trainedOn} → ${c.dataset}: ${v} (${formatComparison(c.gain)}, n ${c.gain.nPairs})`);
  }
  if (verdicts.length > 0) {
    text.push([
      `Out of distribution (fitted on one benchmark, tested on another): routing helps in ${tally.helps}, hurts in ${tally.hurts}, no detectable difference in ${tally['no detectable difference']} of ${verdicts.length} cells (comparator ${run.reference}; Holm family per dataset × metric × type as the comparisons table)`,
      ...verdicts,
    ].join('\n'));
  }
  return { experiment: 'router-transfer', text: text.join('\n'), charts: [] };
}
