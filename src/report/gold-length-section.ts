/**
 * Two parts of `adaptmr report` about what a judged accuracy means:
 * - Gold versions (LoCoMo and LongMemEval `gold: { answers: errata }`): each method's accuracy under the primary judge against the
 *   original and the corrected answer key, per type, and the ceiling each key implies — the accuracy of a system
 *   that answers every question as the audit does: 1 − (questions whose original answer the audit corrects) / n under
 *   the original key, 100% under the corrected one (docs/qa-and-judges.md).
 * - Answer length: accuracy by answer length (o200k tokens) per method, mean and median words, and a warning when a
 *   method's answers exceed its reader prompt's own length instruction (src/eval/qa/answer-length.ts).
 */
import Table from 'cli-table3';
import { majorityVerdict } from '../eval/qa/agreement/index.ts';
import {
  answerWords,
  LENGTH_BUCKETS,
  LENGTH_WARNING_SHARE,
  lengthBucket,
  READER_WORD_LIMITS,
} from '../eval/qa/answer-length.ts';
import { primaryJudgeOf } from '../eval/qa/panel.ts';
import { countTokens } from '../llm/tokens.ts';
import type { ResultStore } from '../store/index.ts';
import { TYPE_COLUMNS } from './per-type-table.ts';
import type { SeriesKey } from './series-label.ts';

type Label = (r: SeriesKey) => string;
const style = { head: [], border: [], compact: true };
const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;

function share(values: readonly boolean[]): string {
  return values.length === 0 ? '—' : pct(values.filter(Boolean).length / values.length);
}

/**
 * Ceilings over the counted questions of `dataset` that have an answer in the table: the accuracy of answering
 * every question as the audit does, against the original key (the corrected questions wrong) and the errata (none).
 */
function ceilingRows(
  dataset: string,
  mine: readonly { run_id: string; dataset: string; question_id: string; adapt_type: string }[],
  changed: ReadonlySet<string>,
): string[][] {
  const questions = new Map<string, string>();
  for (const r of mine.filter((x) => x.dataset === dataset))
    questions.set(`${r.run_id}\t${r.dataset}\t${r.question_id}`, r.adapt_type);
  const ceiling = (t: string) => {
    const ids = [...questions].filter(([, type]) => t === 'all' || type === t).map(([id]) => id);
    if (ids.length === 0) return '—';
    const wrongKey = ids.filter((id) => changed.has(id)).length;
    return `${pct(1 - wrongKey / ids.length)} (${wrongKey} of ${ids.length} corrected)`;
  };
  return [
    [dataset, 'ceiling', 'original', ...TYPE_COLUMNS.map(ceiling)],
    [
      dataset,
      'ceiling',
      'errata',
      ...TYPE_COLUMNS.map((t) => ([...questions.values()].some((type) => t === 'all' || type === t) ? '100.0%' : '—')),
    ],
  ];
}

export async function goldVersionsSection(store: ResultStore, label: Label): Promise<string | null> {
  const [has] = await store.query<{ n: number }>(`SELECT count(*)::INT n FROM gold_versions WHERE version = 'errata'`);
  if (!has || has.n === 0) return null;
  const runs = await store.query<{ run_id: string; config_json: string }>('SELECT run_id, config_json FROM runs');
  const primary = new Map(runs.map((r) => [r.run_id, primaryJudgeOf(r.config_json)]));
  const rows = await store.query<{
    run_id: string;
    dataset: string;
    question_id: string;
    method: string;
    granularity: string;
    gold: string;
    judge: string;
    correct: boolean[];
    adapt_type: string;
  }>(
    `SELECT v.run_id, v.dataset, v.question_id, v.method, s.granularity, v.gold, v.judge, v.correct, q.adapt_type FROM answer_verdicts v
     JOIN questions q ON q.run_id = v.run_id AND q.dataset = v.dataset AND q.question_id = v.question_id
     JOIN scores s ON s.run_id = v.run_id AND s.dataset = v.dataset AND s.question_id = v.question_id AND s.method = v.method
       AND s.level = 'qa' AND s.metric = 'accuracy' AND s.counted
     WHERE v.probe = '' AND v.dataset IN (SELECT dataset FROM gold_versions WHERE version = 'errata')
     ORDER BY ALL`,
  );
  const mine = rows.filter((r) => r.judge === primary.get(r.run_id));
  const changed = new Set(
    (
      await store.query<{ run_id: string; dataset: string; question_id: string }>(
        `SELECT run_id, dataset, question_id FROM gold_versions WHERE version = 'errata'`,
      )
    ).map((g) => `${g.run_id}\t${g.dataset}\t${g.question_id}`),
  );
  const table = new Table({ head: ['dataset', 'method', 'gold', ...TYPE_COLUMNS], style });
  const series = [
    ...new Set(
      mine.map((r) => `${r.dataset}\t${label({ run_id: r.run_id, method: r.method, granularity: r.granularity })}`),
    ),
  ];
  for (const key of series) {
    const [dataset = '', name = ''] = key.split('\t');
    for (const gold of ['original', 'errata']) {
      const cells = mine.filter(
        (r) =>
          r.dataset === dataset &&
          label({ run_id: r.run_id, method: r.method, granularity: r.granularity }) === name &&
          r.gold === gold,
      );
      table.push([
        dataset,
        name,
        gold,
        ...TYPE_COLUMNS.map((t) => {
          const of = cells.filter((r) => t === 'all' || r.adapt_type === t);
          return of.length === 0 ? '—' : `${share(of.map((r) => majorityVerdict(r.correct)))} (${of.length})`;
        }),
      ]);
    }
  }
  for (const dataset of [...new Set(mine.map((r) => r.dataset))]) table.push(...ceilingRows(dataset, mine, changed));
  return [
    'QA accuracy against the original and the corrected answer key (LoCoMo audit errata; LongMemEval overlay), primary judge  — cells: accuracy (n)',
    table.toString(),
    'ceiling: the accuracy of a system that answers every question as the audit does — the original key marks the corrected questions wrong, the corrected key none',
  ].join('\n');
}

export async function answerLengthSection(store: ResultStore, label: Label): Promise<string | null> {
  const rows = await store.query<{
    run_id: string;
    method: string;
    granularity: string;
    answer: string;
    answer_tokens: number | null;
    value: number;
    capabilities: string | null;
  }>(
    `SELECT a.run_id, a.method, s.granularity, a.answer, a.answer_tokens, s.value, m.capabilities FROM answers a
     JOIN scores s ON s.run_id = a.run_id AND s.dataset = a.dataset AND s.question_id = a.question_id AND s.method = a.method
       AND s.level = 'qa' AND s.metric = 'accuracy' AND s.counted
     LEFT JOIN methods m ON m.run_id = a.run_id AND m.method = a.method
     WHERE a.answer IS NOT NULL ORDER BY a.run_id, a.method, a.question_id`,
  );
  if (rows.length === 0) return null;
  const columns = [...LENGTH_BUCKETS.map((b) => b.label)];
  const table = new Table({ head: ['method', ...columns.map((c) => `${c} tokens`), 'words mean / median'], style });
  const warnings: string[] = [];
  const groups = new Map<string, typeof rows>();
  for (const r of rows) {
    const k = label({ run_id: r.run_id, method: r.method, granularity: r.granularity });
    groups.set(k, [...(groups.get(k) ?? []), r]);
  }
  for (const [name, list] of groups) {
    const tokens = list.map((r) => r.answer_tokens ?? countTokens(r.answer));
    const words = list.map((r) => answerWords(r.answer)).sort((a, b) => a - b);
    const mean = words.reduce((s, w) => s + w, 0) / words.length;
    const median =
      words.length % 2 ? words[(words.length - 1) / 2]! : (words[words.length / 2 - 1]! + words[words.length / 2]!) / 2;
    table.push([
      name,
      ...columns.map((c) => {
        const idx = tokens.map((t, i) => (lengthBucket(t) === c ? i : -1)).filter((i) => i >= 0);
        if (idx.length === 0) return '—';
        return `${pct(idx.reduce((s, i) => s + list[i]!.value, 0) / idx.length)} (${idx.length})`;
      }),
      `${mean.toFixed(1)} / ${median}`,
    ]);
    const caps = list[0]!.capabilities ? (JSON.parse(list[0]!.capabilities) as { readerPrompt?: string }) : {};
    const limit = caps.readerPrompt ? READER_WORD_LIMITS[caps.readerPrompt] : undefined;
    if (limit !== undefined) {
      const over = words.filter((w) => w > limit).length;
      if (over / words.length > LENGTH_WARNING_SHARE) {
        warnings.push(
          `warning: ${name}: ${pct(over / words.length)} of its answers exceed its reader prompt's length instruction (${caps.readerPrompt}: at most ${limit} words)`,
        );
      }
    }
  }
  return [
    'QA accuracy by answer length (o200k tokens), primary judge, counted questions  — cells: accuracy (n answers)',
    table.toString(),
    ...warnings,
  ].join('\n');
}
