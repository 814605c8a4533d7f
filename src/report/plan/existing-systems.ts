/**
 * Plan experiment 1 section (seeds/004 §3.4, motivation): per-type means with 95% CIs of every system the run has,
 * the grouped-bars chart with whiskers, the plan's systems the run did not include (declared in `plan.systems`,
 * compared with the registry names of the run's methods), and the plan's prediction checked per system: factual
 * high, temporal and update low — "met" when factual's CI lies above both other types' CIs.
 */
import { join } from 'node:path';
import type { ResultStore } from '../../store/index.ts';
import { perTypeTable } from '../per-type-table.ts';
import { recallByTypeSpec } from '../recall-by-type-spec.ts';
import { renderChart } from '../render-chart.ts';
import type { TypeMeanRow } from '../type-means.ts';
import { pct, runHeadlineTitle, typeMeansOfRuns, type PlanRun } from './plan-runs.ts';
import type { PlanSection } from './section.ts';

function ci(r: TypeMeanRow | undefined): string {
  if (!r) return '—';
  return r.ciLow !== undefined ? `${pct(r.mean)} [${pct(r.ciLow)}, ${pct(r.ciHigh!)}]` : pct(r.mean);
}

export async function existingSystemsSection(store: ResultStore, run: PlanRun, chartsDir: string): Promise<PlanSection> {
  // One run: a method id names one series; its units may differ by dataset (the headline title says which), so the
  // label leaves granularity out and each method keeps one colour across the dataset facets.
  const rows = await typeMeansOfRuns(store, [run.runId], run.headlineOf, (k) => k.method);
  const title = `Experiment 1 — existing systems by query type: ${runHeadlineTitle(run)}, run ${run.name}`;
  const text = [perTypeTable(rows, title)];
  const ran = new Set(run.methods.map((m) => m.method));
  const missing = (run.plan.systems ?? []).filter((s) => !ran.has(s));
  text.push(missing.length > 0
    ? `plan systems missing from this run: ${missing.join(', ')} (not in the harness yet, or not listed under methods:)`
    : 'every plan system declared in plan.systems ran');
  const checks: string[] = [];
  for (const series of [...new Set(rows.map((r) => `${r.dataset}\t${r.series}`))]) {
    const get = (t: string) => rows.find((r) => `${r.dataset}\t${r.series}` === series && r.adaptType === t);
    const f = get('factual');
    const weak = ['temporal', 'update'].map(get).filter((r): r is TypeMeanRow => r !== undefined);
    if (!f || weak.length === 0) continue;
    const met = f.ciLow !== undefined && weak.every((w) => w.ciHigh !== undefined && f.ciLow! > w.ciHigh);
    checks.push(`  ${series.replace('\t', ' / ')}: factual ${ci(f)} vs ${weak.map((w) => `${w.adaptType} ${ci(w)}`).join(', ')} → ${met ? 'met' : 'not met'}`);
  }
  if (checks.length > 0) text.push(['plan prediction "factual high (~70–80%), temporal and update low (~30–50%)" (met = factual CI above both):', ...checks].join('\n'));
  const charts = rows.length > 0 ? [await renderChart(recallByTypeSpec(rows, { title }), join(chartsDir, 'exp1-existing-systems'))] : [];
  return { experiment: 'existing-systems', text: text.join('\n'), charts };
}
