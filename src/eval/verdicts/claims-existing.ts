/**
 * Experiment 1's claim `factual-high-weak-low`, per dataset, system and weak type (temporal, update): the plan
 * predicts every existing system does well on factual questions (~70–80%) and poorly on temporal and update ones
 * (~30–50%). The estimate is mean(factual) − mean(weak type), over different questions of the same system, so the CI
 * is a two-sample bootstrap (percentile): the two types' questions resampled separately, or — where questions share a
 * conversation (LoCoMo) — whole conversations, each carrying both types. reached = CI above 0; not met = CI at or
 * below 0; not established otherwise. No paired test, no family: the section is descriptive. MDE: (z₀.₉₇₅ + z₀.₈) × the
 * bootstrap standard error of the difference (80% power, two-sided 0.05), so it carries the clustering too.
 */
import { normalQuantile, resampleIndices, seedFor } from '../stats/index.ts';
import { bootstrapFor, conversationOf } from '../stats/results/index.ts';
import type { ClaimContext } from './context.ts';
import type { PendingVerdict } from './families.ts';
import { mean, type PlanRunInput } from './inputs.ts';
import type { Verdict } from './rule.ts';

const WEAK = ['temporal', 'update'];
const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;

/** Percentile 95% CI of mean(A) − mean(B) and the bootstrap standard error: units carry (sum, count) of each group. */
export function differenceCi(
  units: readonly { sa: number; na: number; sb: number; nb: number }[],
  resamples: number,
  seed: number,
  stratified: boolean,
): { low: number; high: number; se: number } | null {
  const diffs: number[] = [];
  if (stratified) {
    const a = units.filter((u) => u.na > 0);
    const b = units.filter((u) => u.nb > 0);
    if (a.length === 0 || b.length === 0) return null;
    const pa = resampleIndices(a.length, resamples, seed);
    const pb = resampleIndices(b.length, resamples, seed ^ 0x9e3779b9);
    for (let r = 0; r < resamples; r++) {
      let s1 = 0,
        s2 = 0;
      for (let i = 0; i < a.length; i++) s1 += a[pa[r * a.length + i]!]!.sa;
      for (let i = 0; i < b.length; i++) s2 += b[pb[r * b.length + i]!]!.sb;
      diffs.push(s1 / a.length - s2 / b.length);
    }
  } else {
    const plan = resampleIndices(units.length, resamples, seed);
    for (let r = 0; r < resamples; r++) {
      let sa = 0,
        na = 0,
        sb = 0,
        nb = 0;
      for (let i = 0; i < units.length; i++) {
        const u = units[plan[r * units.length + i]!]!;
        sa += u.sa;
        na += u.na;
        sb += u.sb;
        nb += u.nb;
      }
      if (na > 0 && nb > 0) diffs.push(sa / na - sb / nb);
    }
  }
  if (diffs.length === 0) return null;
  diffs.sort((x, y) => x - y);
  const at = (p: number): number => diffs[Math.min(diffs.length - 1, Math.max(0, Math.floor(p * diffs.length)))]!;
  const m = diffs.reduce((s, x) => s + x, 0) / diffs.length;
  const se = Math.sqrt(diffs.reduce((s, x) => s + (x - m) ** 2, 0) / Math.max(1, diffs.length - 1));
  return { low: at(0.025), high: at(0.975), se };
}

export function existingClaims(ctx: ClaimContext, run: PlanRunInput, experiment: string): PendingVerdict[] {
  const stats = ctx.stats(run.runId);
  const out: PendingVerdict[] = [];
  for (const dataset of ctx.datasetsOf(run.runId)) {
    const h = ctx.headline(run, dataset);
    const bootstrap = bootstrapFor(ctx.datasetIds(run.runId, dataset), stats?.cluster ?? 'auto');
    for (const m of run.methods) {
      const f = ctx.facts(run.runId, m.id);
      if (!f?.ranks || f.upperBound) continue;
      const series = ctx.scores.get(run.runId, dataset, m.id, h);
      if (!series) continue;
      const values = (t: string): [string, number][] =>
        [...series].filter(([, v]) => v.adaptType === t).map(([q, v]) => [q, v.value]);
      const factual = values('factual');
      for (const t of WEAK) {
        const weak = values(t);
        if (weak.length === 0) continue;
        const base = {
          experiment,
          dataset,
          claim: 'factual-high-weak-low',
          methodA: m.id,
          methodB: null,
          metric: h.metric,
          level: h.level,
          k: h.k,
          adaptType: t,
          pValue: null,
        };
        const cell = { ctx, run, dataset, method: m.id, type: t, bootstrap, base };
        out.push(weakTypeClaim(cell, factual, weak));
      }
    }
  }
  return out;
}

interface WeakTypeCell {
  ctx: ClaimContext;
  run: PlanRunInput;
  dataset: string;
  method: string;
  type: string;
  bootstrap: 'question' | 'conversation';
  base: Omit<PendingVerdict['row'], 'n' | 'estimate' | 'ciLow' | 'ciHigh'>;
}

/** One system's factual − weak-type difference with its two-sample CI, or n/a when there is nothing to compare. */
function weakTypeClaim(c: WeakTypeCell, factual: [string, number][], weak: [string, number][]): PendingVerdict {
  const { ctx, run, dataset, type: t, bootstrap } = c;
  const stats = ctx.stats(run.runId);
  const n = factual.length + weak.length;
  if (ctx.silent(run.runId, dataset, c.method) || factual.length === 0)
    return {
      row: { ...c.base, n, estimate: null, ciLow: null, ciHigh: null },
      family: null,
      tested: null,
      pValue: Number.NaN,
      claim: null,
      fixed: {
        verdict: 'n/a',
        reason:
          factual.length === 0
            ? `no factual questions on ${dataset}`
            : `${ctx.label(run.runId, c.method)} returned no memory for every question on ${dataset}: nothing to compare`,
      },
    };
  const mf = mean(factual.map(([, v]) => v));
  const mw = mean(weak.map(([, v]) => v));
  const ci = differenceCi(
    unitsOf(factual, weak, bootstrap),
    stats?.resamples ?? 2000,
    seedFor(stats?.seed ?? run.seed, `existing\t${dataset}\t${c.method}\t${t}`),
    bootstrap === 'question',
  );
  const est = mf - mw;
  let verdict: Verdict = 'not established';
  if (ci && ci.low > 0) verdict = 'reached';
  else if (ci && ci.high <= 0) verdict = 'not met';
  const ciText = ci ? `[${(ci.low * 100).toFixed(1)}, ${(ci.high * 100).toFixed(1)}]` : '(no CI)';
  return {
    row: { ...c.base, n, estimate: est, ciLow: ci?.low ?? null, ciHigh: ci?.high ?? null },
    family: null,
    tested: null,
    pValue: Number.NaN,
    claim: null,
    // Two independent samples: the normal-approximation MDE over the bootstrap standard error of the difference.
    mde: ci ? (normalQuantile(0.975) + normalQuantile(0.8)) * ci.se : null,
    fixed: {
      verdict,
      reason: `factual ${pct(mf)} (n ${factual.length}) vs ${t} ${pct(mw)} (n ${weak.length}); difference ${(est * 100).toFixed(1)} points ${ciText} (${bootstrap === 'conversation' ? 'conversations' : 'questions of each type'} resampled); plan: factual ~70–80%, ${t} ~30–50%`,
    },
  };
}

/** The resampled units (questions, or conversations carrying both types), each with (sum, count) of each group, by id. */
function unitsOf(
  factual: [string, number][],
  weak: [string, number][],
  bootstrap: 'question' | 'conversation',
): { sa: number; na: number; sb: number; nb: number }[] {
  const unitOf = (q: string): string => (bootstrap === 'conversation' ? (conversationOf(q) ?? q) : q);
  const units = new Map<string, { sa: number; na: number; sb: number; nb: number }>();
  for (const [q, v] of factual) {
    const u = units.get(unitOf(q)) ?? { sa: 0, na: 0, sb: 0, nb: 0 };
    u.sa += v;
    u.na++;
    units.set(unitOf(q), u);
  }
  for (const [q, v] of weak) {
    const u = units.get(unitOf(q)) ?? { sa: 0, na: 0, sb: 0, nb: 0 };
    u.sb += v;
    u.nb++;
    units.set(unitOf(q), u);
  }
  return [...units.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, u]) => u);
}
