/**
 * Example weights for class- and benchmark-balanced training of the query-type classifier: without them
 * the model learns the largest benchmark's phrasing (the Chinese benchmark's 2,954 questions, 80 % of them multi-hop) and its
 * class prior. Each weight is n / (groups × group size), raised to `power` (1 = fully balanced, 0.5 = halfway in
 * log terms, 0 = unweighted), then rescaled to mean 1 so the L2 strength keeps its meaning.
 * - `class`: every type carries the same total weight;
 * - `benchmark`: every benchmark carries the same total weight;
 * - `benchmark+class`: every type carries the same total weight, shared equally by the benchmarks that hold it,
 *   each benchmark's share spread evenly over its questions of that type.
 */
import type { AdaptType } from '../../../core/types.ts';

export const BALANCES = ['none', 'class', 'benchmark', 'benchmark+class'] as const;
export type Balance = (typeof BALANCES)[number];

export function balanceWeights(
  items: readonly { benchmark: string; gold: AdaptType }[],
  balance: Balance,
  power = 1,
): number[] {
  const n = items.length;
  if (balance === 'none' || n === 0) return items.map(() => 1);
  const count = (key: (i: (typeof items)[number]) => string) => {
    const m = new Map<string, number>();
    for (const i of items) m.set(key(i), (m.get(key(i)) ?? 0) + 1);
    return m;
  };
  const byClass = count((i) => i.gold);
  const byBench = count((i) => i.benchmark);
  const byCell = count((i) => `${i.benchmark}\u0000${i.gold}`);
  const cellsOfClass = count((i) => i.gold);
  cellsOfClass.clear();
  for (const key of byCell.keys()) {
    const gold = key.split('\u0000')[1]!;
    cellsOfClass.set(gold, (cellsOfClass.get(gold) ?? 0) + 1);
  }
  const raw = items.map((i) => {
    if (balance === 'class') return n / (byClass.size * byClass.get(i.gold)!);
    if (balance === 'benchmark') return n / (byBench.size * byBench.get(i.benchmark)!);
    const cell = byCell.get(`${i.benchmark}\u0000${i.gold}`)!;
    return n / (byClass.size * cellsOfClass.get(i.gold)! * cell);
  });
  const tempered = raw.map((w) => w ** power);
  const mean = tempered.reduce((a, b) => a + b, 0) / n;
  return tempered.map((w) => w / mean);
}
