/**
 * The QA section of `adaptmr report` judge accuracy by AdaptMR type (means and n from the
 * `scores_by_type` view, ± sd over judge runs from the verdicts), then each dataset's own headline numbers through
 * the aggregation of src/eval/qa/aggregate.ts — LongMemEval: task-averaged (mean of the six native types), overall
 * and abstention accuracy (`_abs` questions), as the paper reports them; LoCoMo: categories 1–4 (judge accuracy,
 * F1, BLEU-1, as Mem0 reports them) and category 5 (adversarial) apart. Which protocol a dataset follows is read
 * from its native types (LongMemEval's six type names; LoCoMo's category numbers), so custom-named data works too.
 */
import Table from 'cli-table3';
import { summarizeLocomo, summarizeLongMemEval, type LongMemEvalJudged, type Stat } from '../eval/qa/aggregate.ts';
import { protocolOfNativeTypes, type QaProtocol } from '../eval/qa/panel.ts';
import type { ResultStore } from '../store/index.ts';
import type { QaItem } from './qa-items.ts';
import type { SeriesKey } from './series-label.ts';
import { loadTypeMeans, type TypeMeanRow } from './type-means.ts';

type Label = (r: SeriesKey) => string;

function groupBy<T>(items: readonly T[], key: (t: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) out.set(key(item), [...(out.get(key(item)) ?? []), item]);
  return out;
}

const judged = (i: QaItem): LongMemEvalJudged => ({
  questionId: i.questionId,
  nativeType: i.nativeType,
  correct: i.correct,
});

/**
 * Accuracy per AdaptMR type and `all` (counted questions). Where some question had several judge runs, the row
 * carries the sample sd of the per-run accuracy (computed like LongMemEval's overall accuracy, per run).
 */
export async function qaAccuracyByType(
  store: ResultStore,
  items: readonly QaItem[],
  label: Label,
): Promise<TypeMeanRow[]> {
  const rows = await loadTypeMeans(store, { metric: 'accuracy', level: 'qa', k: null, label });
  const scored = items.filter((i) => i.counted && i.accuracy !== null);
  const groups = groupBy(scored, (i) => `${i.dataset}\t${label(i)}`);
  return rows.map((row) => {
    const group = (groups.get(`${row.dataset}\t${row.series}`) ?? []).filter(
      (i) => row.adaptType === 'all' || i.adaptType === row.adaptType,
    );
    const stat = summarizeLongMemEval(group.map(judged))?.overall;
    return stat && stat.runs > 1 ? { ...row, sd: stat.sd } : row;
  });
}

export type { QaProtocol };

/** The protocol whose native types a dataset's questions all carry, or null (the one rule: eval/qa/panel.ts). */
export function datasetProtocol(items: readonly QaItem[]): QaProtocol | null {
  return protocolOfNativeTypes(items.map((i) => i.nativeType));
}

const pct = (x: number): string => (x * 100).toFixed(1);

/** `mean% (n)`, `mean% ± sd (n)` over several judge runs, `—` when absent. */
export function statCell(s: Stat | undefined): string {
  if (!s) return '—';
  return `${pct(s.mean)}%${s.runs > 1 ? ` ± ${pct(s.sd)}` : ''} (${s.n})`;
}

const tableStyle = { head: [], border: [], compact: true };

/** Rows per (dataset, series) of one protocol, in the items' order. */
function perSeries(items: readonly QaItem[], label: Label, protocol: QaProtocol): [string, string, QaItem[]][] {
  const out: [string, string, QaItem[]][] = [];
  for (const [dataset, group] of groupBy(items, (i) => i.dataset)) {
    if (datasetProtocol(group) !== protocol) continue;
    for (const [series, rows] of groupBy(group, label)) out.push([dataset, series, rows]);
  }
  return out;
}

export function longMemEvalTable(items: readonly QaItem[], label: Label): string | null {
  const rows = perSeries(
    items.filter((i) => i.counted && i.accuracy !== null),
    label,
    'longmemeval',
  );
  if (rows.length === 0) return null;
  const table = new Table({
    head: ['dataset', 'method', 'task-averaged', 'overall', 'abstention (_abs)'],
    style: tableStyle,
  });
  for (const [dataset, series, group] of rows) {
    const s = summarizeLongMemEval(group.map(judged));
    table.push([
      dataset,
      series,
      s ? `${statCell(s.taskAveraged)} [${s.taskAveraged.types}/6 types]` : '—',
      statCell(s?.overall),
      statCell(s?.abstention),
    ]);
  }
  return `LongMemEval QA accuracy (LLM judge) — task-averaged = mean of the native types' accuracies\n${table.toString()}`;
}

export function locomoTable(items: readonly QaItem[], label: Label): string | null {
  const rows = perSeries(
    items.filter((i) => i.f1 !== null && i.bleu1 !== null),
    label,
    'locomo',
  );
  if (rows.length === 0) return null;
  const head = [
    'dataset',
    'method',
    'acc cat 1–4',
    'F1 cat 1–4',
    'BLEU-1 cat 1–4',
    'acc adversarial',
    'F1 adversarial',
  ];
  const table = new Table({ head, style: tableStyle });
  const num = (x: number | undefined): string => (x === undefined ? '—' : pct(x));
  for (const [dataset, series, group] of rows) {
    const s = summarizeLocomo(
      group.map((i) => ({
        category: Number(i.nativeType),
        f1: i.f1 ?? 0,
        bleu1: i.bleu1 ?? 0,
        ...(i.correct.length > 0 ? { judge: i.correct } : {}),
      })),
    );
    const h = s.headline;
    const a = s.adversarial;
    table.push([
      dataset,
      series,
      statCell(h?.judge),
      h ? `${num(h.f1)} (${h.n})` : '—',
      num(h?.bleu1),
      statCell(a?.judge),
      a ? `${num(a.f1)} (${a.n})` : '—',
    ]);
  }
  return `LoCoMo QA — headline = categories 1–4, adversarial (category 5) apart; F1 and BLEU-1 ×100\n${table.toString()}`;
}
