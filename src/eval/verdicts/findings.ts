/**
 * The `findings` table: what the verdicts show, per experiment and dataset, in a few sentences derived from the
 * stored verdict rows by fixed rules (docs/statistics.md "Findings") — nothing is re-tested here, and each finding
 * names the rows it rests on (`supportingClaims`, `claim[type] A−B`). Rules, overall (`all`) rows unless said:
 *   adaptmr-vs-baselines, beyond-benchmarks
 *     baselines    per baseline, how many variants reached / were not met, with the range of their estimates;
 *     all + stage  how many variants beat every baseline; and, whenever adaptmr-over-<first stage> rows exist, the
 *                  routing gain over that same first stage — "the gain is the first stage's" when a variant over it
 *                  reaches against unified embedding but not against its own first stage;
 *     types        the per-type rows reached (in their family of all per-type tests), and the rows flagged;
 *     + experiment 2's line when the run makes its claims (beyond-benchmarks);
 *   oracle-upper-bound   the oracle strategy (held-out) vs unified and vs each best single strategy; the premise;
 *   ablations            drops reached, inert ablations, the rest;
 *   existing-systems, efficiency, router-transfer   counts of each verdict over the claims, with the family size.
 */
import { points } from './rule.ts';
import type { VerdictRow } from './inputs.ts';

export interface FindingRow {
  experiment: string;
  dataset: string;
  finding: string;
  /** The verdict rows the finding rests on: `claim[type] A−B`, separated by '; '. */
  supportingClaims: string;
}

const ref = (v: VerdictRow): string =>
  `${v.claim}[${v.adaptType}] ${v.methodA ?? ''}${v.methodB ? `−${v.methodB}` : ''}`;
const est = (v: VerdictRow): string =>
  v.estimate === null
    ? 'n/a'
    : `${points(v.estimate)}${v.ciLow !== null && v.ciHigh !== null ? ` [${points(v.ciLow)}, ${points(v.ciHigh)}]` : ''}`;
const count = (rows: readonly VerdictRow[], verdict: VerdictRow['verdict']): number =>
  rows.filter((v) => v.verdict === verdict).length;
const range = (rows: readonly VerdictRow[]): string => {
  const xs = rows.flatMap((v) => (v.estimate === null ? [] : [v.estimate])).sort((a, b) => a - b);
  if (xs.length === 0) return 'no estimate';
  return xs.length === 1 ? points(xs[0]!) : `${points(xs[0]!)} to ${points(xs[xs.length - 1]!)}`;
};
const tally = (rows: readonly VerdictRow[]): string =>
  (['reached', 'not established', 'not met', 'n/a'] as const)
    .map((x) => [x, count(rows, x)] as const)
    .filter(([, n]) => n > 0)
    .map(([x, n]) => `${n} ${x}`)
    .join(', ');

function finding(experiment: string, dataset: string, text: string, rows: readonly VerdictRow[]): FindingRow {
  return { experiment, dataset, finding: text, supportingClaims: rows.map(ref).join('; ') };
}

/** Experiment 3's findings on one dataset (also the beyond-benchmarks run's). */
function adaptmrFindings(experiment: string, dataset: string, rows: readonly VerdictRow[]): FindingRow[] {
  const overall = rows.filter((v) => v.adaptType === 'all');
  const out: FindingRow[] = [];
  const vsBase = overall.filter((v) => v.claim === 'adaptmr-vs-baseline' && v.estimate !== null);
  const baselines = [...new Set(vsBase.map((v) => v.methodB!))];
  if (baselines.length > 0) {
    const parts = baselines.map((b) => {
      const mine = vsBase.filter((v) => v.methodB === b);
      return `vs ${b}: ${count(mine, 'reached')} of ${mine.length} variants reached, ${count(mine, 'not met')} not met (${range(mine)})`;
    });
    out.push(finding(experiment, dataset, `AdaptMR ${parts.join('; ')}`, vsBase));
  }
  const iu = overall.filter((v) => v.claim === 'adaptmr-vs-all-baselines');
  const stages = overall.filter((v) => v.claim.startsWith('adaptmr-over-') && v.estimate !== null);
  if (iu.length > 0 || stages.length > 0) {
    const text = [
      iu.length > 0 ? `beats every baseline: ${count(iu, 'reached')} of ${iu.length} variants` : undefined,
      ...stages.map((s) => firstStageText(s, rows)),
    ].filter((x) => x !== undefined);
    out.push(finding(experiment, dataset, text.join('; '), [...iu, ...stages]));
  }
  out.push(...typeFindings(experiment, dataset, rows));
  return out;
}

/** "over the same first stage (bm25) routing adds +0.0 [−4.7, +4.7] (not met): the gain over unified is the first stage's". */
function firstStageText(s: VerdictRow, rows: readonly VerdictRow[]): string {
  const stage = s.claim.slice('adaptmr-over-'.length);
  const vsUnified = rows.find(
    (v) => v.claim === 'adaptmr-vs-unified' && v.adaptType === 'all' && v.methodA === s.methodA,
  );
  // Same questions on both rows: A − unified = (A − stage) + (stage − unified), so the first stage's share is the difference.
  const firstStage =
    vsUnified?.verdict === 'reached' && s.verdict !== 'reached' && vsUnified.n === s.n && s.estimate !== null
      ? ` — of its ${points(vsUnified.estimate!)} over unified embedding (reached), the first stage alone gives ${points(vsUnified.estimate! - s.estimate)}; routing's own share is not established`
      : '';
  const base = s.methodB === stage ? stage : `${stage}: ${s.methodB}`;
  return `first-stage effect: ${s.methodA} over the same first stage (${base}) ${est(s)} (${s.verdict})${firstStage}`;
}

/** The per-type rows reached, and the flagged rows, of one dataset. */
function typeFindings(experiment: string, dataset: string, rows: readonly VerdictRow[]): FindingRow[] {
  const typed = rows.filter((v) => v.adaptType !== 'all' && v.estimate !== null && v.claim.startsWith('adaptmr-vs-'));
  const flagged = rows.filter((v) => v.flags !== '');
  if (typed.length === 0 && flagged.length === 0) return [];
  // vs unified and vs the baseline unified read one test: name it once.
  const seen = new Set<string>();
  const reached = typed.filter((v) => {
    const key = `${v.methodA}\t${v.methodB}\t${v.adaptType}`;
    if (v.verdict !== 'reached' || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const m = typed.find((v) => v.familySize !== null)?.familySize;
  const reachedText =
    reached.length === 0
      ? `no per-type claim reached (${typed.length} rows${m ? `, family of ${m} per-type tests` : ''})`
      : `per-type reached (family of ${m ?? '?'}): ${reached.map((v) => `${v.methodA} ${v.adaptType} vs ${v.methodB} ${points(v.estimate!)}`).join(', ')}`;
  return [finding(experiment, dataset, `${reachedText}; ${flagSummary(flagged)}`, [...reached, ...flagged])];
}

/** "overall rows flagged: 3 ceiling (vs bm25); per-type rows: 40 ceiling, 12 floor" or "no row flagged". */
export function flagSummary(rows: readonly VerdictRow[]): string {
  const tally = (list: readonly VerdictRow[]): string => {
    const n = new Map<string, number>();
    for (const v of list) for (const f of v.flags.split(',').filter(Boolean)) n.set(f, (n.get(f) ?? 0) + 1);
    return [...n].map(([f, k]) => `${k} ${f}`).join(', ');
  };
  const overall = rows.filter((v) => v.adaptType === 'all' && v.flags !== '');
  const typed = rows.filter((v) => v.adaptType !== 'all' && v.flags !== '');
  if (overall.length === 0 && typed.length === 0) return 'no row flagged';
  const against = [...new Set(overall.filter((v) => v.flags.includes('ceiling')).map((v) => v.methodB))].filter(
    Boolean,
  );
  return [
    overall.length > 0
      ? `overall rows flagged: ${tally(overall)}${against.length > 0 ? ` (at ceiling: ${against.join(', ')})` : ''}`
      : 'no overall row flagged',
    typed.length > 0 ? `per-type rows flagged: ${tally(typed)}` : undefined,
  ]
    .filter(Boolean)
    .join('; ');
}

/** Experiment 2's findings on one dataset. */
function oracleFindings(experiment: string, dataset: string, rows: readonly VerdictRow[]): FindingRow[] {
  const overall = rows.filter((v) => v.adaptType === 'all');
  const vsU = overall.find((v) => v.claim === 'oracle-vs-unified');
  const singles = overall.filter((v) => v.claim === 'oracle-vs-best-single');
  const premise = overall.find((v) => v.claim === 'premise-single-strategy');
  if (!vsU && singles.length === 0 && !premise) return [];
  const parts = [
    vsU ? `oracle strategy (held-out) − unified ${est(vsU)} (${vsU.verdict})` : undefined,
    ...singles.map(
      (v) => `− ${v.methodB}${v.flags.includes('tie') ? ' (tied best single)' : ''} ${est(v)} (${v.verdict})`,
    ),
    premise
      ? premise.verdict === 'not met'
        ? `a single strategy scores at least as much (${premise.methodB} ${est(premise)}): no evidence for routing by type`
        : `premise ${premise.verdict}`
      : undefined,
  ].filter((x) => x !== undefined);
  return [
    finding(experiment, dataset, parts.join('; '), [...(vsU ? [vsU] : []), ...singles, ...(premise ? [premise] : [])]),
  ];
}

/** Experiment 4's findings on one dataset. */
function ablationFindings(experiment: string, dataset: string, rows: readonly VerdictRow[]): FindingRow[] {
  const overall = rows.filter((v) => v.adaptType === 'all');
  const reached = rows.filter((v) => v.verdict === 'reached');
  const inert = [
    ...new Set(rows.filter((v) => v.flags.includes('inert') && v.adaptType === 'all').map((v) => v.claim)),
  ];
  const text = `drops reached: ${reached.length === 0 ? 'none' : reached.map((v) => `${v.claim.slice('ablation:'.length)} [${v.adaptType}] ${points(v.estimate!)}`).join(', ')}; inert (changed no ranking): ${inert.length === 0 ? 'none' : inert.map((c) => c.slice('ablation:'.length)).join(', ')}; overall rows: ${tally(overall)}`;
  return [finding(experiment, dataset, text, [...reached, ...overall.filter((v) => v.flags.includes('inert'))])];
}

/** Counts of each verdict (experiments 1 and 5, router transfer). */
function countFindings(experiment: string, dataset: string, rows: readonly VerdictRow[]): FindingRow[] {
  const m = rows.find((v) => v.familySize !== null)?.familySize;
  const text = `${rows[0]!.claim.split(':')[0]} claims: ${tally(rows)}${m ? ` (family of ${m})` : ''}; ${flagSummary(rows)}`;
  return [
    finding(
      experiment,
      dataset,
      text,
      rows.filter((v) => v.verdict === 'reached'),
    ),
  ];
}

/** The findings of a results file's verdicts, in the verdicts' experiment and dataset order. */
export function computeFindings(verdicts: readonly VerdictRow[]): FindingRow[] {
  const keys = [...new Set(verdicts.map((v) => `${v.experiment}\t${v.dataset}`))];
  return keys.flatMap((key) => {
    const [experiment, dataset] = key.split('\t') as [string, string];
    const rows = verdicts.filter((v) => v.experiment === experiment && v.dataset === dataset);
    switch (experiment.split('/')[0]) {
      case 'adaptmr-vs-baselines':
        return adaptmrFindings(experiment, dataset, rows);
      case 'beyond-benchmarks':
        return [...adaptmrFindings(experiment, dataset, rows), ...oracleFindings(experiment, dataset, rows)];
      case 'oracle-upper-bound':
        return oracleFindings(experiment, dataset, rows);
      case 'ablations':
        return ablationFindings(experiment, dataset, rows);
      default:
        return countFindings(experiment, dataset, rows);
    }
  });
}
