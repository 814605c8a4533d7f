/**
 * Routing shown: for every AdaptMR method (and ablation), how many questions of each gold type went to each route —
 * so "the ONNX rows route 84% of S to factual" is visible rather than hidden in a mean. From the retrieval rows
 * (src/eval/verdicts/routing.ts); one table per dataset, rows method × route, columns the gold types (the five, and
 * a dataset's labels outside them — LoCoMo-Plus's `cognitive`, `outside` native types — when it has them).
 */
import Table from 'cli-table3';
import { routeByGoldType, type RetrievalFact } from '../../eval/verdicts/index.ts';
import type { QuestionFact } from '../../eval/verdicts/index.ts';
import { typeColumns } from '../per-type-table.ts';
import { tableData, type SectionTable } from './section.ts';

export interface RoutedMethod {
  runId: string;
  /** Shown in the first column (`adaptmr-single-rules`, `no-classifier`). */
  label: string;
  method: string;
}

export function routingTables(
  retrievals: readonly RetrievalFact[],
  questions: readonly QuestionFact[],
  methods: readonly RoutedMethod[],
  datasets: readonly string[],
): string {
  return routingTableData(retrievals, questions, methods, datasets)
    .map((t) => t.text)
    .join('\n');
}

/** The routing tables as data (for the HTML report) and as text, one per dataset that has routed questions. */
export function routingTableData(
  retrievals: readonly RetrievalFact[],
  questions: readonly QuestionFact[],
  methods: readonly RoutedMethod[],
  datasets: readonly string[],
): (SectionTable & { text: string })[] {
  const out: (SectionTable & { text: string })[] = [];
  for (const dataset of datasets) {
    const present = new Set(questions.filter((q) => q.dataset === dataset).map((q) => q.adaptType));
    const columns = typeColumns(present).filter((t) => t !== 'all');
    const table = new Table({
      head: ['method', 'route', ...columns, 'all'],
      style: { head: [], border: [], compact: true },
    });
    let any = false;
    for (const m of methods) {
      const cells = routeByGoldType(retrievals, questions, m.runId, dataset, m.method);
      if (cells.length === 0) continue;
      any = true;
      const totals = new Map<string, number>();
      for (const c of cells) totals.set(c.adaptType, (totals.get(c.adaptType) ?? 0) + c.n);
      for (const route of [...new Set(cells.map((c) => c.route))]) {
        const row = columns.map((t) => {
          const n = cells.find((c) => c.route === route && c.adaptType === t)?.n ?? 0;
          return totals.has(t) ? `${n}/${totals.get(t)}` : '—';
        });
        const all = cells.filter((c) => c.route === route).reduce((s, c) => s + c.n, 0);
        const total = [...totals.values()].reduce((s, n) => s + n, 0);
        table.push([m.label, route, ...row, `${all}/${total} (${((all / total) * 100).toFixed(0)}%)`]);
      }
    }
    const title = `Routing on ${dataset}: questions per route taken (rows) and gold type (columns)`;
    if (any) out.push({ ...tableData(title, table), text: `${title}\n${table.toString()}` });
  }
  return out;
}
