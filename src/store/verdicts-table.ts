/**
 * The `verdicts` table: computed with the statistics (stats-tables.ts → src/eval/verdicts) from the file's rows, and
 * read by every report — the terminal report, the HTML report, the notebooks and the quick start print it and none
 * recomputes a verdict. This file loads the verdicts' inputs (plan runs, method facts, retrieval facts, questions)
 * and reads the table back (`readVerdicts`); stats-tables.ts gathers them with the scores (`loadVerdictInput`).
 */
import { parseStoredConfig } from './stored-config.ts';
import { z } from 'zod';
import { PlanConfigSchema } from '../core/stats-config.ts';
import type {
  FindingRow,
  MethodFacts,
  PlanRunInput,
  QuestionFact,
  RetrievalFact,
  VerdictRow,
} from '../eval/verdicts/index.ts';
import type { ResultStore } from './types.ts';

const StoredPlanRun = z
  .object({
    name: z.string(),
    seed: z.number(),
    methods: z.array(
      z
        .object({ id: z.string(), method: z.string(), options: z.record(z.string(), z.unknown()).default({}) })
        .passthrough(),
    ),
    stats: z.object({ referenceRun: z.string().optional() }).passthrough().optional(),
    timingRepeats: z.number().optional(),
    qa: z.unknown().optional(),
    plan: PlanConfigSchema.optional(),
  })
  .passthrough();

/** Runs whose stored config has a valid `plan:` block. */
export async function loadPlanRunInputs(store: ResultStore): Promise<PlanRunInput[]> {
  const rows = await store.query<{ run_id: string; config_json: string }>(
    `SELECT run_id, config_json FROM runs ORDER BY started_at, run_id`,
  );
  const out: PlanRunInput[] = [];
  for (const r of rows) {
    const parsed = StoredPlanRun.safeParse(parseStoredConfig(r.config_json, r.run_id, store.path));
    if (!parsed.success || !parsed.data.plan) continue;
    const c = parsed.data;
    out.push({
      runId: r.run_id,
      name: c.name,
      seed: c.seed,
      plan: c.plan!,
      methods: c.methods.map((m) => ({ id: m.id, method: m.method, options: m.options })),
      referenceRun: c.stats?.referenceRun ?? null,
      timingRepeats: c.timingRepeats ?? 1,
      qa: c.qa !== undefined,
    });
  }
  return out;
}

export async function loadMethodFacts(store: ResultStore): Promise<MethodFacts[]> {
  const rows = await store.query<{
    run_id: string;
    method: string;
    kind: string;
    upper_bound: boolean;
    degraded: string | null;
    output: string;
    capabilities: string;
  }>(`SELECT run_id, method, kind, upper_bound, degraded, output, capabilities FROM methods ORDER BY run_id, method`);
  return rows.map((r) => ({
    runId: r.run_id,
    method: r.method,
    kind: r.kind,
    upperBound: r.upper_bound,
    degraded: r.degraded,
    // Full context's units are the history in date order: no ranking, whatever an older file recorded.
    ranks: r.output === 'units' && !r.capabilities.includes('"ranks":false') && r.kind !== 'full-context',
  }));
}

/** Every retrieval row, reduced (the ranking as a hash of its unit ids). */
export async function loadRetrievalFacts(store: ResultStore): Promise<RetrievalFact[]> {
  const rows = await store.query<{
    run_id: string;
    dataset: string;
    question_id: string;
    method: string;
    latency_ms: number;
    ranking: string;
    empty: boolean;
    route: string | null;
    error: boolean;
  }>(
    `SELECT run_id, dataset, question_id, method, latency_ms, hash(unit_ids)::VARCHAR AS ranking,
            (no_memory OR len(unit_ids) = 0) AS empty, route, error IS NOT NULL AS error
     FROM retrievals ORDER BY run_id, dataset, question_id, method`,
  );
  return rows.map((r) => ({
    runId: r.run_id,
    dataset: r.dataset,
    questionId: r.question_id,
    method: r.method,
    latencyMs: r.latency_ms,
    ranking: r.ranking,
    empty: r.empty,
    route: r.route,
    error: r.error,
  }));
}

interface QuestionFactRow {
  run_id: string;
  dataset: string;
  question_id: string;
  adapt_type: string;
  hs: number | null;
  ht: number | null;
  gs: number;
  gt: number;
}

export async function loadQuestionFacts(store: ResultStore): Promise<QuestionFact[]> {
  const rows = await store.query<QuestionFactRow>(
    `SELECT run_id, dataset, question_id, adapt_type, haystack_sessions hs, haystack_turns ht,
       len(list_distinct(evidence_session_ids))::INT gs, len(list_distinct(evidence_turn_ids))::INT gt
     FROM questions ORDER BY run_id, dataset, question_id`,
  );
  return rows.map((r) => ({
    runId: r.run_id,
    dataset: r.dataset,
    questionId: r.question_id,
    adaptType: r.adapt_type,
    haystack:
      r.hs === null && r.ht === null ? null : { sessions: r.hs, turns: r.ht, goldSessions: r.gs, goldTurns: r.gt },
  }));
}

interface Row {
  experiment: string;
  dataset: string;
  claim: string;
  method_a: string | null;
  method_b: string | null;
  metric: string | null;
  level: string | null;
  k: number | null;
  adapt_type: string;
  n: number;
  estimate: number | null;
  ci_low: number | null;
  ci_high: number | null;
  p_value: number | null;
  p_holm: number | null;
  family: string | null;
  family_size: number | null;
  mde: number | null;
  verdict: VerdictRow['verdict'];
  reason: string;
  flags: string | null;
}

/** Which verdicts to read (every field optional; `claim` may end in `*`, e.g. `ablation:*`). */
export interface VerdictFilter {
  experiment?: string;
  dataset?: string;
  claim?: string;
}

/**
 * The stored verdicts, in experiment, dataset, claim, method and type order; [] for a file without the table (an
 * older file opened read-only: `adaptmr report` adds it). Statistics are refreshed by `adaptmr run` and `report`.
 */
export async function readVerdicts(store: ResultStore, filter: VerdictFilter = {}): Promise<VerdictRow[]> {
  const [has] = await store.query<{ n: number }>(
    `SELECT count(*) AS n FROM information_schema.tables WHERE table_schema = 'main' AND table_name = 'verdicts'`,
  );
  if (!has?.n) return [];
  const where: string[] = [];
  const params: string[] = [];
  const add = (sql: string, v: string): void => {
    params.push(v);
    where.push(sql.replace('?', `$${params.length}`));
  };
  if (filter.experiment !== undefined) add('experiment = ?', filter.experiment);
  if (filter.dataset !== undefined) add('dataset = ?', filter.dataset);
  if (filter.claim !== undefined) {
    if (filter.claim.endsWith('*')) add('starts_with(claim, ?)', filter.claim.slice(0, -1));
    else add('claim = ?', filter.claim);
  }
  const rows = await store.query<Row>(
    `SELECT * FROM verdicts ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
     ORDER BY experiment, dataset, claim, method_a NULLS FIRST, method_b NULLS FIRST,
       CASE adapt_type WHEN 'all' THEN 0 WHEN 'factual' THEN 1 WHEN 'temporal' THEN 2 WHEN 'update' THEN 3 WHEN 'multi-hop' THEN 4 WHEN 'abstention' THEN 5 ELSE 6 END, adapt_type`,
    params,
  );
  return rows.map((r) => ({
    experiment: r.experiment,
    dataset: r.dataset,
    claim: r.claim,
    methodA: r.method_a,
    methodB: r.method_b,
    metric: r.metric,
    level: r.level,
    k: r.k,
    adaptType: r.adapt_type,
    n: r.n,
    estimate: r.estimate,
    ciLow: r.ci_low,
    ciHigh: r.ci_high,
    pValue: r.p_value,
    pHolm: r.p_holm,
    family: r.family,
    familySize: r.family_size,
    mde: r.mde,
    verdict: r.verdict,
    reason: r.reason,
    flags: r.flags ?? '',
  }));
}

/** The stored findings in the order they were derived; [] for a file without the table (written before it). */
export async function readFindings(store: ResultStore): Promise<FindingRow[]> {
  const [has] = await store.query<{ n: number }>(
    `SELECT count(*) AS n FROM information_schema.tables WHERE table_schema = 'main' AND table_name = 'findings'`,
  );
  if (!has?.n) return [];
  const rows = await store.query<{ experiment: string; dataset: string; finding: string; supporting_claims: string }>(
    'SELECT experiment, dataset, finding, supporting_claims FROM findings ORDER BY rowid',
  );
  return rows.map((r) => ({
    experiment: r.experiment,
    dataset: r.dataset,
    finding: r.finding,
    supportingClaims: r.supporting_claims,
  }));
}
