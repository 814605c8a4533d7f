/**
 * `memory-vs-none`, in every plan run that holds the closed-book control (a `no-memory` method,
 * baselines/no-memory): each other method's headline (judged accuracy in a QA run) against no memory at all, paired,
 * a gain (> 0) claimed — without it a QA gain cannot be attributed to memory. One family per run × dataset, apart
 * from the plan's own claims. The control has no retrieval scores, so a run whose headline is a retrieval metric gets
 * n/a rows saying judged accuracy needs an `llm:` block.
 */
import type { ClaimContext } from './context.ts';
import { familyKey, type PendingVerdict } from './families.ts';
import { headlineText, testPairs, type PlanRunInput } from './inputs.ts';
import { noCellVerdict, testedVerdict } from './pending.ts';

export const MEMORY_CLAIM = 'memory-vs-none';

export function memoryClaims(ctx: ClaimContext, run: PlanRunInput, experiment: string): PendingVerdict[] {
  const none = run.methods.find((m) => m.method === 'no-memory');
  const stats = ctx.stats(run.runId);
  if (!none || !stats) return [];
  const out: PendingVerdict[] = [];
  for (const dataset of ctx.datasetsOf(run.runId)) {
    const h = ctx.headline(run, dataset);
    const family = familyKey(run.name, dataset, h, 'all', false, MEMORY_CLAIM);
    const ids = ctx.datasetIds(run.runId, dataset);
    for (const m of run.methods.filter((x) => x.id !== none.id)) {
      const row = { experiment, dataset, claim: MEMORY_CLAIM, methodA: m.id, methodB: none.id, ...h, adaptType: 'all' };
      const tested = testPairs(
        ctx.scores.pairs({ runId: run.runId, method: m.id }, { runId: run.runId, method: none.id }, dataset, h, 'all'),
        stats,
        ctx.plans,
        ids,
      );
      const prefix = `${ctx.label(run.runId, m.id)} − no memory (${none.id}, the question alone)`;
      out.push(
        tested
          ? testedVerdict(row, family, tested, { direction: 'greater', target: 0 }, { prefix })
          : noCellVerdict(
              row,
              family,
              `${prefix}: no cell — no ${headlineText(h)} pairs (no memory has no retrieval scores; judged accuracy needs an llm: block)`,
            ),
      );
    }
  }
  return out;
}
