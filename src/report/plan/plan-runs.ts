/**
 * The runs of a results file that declare one of the plan's five experiments (`plan:` in their config), with the
 * headline metric each section reports: the `plan` block's metric / level / k, else judged accuracy when the run
 * answered questions, else recall_any@10 at session level.
 */
import { z } from 'zod';
import { PlanConfigSchema, type PlanConfig } from '../../core/stats-config.ts';
import type { ResultStore } from '../../store/index.ts';
import { seriesLabeller, type SeriesKey } from '../series-label.ts';
import type { TypeMeanRow } from '../type-means.ts';

export interface Headline {
  metric: string;
  level: string;
  k: number | null;
}

export interface PlanRun {
  runId: string;
  name: string;
  description: string | null;
  seed: number;
  plan: PlanConfig;
  headline: Headline;
  /** Method ids and registry names, config order. */
  methods: { id: string; method: string }[];
  reference: string | null;
  /** stats.referenceRun: the run (by name) whose reference method this run is compared with (sweep variations). */
  referenceRun: string | null;
}

const StoredConfig = z.object({
  name: z.string(),
  description: z.string().optional(),
  seed: z.number(),
  methods: z.array(z.object({ id: z.string(), method: z.string() }).passthrough()),
  qa: z.unknown().optional(),
  plan: PlanConfigSchema.optional(),
  stats: z.object({ reference: z.string().optional(), referenceRun: z.string().optional() }).passthrough().optional(),
}).passthrough();

export async function loadPlanRuns(store: ResultStore): Promise<PlanRun[]> {
  const rows = await store.query<{ run_id: string; config_json: string }>(`SELECT run_id, config_json FROM runs ORDER BY started_at, run_id`);
  const out: PlanRun[] = [];
  for (const r of rows) {
    const parsed = StoredConfig.safeParse(JSON.parse(r.config_json));
    if (!parsed.success || !parsed.data.plan) continue;
    const c = parsed.data;
    const plan = c.plan!;
    const qa = c.qa !== undefined;
    const level = plan.level ?? (qa ? 'qa' : 'session');
    out.push({
      runId: r.run_id, name: c.name, description: c.description ?? null, seed: c.seed, plan,
      headline: { metric: plan.metric ?? (qa ? 'accuracy' : 'recall_any'), level, k: level === 'qa' ? null : (plan.k ?? 10) },
      methods: c.methods.map((m) => ({ id: m.id, method: m.method })),
      reference: c.stats?.reference ?? c.methods.find((m) => m.method === 'unified-embedding')?.id ?? null,
      referenceRun: c.stats?.referenceRun ?? null,
    });
  }
  return out;
}

export const headlineTitle = (h: Headline): string => `${h.metric}${h.k === null ? '' : `@${h.k}`} (${h.level} level)`;

/** Per-type means with CIs of some runs (rows of scores_by_type with native_type = 'all'). */
export async function typeMeansOfRuns(store: ResultStore, runIds: readonly string[], h: Headline, label?: (k: SeriesKey) => string): Promise<TypeMeanRow[]> {
  if (runIds.length === 0) return [];
  const rows = await store.query<SeriesKey & { dataset: string; adapt_type: string; n: number; mean: number; ci_low: number | null; ci_high: number | null }>(
    `SELECT run_id, dataset, method, granularity, adapt_type, n, mean, ci_low, ci_high FROM scores_by_type
     WHERE native_type = 'all' AND metric = $1 AND level = $2 AND k IS NOT DISTINCT FROM $3
     ORDER BY dataset, run_id, method, adapt_type`,
    [h.metric, h.level, h.k]).then((all) => all.filter((r) => runIds.includes(r.run_id)));
  const lab = label ?? seriesLabeller(rows);
  return rows.map((r) => ({
    dataset: r.dataset, series: lab(r), adaptType: r.adapt_type, n: r.n, mean: r.mean,
    ...(r.ci_low !== null && r.ci_high !== null ? { ciLow: r.ci_low, ciHigh: r.ci_high } : {}),
  }));
}

export const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;
export const points = (x: number): string => `${x >= 0 ? '+' : '-'}${Math.abs(x * 100).toFixed(1)}`;
