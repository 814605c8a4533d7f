/**
 * The one score an Every Eval Ever instance line carries in `evaluation.score` (the schema has one score per line;
 * every other metric of the question travels in `metadata.scores`): the run's declared headline on the dataset
 * (src/eval/verdicts `declaredHeadline`), else judged accuracy when the run answered, else recall_any at the
 * coarsest level and largest k scored (a stable rule that looks at no method's numbers).
 */
import { PlanConfigSchema } from '../../core/stats-config.ts';
import { declaredHeadline, type Headline } from '../../eval/verdicts/index.ts';

export interface Cell {
  level: string;
  metric: string;
  k: number | null;
}

const same = (a: Cell, b: Cell): boolean => a.level === b.level && a.metric === b.metric && a.k === b.k;

/** The headline of a run on a dataset among the cells it scored (`cells` non-empty, sorted). */
export function instanceHeadline(config: Record<string, unknown>, dataset: string, cells: readonly Cell[]): Cell {
  const plan = PlanConfigSchema.safeParse(config.plan);
  const declared: Headline | undefined = plan.success
    ? declaredHeadline(plan.data, dataset, config.qa !== undefined)
    : undefined;
  if (declared && cells.some((c) => same(c, declared))) return declared;
  const accuracy = cells.find((c) => c.metric === 'accuracy' && c.k === null);
  if (accuracy) return accuracy;
  const recall = cells.filter((c) => c.metric === 'recall_any' && c.k !== null);
  const order = ['session', 'round', 'turn'];
  recall.sort((a, b) => order.indexOf(a.level) - order.indexOf(b.level) || (b.k ?? 0) - (a.k ?? 0));
  return recall[0] ?? cells[0]!;
}
