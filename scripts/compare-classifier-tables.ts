/**
 * Paired comparison of two `adaptmr classifier table --out` files (same datasets, folds and seed, e.g. `--grid
 * previous` against `--grid current`): per protocol and test dataset, the accuracy of each and the exact two-sided
 * McNemar test on the questions one gets right and the other wrong (McNemar 1947; exact binomial form as in
 * statsmodels' `mcnemar(exact=True)`: p = min(1, 2 · P[X ≤ min(b, c)]), X ~ Binomial(b + c, ½)).
 *
 *   npx tsx scripts/compare-classifier-tables.ts before.json after.json
 */
import { readFileSync } from 'node:fs';

interface Pred {
  protocol: string;
  dataset: string;
  id: string;
  gold: string;
  predicted: string;
}

function load(file: string): Pred[] {
  const data = JSON.parse(readFileSync(file, 'utf8')) as { predictions?: Pred[] };
  if (!Array.isArray(data.predictions)) {
    console.error(`${file}: no "predictions" (written by an older \`adaptmr classifier table\`; rerun it)`);
    process.exit(1);
  }
  return data.predictions;
}

/** Exact two-sided McNemar p from the discordant counts: 2 · P[X ≤ min(b, c)], X ~ Bin(b + c, ½), capped at 1. */
function binomTailTwoSided(b: number, c: number): number {
  const n = b + c;
  if (n === 0) return 1;
  const k = Math.min(b, c);
  let logC = 0;
  let tail = 0;
  for (let i = 0; i <= k; i++) {
    if (i > 0) logC += Math.log(n - i + 1) - Math.log(i);
    tail += Math.exp(logC - n * Math.LN2);
  }
  return Math.min(1, 2 * tail);
}

const [fileA, fileB] = process.argv.slice(2);
if (!fileA || !fileB) {
  console.error('usage: npx tsx scripts/compare-classifier-tables.ts before.json after.json');
  process.exit(1);
}
const a = load(fileA);
const byKey = new Map(load(fileB).map((p) => [`${p.protocol}\u0000${p.dataset}\u0000${p.id}`, p]));
const groups = new Map<string, { n: number; rightA: number; rightB: number; b: number; c: number }>();
for (const p of a) {
  const q = byKey.get(`${p.protocol}\u0000${p.dataset}\u0000${p.id}`);
  if (!q) continue;
  for (const key of [`${p.protocol} | ${p.dataset}`, `${p.protocol} | all`]) {
    const g = groups.get(key) ?? { n: 0, rightA: 0, rightB: 0, b: 0, c: 0 };
    const ra = p.predicted === p.gold;
    const rb = q.predicted === q.gold;
    g.n += 1;
    g.rightA += ra ? 1 : 0;
    g.rightB += rb ? 1 : 0;
    if (ra && !rb) g.b += 1;
    if (!ra && rb) g.c += 1;
    groups.set(key, g);
  }
}
console.log('| protocol | test data | n | before | after | before only right | after only right | McNemar exact p |');
console.log('|---|---|---:|---:|---:|---:|---:|---:|');
for (const [key, g] of groups) {
  // A pooled "all" row only when the protocol tested more than one dataset.
  if (
    key.endsWith(' | all') &&
    [...groups].some(([k, o]) => k !== key && k.startsWith(key.slice(0, -'all'.length)) && o.n === g.n)
  )
    continue;
  const pct = (x: number) => `${((100 * x) / g.n).toFixed(1)}%`;
  console.log(
    `| ${key} | ${g.n} | ${pct(g.rightA)} | ${pct(g.rightB)} | ${g.b} | ${g.c} | ${binomTailTwoSided(g.b, g.c).toPrecision(2)} |`,
  );
}
