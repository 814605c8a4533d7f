/**
 * The stored findings and Holm families as terminal text: `findingLines` (what `adaptmr report --summary` prints, at
 * most SUMMARY_LINES lines per results file) and `familiesTable` (every family of the file's verdicts with its size
 * and claims — the table docs/statistics.md states per experiment, printed by the full report and `--verdicts`).
 * Nothing here decides anything: the rows are the `findings` and `verdicts` tables as stored.
 */
import Table from 'cli-table3';
import type { FindingRow, VerdictRow } from '../store/index.ts';

/** The summary's budget per results file (title and footer included). */
export const SUMMARY_LINES = 30;

const EXPERIMENT_TITLES: Record<string, string> = {
  'existing-systems': 'Experiment 1 — existing systems',
  'oracle-upper-bound': 'Experiment 2 — the oracle strategy (held-out)',
  'adaptmr-vs-baselines': 'Experiment 3 — AdaptMR vs the baselines',
  ablations: 'Experiment 4 — ablations',
  efficiency: 'Experiment 5 — efficiency',
  'beyond-benchmarks': 'Beyond LongMemEval and LoCoMo',
  'router-transfer': 'Router transfer',
};
const ORDER = Object.keys(EXPERIMENT_TITLES);

export const experimentTitle = (e: string): string => EXPERIMENT_TITLES[e.split('/')[0]!] ?? e;

/** Experiments in the plan's order, then any other. */
export function experimentOrder(names: Iterable<string>): string[] {
  const rank = (e: string): number => {
    const i = ORDER.indexOf(e.split('/')[0]!);
    return i < 0 ? ORDER.length : i;
  };
  return [...new Set(names)].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

/**
 * One heading per experiment and one line per finding (`  dataset: finding`), cut to `budget` lines with a last line
 * saying how many were left out and where they are.
 */
export function findingLines(findings: readonly FindingRow[], file: string, budget = SUMMARY_LINES): string[] {
  const footer = `every verdict: adaptmr report ${file} --verdicts; every table and chart: adaptmr report ${file} [--html page.html]`;
  if (findings.length === 0)
    return ['no findings: the file holds no run with a `plan:` block (docs/statistics.md)', footer];
  const body: string[] = [];
  for (const e of experimentOrder(findings.map((f) => f.experiment))) {
    body.push(`${experimentTitle(e)} (${e})`);
    for (const f of findings.filter((x) => x.experiment === e)) body.push(`  ${f.dataset}: ${f.finding}`);
  }
  const title = `Findings of ${file} (rules: docs/statistics.md "Findings"; each rests on the verdict rows it names)`;
  const room = budget - 2;
  if (body.length <= room) return [title, ...body, footer];
  const shown = body.slice(0, room - 1);
  const left = body.slice(room - 1).filter((l) => l.startsWith('  ')).length;
  return [
    title,
    ...shown,
    `  … ${left} more finding${left === 1 ? '' : 's'}: adaptmr report ${file} --verdicts`,
    footer,
  ];
}

/** Every Holm family of the verdicts: experiment, family key, its size (Holm's m) and the claims in it. */
export function familiesTable(verdicts: readonly VerdictRow[]): string {
  const fams = new Map<string, { experiment: string; size: number | null; claims: Set<string>; rows: number }>();
  for (const v of verdicts) {
    if (v.family === null) continue;
    const f = fams.get(v.family) ?? { experiment: v.experiment, size: v.familySize, claims: new Set(), rows: 0 };
    f.claims.add(
      v.claim.startsWith('ablation:') ? 'ablation:*' : v.claim.startsWith('transfer:') ? 'transfer:*' : v.claim,
    );
    f.rows++;
    fams.set(v.family, f);
  }
  if (fams.size === 0) return '';
  const table = new Table({
    head: ['experiment', 'family', 'm (Holm)', 'verdict rows', 'claims'],
    style: { head: [], border: [], compact: true },
  });
  for (const [key, f] of [...fams].sort(([a], [b]) => a.localeCompare(b)))
    table.push([f.experiment, key, f.size ?? '—', f.rows, [...f.claims].sort().join(', ')]);
  const outside = verdicts.filter((v) => v.family === null && v.verdict !== 'n/a').length;
  return `Holm families of the verdicts (docs/statistics.md "Families"): m counts each test once; an intersection-union row adds none; stand-ins, inert ablations and rows without a test are in none${outside > 0 ? ` (${outside} judged rows outside any family)` : ''}\n${table.toString()}`;
}
