/** The human-readable summary `score-answers` prints after its JSON lines: mean of each metric per type and overall. */
import type { ScoredLine } from './score.ts';
import { mean } from '../../core/averages.ts';

const METRICS = ['locomo_f1', 'mem0_f1', 'bleu1'] as const;

function meanText(xs: number[]): string {
  return xs.length === 0 ? 'n/a' : mean(xs).toFixed(4);
}

export function summaryText(rows: readonly ScoredLine[]): string {
  const groups = new Map<string, ScoredLine[]>();
  for (const r of rows) {
    const key =
      r.category !== undefined
        ? `category ${r.category} (${r.adapt_type})`
        : `${r.question_type ?? ''} (${r.adapt_type})`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  const judged = rows.some((r) => r.judge_correct !== undefined);
  const header = [
    'group',
    'n',
    ...METRICS.filter((m) => rows.some((r) => r[m] !== undefined)),
    ...(judged ? ['judge'] : []),
  ];
  const line = (name: string, rs: ScoredLine[]) => {
    const cells = [name, String(rs.length)];
    for (const m of METRICS)
      if (header.includes(m)) cells.push(meanText(rs.flatMap((r) => (r[m] === undefined ? [] : [r[m]]))));
    if (judged)
      cells.push(meanText(rs.flatMap((r) => (typeof r.judge_correct === 'boolean' ? [r.judge_correct ? 1 : 0] : []))));
    return cells.join('\t');
  };
  const out = [
    header.join('\t'),
    ...[...groups.keys()].sort().map((k) => line(k, groups.get(k) ?? [])),
    line('all', [...rows]),
  ];
  const errors = rows.filter((r) => r.judge_error !== undefined).length;
  if (errors > 0)
    out.push(
      `${errors} judge call(s) failed (judge_error on those lines); rerun to retry — successful calls are cached`,
    );
  return out.join('\n');
}
