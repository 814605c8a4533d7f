/**
 * Holm's step-down adjustment of p-values within one family of comparisons (S. Holm 1979, "A simple sequentially
 * rejective multiple test procedure", Scand. J. Statistics 6:65–70): sort ascending, p̃_(i) = max_{j ≤ i}
 * min(1, (m − j + 1) p_(j)). It controls the family-wise error rate under any dependence, which the comparisons of
 * one experiment (same questions, correlated methods) certainly have. Rejecting where p̃ ≤ α is Holm's test.
 * NaN p-values (no pairs) stay NaN and do not count towards m.
 */
export function holm(pValues: readonly number[]): number[] {
  const order = pValues
    .map((p, i) => ({ p, i }))
    .filter((x) => !Number.isNaN(x.p))
    .sort((a, b) => a.p - b.p || a.i - b.i);
  const m = order.length;
  const out = pValues.map(() => Number.NaN);
  let running = 0;
  order.forEach(({ p, i }, j) => {
    running = Math.max(running, Math.min(1, (m - j) * p));
    out[i] = running;
  });
  return out;
}
