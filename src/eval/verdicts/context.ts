/**
 * What every claim builder reads: the file's rows indexed once (scores per series, questions per run and dataset,
 * retrieval facts, method facts), the comparisons rows, each run's statistics settings, and the headline each plan
 * run reports per dataset (resolved once: declared, or the rule's choice — headline.ts).
 */
import { PlanCache } from '../stats/index.ts';
import type { ComparisonRow, RunStats, ScoreInput } from '../stats/results/index.ts';
import { resolveHeadline, type ResolvedHeadline } from './headline.ts';
import { ScoreIndex, type MethodFacts, type PlanRunInput, type QuestionFact, type RetrievalFact } from './inputs.ts';

export interface VerdictInput {
  scores: readonly ScoreInput[];
  questions: readonly QuestionFact[];
  methods: readonly MethodFacts[];
  retrievals: readonly RetrievalFact[];
  runs: readonly PlanRunInput[];
  runStats: ReadonlyMap<string, RunStats>;
  /** The comparisons table's rows; their families, p_holm and family sizes are (re)assigned. */
  comparisons: ComparisonRow[];
  plans?: PlanCache;
}

export class ClaimContext {
  readonly scores: ScoreIndex;
  readonly plans: PlanCache;
  private readonly headlines = new Map<string, ResolvedHeadline>();
  private readonly silentSet = new Set<string>();
  private readonly factsBy = new Map<string, MethodFacts>();
  private readonly idsBy = new Map<string, string[]>();

  constructor(readonly input: VerdictInput) {
    this.scores = new ScoreIndex(input.scores);
    this.plans = input.plans ?? new PlanCache(32);
    for (const m of input.methods) this.factsBy.set(`${m.runId}\t${m.method}`, m);
    for (const q of input.questions) {
      const key = `${q.runId}\t${q.dataset}`;
      const list = this.idsBy.get(key) ?? [];
      list.push(q.questionId);
      this.idsBy.set(key, list);
    }
    // Silent: a method whose every retrieval of a dataset (errors aside) returned nothing.
    const seen = new Map<string, boolean>();
    for (const r of input.retrievals) {
      if (r.error) continue;
      const key = `${r.runId}\t${r.dataset}\t${r.method}`;
      seen.set(key, (seen.get(key) ?? true) && r.empty);
    }
    for (const [key, allEmpty] of seen) if (allEmpty) this.silentSet.add(key);
  }

  facts(runId: string, method: string): MethodFacts | undefined {
    return this.factsBy.get(`${runId}\t${method}`);
  }

  /** Returned no memory for every question of the dataset (a stand-in that retrieves nothing). */
  silent(runId: string, dataset: string, method: string): boolean {
    return this.silentSet.has(`${runId}\t${dataset}\t${method}`);
  }

  /** Question ids of a run's dataset (what a bootstrap resamples). */
  datasetIds(runId: string, dataset: string): string[] {
    return this.idsBy.get(`${runId}\t${dataset}`) ?? [];
  }

  /** Datasets of a run, in the order its questions were written. */
  datasetsOf(runId: string): string[] {
    return [...new Set(this.input.questions.filter((q) => q.runId === runId).map((q) => q.dataset))];
  }

  stats(runId: string): RunStats | undefined {
    return this.input.runStats.get(runId);
  }

  /** Ranking methods of a run that the headline rule weighs: not gold-type (oracle) methods, not silent. */
  eligible(run: PlanRunInput, dataset: string): Set<string> {
    return new Set(
      run.methods
        .map((m) => m.id)
        .filter((id) => {
          const f = this.facts(run.runId, id);
          return f?.ranks && !f.upperBound && !this.silent(run.runId, dataset, id);
        }),
    );
  }

  headline(run: PlanRunInput, dataset: string): ResolvedHeadline {
    const key = `${run.runId}\t${dataset}`;
    let h = this.headlines.get(key);
    if (!h) {
      const rows = this.input.scores.filter((s) => s.runId === run.runId && s.dataset === dataset);
      h = resolveHeadline(run.plan, run.qa, dataset, rows, this.eligible(run, dataset), run.seed);
      this.headlines.set(key, h);
    }
    return h;
  }

  /** "(offline)" after a degraded method's id. */
  label(runId: string, method: string): string {
    const d = this.facts(runId, method)?.degraded;
    return d ? `${method} (${d})` : method;
  }
}
