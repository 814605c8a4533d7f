/**
 * Holm families of a results file's tests — the `comparisons` rows and the verdicts' own tests — and the pending
 * verdicts that are judged once their family's correction is known.
 *
 * A family is a string key; every test with that key is corrected together (Holm 1979, src/eval/stats/holm.ts).
 * `family_size` is the number of claims declared in the family (with or without a cell); Holm's m counts those with
 * a test, which is the same number unless some claim has no cell. A test whose family is null, or starts with
 * `excluded`, is not corrected (p_holm NaN): a stand-in that returned nothing is left out of every family.
 */
import { holm } from '../stats/holm.ts';
import type { ComparisonRow } from '../stats/results/index.ts';
import type { ChanceBand } from './chance.ts';
import type { Headline, TestedPairs, VerdictRow } from './inputs.ts';
import { mdePaired, MDE_DEFAULTS } from './mde.ts';
import { cellFlags, flagsColumn, flagText, type CellFacts, type Flag } from './flags.ts';
import { ALPHA, judge, type Claim, type Evidence, type Verdict } from './rule.ts';

export const EXCLUDED = 'excluded';

/** A family key in the comparisons table's format: run / dataset / level / metric@k [/ part] [/ type]. */
export function familyKey(
  scope: string,
  dataset: string,
  h: Headline,
  type: string,
  byType: boolean,
  part?: string,
): string {
  return `${scope}/${dataset}/${h.level}/${h.metric}${h.k === null ? '' : `@${h.k}`}${part ? `/${part}` : ''}${byType ? `/${type}` : ''}`;
}

/**
 * The type part of a plan family: the overall claims of a dataset form one family, its per-type claims another — a
 * claim about types ("+15–25 on the weak types") is corrected over all its per-type tests of that dataset.
 */
export const typeGroup = (type: string): string => (type === 'all' ? 'all' : 'types');

/** A verdict waiting for its family's correction: its own test, or a comparisons row's. */
export interface PendingVerdict {
  row: Omit<VerdictRow, 'pHolm' | 'familySize' | 'mde' | 'verdict' | 'reason' | 'family' | 'flags'>;
  family: string | null;
  /** The run a family belongs to (a sweep's: its base run), so two runs sharing a name never share a family; set by compute.ts. */
  scope?: string;
  /** The paired sample (for the MDE) and its test; null for a claim without a cell. */
  tested: TestedPairs | null;
  /** A comparisons row that is this verdict's test (its p_holm is the verdict's). */
  comparison?: ComparisonRow;
  /** The verdict's own p-value when it is not a comparison row's (NaN = none). */
  pValue: number;
  claim: Claim | null;
  /** Replaces the standard rule (e.g. the premise's intersection-union test). */
  judgeWith?: (e: Evidence) => { verdict: Verdict; reason: string };
  /** The MDE when it does not come from a paired sample (experiment 1's two-sample difference). */
  mde?: number | null;
  /** A fixed verdict (n/a rows, descriptive claims). */
  fixed?: { verdict: Verdict; reason: string };
  /** Said before the rule's reason (the comparator, the tie rule, routing facts…). */
  prefix?: string;
  /** Said after it. */
  suffix?: string;
  pHolm?: number;
  familySize?: number;
  /** Flags the builder knows (`tie`, `inert`); finishVerdicts adds the cell flags (flags.ts). */
  flags?: Flag[];
  /**
   * An intersection-union claim over these verdicts (adaptmr-vs-all-baselines): no test of its own — reached only
   * if each is; its p_holm is the largest of theirs, its family size theirs, and it adds nothing to the family.
   */
  unionOf?: PendingVerdict[];
  /**
   * The random-top-k rate over the row's questions (the `chance` flag) and how far above it a random ranker's mean
   * reaches by luck (one-sided 95%); null when the metric has none or a haystack size is unknown; set by compute.ts.
   */
  chance?: ChanceBand | null;
}

interface HolmItem {
  key: string | null;
  pValue: number;
  setHolm(p: number): void;
}

const keyOf = (scope: string, family: string | null): string | null =>
  family === null || family.startsWith(EXCLUDED) ? null : `${scope}\t${family}`;

/**
 * Holm within each family over every test; `scopeOf` gives a comparisons row's family scope (its run, or the sweep's
 * base run). Family sizes: for a comparisons row, the tests Holm corrects together (comparisons rows and verdicts' own
 * tests); for a verdict, its family's claims (with or without a cell) plus the comparisons rows no verdict names.
 */
export function correctFamilies(
  comparisons: ComparisonRow[],
  pending: PendingVerdict[],
  scopeOf: (c: ComparisonRow) => string = (c) => c.run,
): void {
  const referenced = new Set(pending.flatMap((p) => (p.comparison ? [p.comparison] : [])));
  const items: HolmItem[] = [
    ...comparisons.map((c) => ({
      key: keyOf(scopeOf(c), c.family),
      pValue: c.pValue,
      setHolm: (p: number) => (c.pHolm = p),
    })),
    ...pending
      .filter((p) => !p.comparison && !p.unionOf)
      .map((p) => ({ key: keyOf(p.scope ?? '', p.family), pValue: p.pValue, setHolm: (x: number) => (p.pHolm = x) })),
  ];
  const groups = new Map<string, HolmItem[]>();
  for (const it of items) {
    if (it.key === null) {
      it.setHolm(Number.NaN);
      continue;
    }
    const list = groups.get(it.key) ?? [];
    list.push(it);
    groups.set(it.key, list);
  }
  for (const list of groups.values()) {
    const adjusted = holm(list.map((x) => x.pValue));
    list.forEach((x, i) => x.setHolm(adjusted[i]!));
  }
  const unnamedPer = new Map<string, number>();
  for (const c of comparisons) {
    const key = keyOf(scopeOf(c), c.family);
    if (key !== null && !referenced.has(c)) unnamedPer.set(key, (unnamedPer.get(key) ?? 0) + 1);
  }
  // Claims per family, each test once: two claims reading one comparisons row (vs unified with its +5 target, and as
  // one of the baselines with > 0) are one test; an intersection-union claim adds none.
  const claimsPer = new Map<string, number>();
  const counted = new Set<ComparisonRow>();
  for (const p of pending) {
    const key = keyOf(p.scope ?? '', p.family);
    if (key === null || p.unionOf || (p.comparison && counted.has(p.comparison))) continue;
    if (p.comparison) counted.add(p.comparison);
    claimsPer.set(key, (claimsPer.get(key) ?? 0) + 1);
  }
  // A comparisons row's family size is its Holm m: its family's comparisons rows and the verdicts' own tests in it.
  for (const c of comparisons) {
    const key = keyOf(scopeOf(c), c.family);
    c.familySize = key === null ? 0 : (groups.get(key)?.length ?? 1);
  }
  for (const p of pending) {
    if (p.comparison) p.pHolm = p.comparison.pHolm;
    if (p.family === null) continue;
    const key = keyOf(p.scope ?? '', p.family);
    // A family also holds comparisons rows no verdict names (exp 3's exploratory family): they count too.
    p.familySize = key === null ? 0 : (claimsPer.get(key) ?? 0) + (unnamedPer.get(key) ?? 0);
  }
  for (const p of pending) {
    if (!p.unionOf || p.unionOf.length === 0) continue;
    const ps = p.unionOf.map((c) => c.pHolm ?? Number.NaN);
    p.pHolm = ps.some((x) => Number.isNaN(x)) ? Number.NaN : Math.max(...ps);
    if (p.unionOf[0]!.familySize !== undefined) p.familySize = p.unionOf[0]!.familySize;
  }
}

/** The cell facts of a tested verdict, oriented by its claim (the side it wants higher first). */
function cellFactsOf(
  p: PendingVerdict,
  mde: number | null,
): (CellFacts & { higherId: string; lowerId: string }) | undefined {
  if (!p.tested || p.tested.ids.length === 0) return undefined;
  const avg = (xs: Float64Array): number => xs.reduce((s, x) => s + x, 0) / xs.length;
  const a = { id: p.row.methodA ?? 'A', mean: avg(p.tested.a) };
  const b = { id: p.row.methodB ?? 'B', mean: avg(p.tested.b) };
  const [hi, lo] = p.claim?.direction === 'less' ? [b, a] : [a, b];
  // Cell flags speak of proportions: a metric outside [0, 1] (latency) has none.
  if ([hi.mean, lo.mean].some((x) => x < 0 || x > 1)) return undefined;
  const facts = {
    higher: hi.mean,
    lower: lo.mean,
    higherId: hi.id,
    lowerId: lo.id,
    mde,
    chance: p.chance?.rate ?? null,
  };
  return p.chance ? { ...facts, chanceMargin: p.chance.margin } : facts;
}

/** Each pending verdict judged: MDE at α / family size (Holm's first step), the rule, the reason. */
export function finishVerdicts(pending: readonly PendingVerdict[]): VerdictRow[] {
  return pending.map((p) => {
    const size = p.familySize ?? null;
    const base = { ...p.row, family: p.family, familySize: size, pHolm: p.pHolm ?? null };
    const alpha = ALPHA / Math.max(1, size ?? 1);
    const mde =
      p.mde !== undefined
        ? p.mde
        : p.tested
          ? mdePaired(p.tested.a, p.tested.b, p.tested.clusters, { ...MDE_DEFAULTS, alpha })
          : null;
    let outcome: { verdict: Verdict; reason: string };
    if (p.fixed) outcome = p.fixed;
    else {
      const r = p.row;
      const evidence: Evidence | null =
        p.tested && r.estimate !== null && r.ciLow !== null && r.ciHigh !== null
          ? {
              n: r.n,
              units: p.tested.units,
              estimate: r.estimate,
              ciLow: r.ciLow,
              ciHigh: r.ciHigh,
              pHolm: p.pHolm ?? Number.NaN,
              mde,
            }
          : null;
      outcome =
        p.judgeWith && evidence
          ? p.judgeWith(evidence)
          : judge(evidence, p.claim ?? { direction: 'greater', target: 0 });
    }
    // Flags speak of the cell, not of its family's correction: the MDE of one test at α = 0.05 (the row's own MDE
    // at α / m would flag nearly every small cell of a large family).
    const cellMde =
      p.mde !== undefined
        ? p.mde
        : p.tested
          ? mdePaired(p.tested.a, p.tested.b, p.tested.clusters, MDE_DEFAULTS)
          : null;
    const facts = p.fixed ? undefined : cellFactsOf(p, cellMde);
    const flags: Flag[] = [...(p.flags ?? []), ...(facts ? cellFlags(facts) : [])];
    const flagged = flagText(flags, facts);
    const reason = [p.prefix, outcome.reason, p.suffix, flagged].filter((x) => x !== undefined && x !== '').join('; ');
    const pHolm = base.pHolm !== null && Number.isNaN(base.pHolm) ? null : base.pHolm;
    return { ...base, pHolm, mde, verdict: outcome.verdict, reason, flags: flagsColumn(flags) };
  });
}
