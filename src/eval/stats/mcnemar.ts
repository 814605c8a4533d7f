/**
 * Exact McNemar test for paired binary outcomes (Q. McNemar 1947, "Note on the sampling error of the difference
 * between correlated proportions or percentages", Psychometrika 12:153–157; exact form: the conditional binomial
 * test on the discordant pairs). With b questions right only under A and c right only under B, under H0 each
 * discordant pair is A-favoured with probability 1/2, so p = min(1, 2 · P[Bin(b + c, ½) ≤ min(b, c)]).
 * This is what statsmodels.stats.contingency_tables.mcnemar(table, exact=True) computes, and equals
 * scipy.stats.binomtest(b, b + c, 0.5).pvalue (two-sided; for p = ½ the distribution is symmetric, so scipy's
 * "as likely or less likely" rule and doubling the smaller tail coincide).
 */
export interface McNemarResult {
  /** Pairs where only A succeeded / only B succeeded. */
  onlyA: number;
  onlyB: number;
  pValue: number;
}

/** log P[Bin(n, ½) ≤ k], summed in log space so n in the thousands neither underflows nor loses precision. */
function logBinomHalfCdf(k: number, n: number): number {
  let logPmf = -n * Math.LN2;
  let acc = logPmf;
  for (let i = 1; i <= k; i++) {
    logPmf += Math.log(n - i + 1) - Math.log(i);
    const hi = Math.max(acc, logPmf);
    acc = hi + Math.log(Math.exp(acc - hi) + Math.exp(logPmf - hi));
  }
  return acc;
}

/** The two-sided exact p-value from the discordant counts. */
export function mcnemarExact(onlyA: number, onlyB: number): McNemarResult {
  const n = onlyA + onlyB;
  if (n === 0) return { onlyA, onlyB, pValue: 1 };
  const k = Math.min(onlyA, onlyB);
  // Exactly half of the mass is ≤ n/2 when k = n/2: the doubled tail exceeds 1 and is clipped, as statsmodels does.
  const pValue = Math.min(1, 2 * Math.exp(logBinomHalfCdf(k, n)));
  return { onlyA, onlyB, pValue };
}

/** McNemar on two aligned 0/1 vectors (values other than 0 and 1 are a caller error). */
export function mcnemarPaired(a: ArrayLike<number>, b: ArrayLike<number>): McNemarResult {
  let onlyA = 0;
  let onlyB = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if ((x !== 0 && x !== 1) || (y !== 0 && y !== 1))
      throw new RangeError(`McNemar needs 0/1 outcomes, got ${x} and ${y} at ${i}`);
    if (x === 1 && y === 0) onlyA++;
    else if (x === 0 && y === 1) onlyB++;
  }
  return mcnemarExact(onlyA, onlyB);
}
