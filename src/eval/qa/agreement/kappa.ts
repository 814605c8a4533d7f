/**
 * Chance-corrected agreement of judges on binary verdicts (correct / not correct). No well-kept npm package computes
 * these (the registry has none beyond single-author stubs), so the textbook formulas are written out here and checked
 * against hand counts in kappa.test.ts.
 *
 * - Cohen's kappa for two raters (Cohen 1960, "A coefficient of agreement for nominal scales", Educational and
 *   Psychological Measurement 20(1)): κ = (p_o − p_e) / (1 − p_e), with p_o the share of items both raters label
 *   alike and p_e = Σ_c p_A(c) · p_B(c) the agreement expected from each rater's own label frequencies.
 * - Fleiss' kappa for m ≥ 2 raters per item (Fleiss 1971, "Measuring nominal scale agreement among many raters",
 *   Psychological Bulletin 76(5)): with n_ic raters giving item i label c (N items, m raters each),
 *   P_i = (Σ_c n_ic² − m) / (m(m − 1)), P̄ = mean_i P_i, p_c = Σ_i n_ic / (N m), P̄_e = Σ_c p_c²,
 *   κ = (P̄ − P̄_e) / (1 − P̄_e).
 * Both are undefined when chance agreement is 1 (every verdict the same label): `kappa` is then null, and the
 * report shows the plain agreement only.
 */

export interface Agreement {
  n: number;
  /** Observed agreement: Cohen's p_o, Fleiss' P̄ (the mean share of agreeing rater pairs per item). */
  agreement: number;
  /** Chance agreement p_e / P̄_e. */
  chance: number;
  kappa: number | null;
}

function kappaOf(observed: number, chance: number): number | null {
  return chance >= 1 - 1e-12 ? null : (observed - chance) / (1 - chance);
}

/** Cohen's kappa of two raters' binary labels on the same items (same order). */
export function cohensKappa(a: readonly boolean[], b: readonly boolean[]): Agreement {
  if (a.length !== b.length) throw new RangeError(`raters labelled ${a.length} and ${b.length} items`);
  const n = a.length;
  if (n === 0) throw new RangeError('no items to compare');
  let same = 0;
  let aTrue = 0;
  let bTrue = 0;
  for (let i = 0; i < n; i++) {
    if (a[i] === b[i]) same++;
    if (a[i]) aTrue++;
    if (b[i]) bTrue++;
  }
  const po = same / n;
  const pa = aTrue / n;
  const pb = bTrue / n;
  const pe = pa * pb + (1 - pa) * (1 - pb);
  return { n, agreement: po, chance: pe, kappa: kappaOf(po, pe) };
}

/** Fleiss' kappa: `items[i]` holds every rater's binary label of item i (each item the same number m ≥ 2 of raters). */
export function fleissKappa(items: readonly (readonly boolean[])[]): Agreement {
  const n = items.length;
  if (n === 0) throw new RangeError('no items to compare');
  const m = items[0]!.length;
  if (m < 2) throw new RangeError("Fleiss' kappa needs at least 2 raters per item");
  let sumP = 0;
  let trueLabels = 0;
  for (const labels of items) {
    if (labels.length !== m) throw new RangeError(`every item needs ${m} raters, one has ${labels.length}`);
    const t = labels.filter(Boolean).length;
    const f = m - t;
    trueLabels += t;
    sumP += (t * t + f * f - m) / (m * (m - 1));
  }
  const pBar = sumP / n;
  const pTrue = trueLabels / (n * m);
  const pe = pTrue * pTrue + (1 - pTrue) * (1 - pTrue);
  return { n, agreement: pBar, chance: pe, kappa: kappaOf(pBar, pe) };
}

/** One judge's verdict on one answer from its repeats: the majority, a tie counting as not correct. */
export function majorityVerdict(correct: readonly boolean[]): boolean {
  const yes = correct.filter(Boolean).length;
  return yes * 2 > correct.length;
}
