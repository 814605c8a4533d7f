/**
 * The judge-panel part of `adaptmr report` (docs/qa-and-judges.md): accuracy under each judge, the judges' agreement
 * (percent agreement, Cohen's kappa per pair, Fleiss' kappa for 3+ judges, from `judge_agreement`) and the panel's
 * disagreement rate per type, whether each paired comparison of judged accuracy holds under every judge (from
 * `comparisons` and `judge_comparisons`), and the leniency probes: each judge's acceptance rate of known-wrong answers
 * next to its accuracy, with a warning line for a judge that accepts many. Verdicts are on each run's headline gold
 * version; one judge's verdict on an answer is the majority of its repeats. Nothing is printed for a file with one
 * judge and no probes.
 */
import Table from 'cli-table3';
import { majorityVerdict, type VerdictInput } from '../eval/qa/agreement/index.ts';
import { loadVerdictInputs } from '../store/stats-tables.ts';
import { primaryJudgeOf } from '../eval/qa/panel.ts';
import type { ResultStore } from '../store/index.ts';
import { HOLM_ALPHA } from './comparison-cells.ts';
import { TYPE_COLUMNS } from './per-type-table.ts';
import type { SeriesKey } from './series-label.ts';

type Label = (r: SeriesKey) => string;
const style = { head: [], border: [], compact: true };
const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;
/** Above this acceptance rate of known-wrong answers a judge gets a warning line. */
export const LENIENCY_WARNING = 0.1;

function rate(values: readonly boolean[]): string {
  return values.length === 0 ? '—' : `${pct(values.filter(Boolean).length / values.length)} (${values.length})`;
}

function byType<T extends { adaptType: string }>(rows: readonly T[]): Map<string, T[]> {
  const out = new Map<string, T[]>([['all', [...rows]]]);
  for (const r of rows) out.set(r.adaptType, [...(out.get(r.adaptType) ?? []), r]);
  return out;
}

interface JudgeInfo {
  judge: string;
  model: string;
  prompt: string;
}

async function judgeInfo(store: ResultStore): Promise<Map<string, JudgeInfo>> {
  const rows = await store.query<JudgeInfo>('SELECT DISTINCT judge, model, prompt FROM answer_verdicts ORDER BY judge');
  return new Map(rows.map((r) => [r.judge, r]));
}

const judgeName = (info: Map<string, JudgeInfo>, id: string): string => {
  const j = info.get(id);
  return j ? `${id} (${j.model}, ${j.prompt})` : id;
};

function accuracyTable(
  verdicts: readonly VerdictInput[],
  info: Map<string, JudgeInfo>,
  label: Label,
  primary: (runId: string) => string,
): string {
  const table = new Table({ head: ['dataset', 'method', 'judge', ...TYPE_COLUMNS], style });
  const groups = new Map<string, VerdictInput[]>();
  for (const v of verdicts.filter((x) => x.counted)) {
    const mark = primary(v.runId) === v.judge ? ' *' : '';
    const k = `${v.dataset}\t${label({ run_id: v.runId, method: v.method, granularity: v.granularity })}\t${v.judge}${mark}`;
    groups.set(k, [...(groups.get(k) ?? []), v]);
  }
  for (const [k, rows] of [...groups].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const [dataset = '', series = '', judge = ''] = k.split('\t');
    const types = byType(rows);
    const [id = '', mark = ''] = judge.split(' ');
    table.push([
      dataset,
      series,
      `${judgeName(info, id)}${mark ? ' *' : ''}`,
      ...TYPE_COLUMNS.map((t) => rate((types.get(t) ?? []).map((v) => majorityVerdict(v.correct)))),
    ]);
  }
  return `QA accuracy under each judge (counted questions, headline gold version; * = the run's primary judge, whose verdicts are the accuracy scores)  — cells: accuracy (n answers)\n${table.toString()}`;
}

async function agreementTable(store: ResultStore, verdicts: readonly VerdictInput[]): Promise<string | null> {
  const rows = await store.query<{
    dataset: string;
    judge_a: string;
    judge_b: string;
    adapt_type: string;
    n: number;
    agreement: number;
    kappa: number | null;
  }>('SELECT * FROM judge_agreement ORDER BY dataset, judge_a, judge_b, adapt_type');
  if (rows.length === 0) return null;
  const table = new Table({ head: ['dataset', 'judges', ...TYPE_COLUMNS], style });
  const cells = new Map(rows.map((r) => [`${r.dataset}\t${r.judge_a}\t${r.judge_b}\t${r.adapt_type}`, r]));
  for (const key of [...new Set(rows.map((r) => `${r.dataset}\t${r.judge_a}\t${r.judge_b}`))]) {
    const [dataset = '', a = '', b = ''] = key.split('\t');
    const name = a === 'all' ? 'all judges (Fleiss κ)' : `${a} vs ${b} (Cohen κ)`;
    table.push([
      dataset,
      name,
      ...TYPE_COLUMNS.map((t) => {
        const c = cells.get(`${key}\t${t}`);
        return c ? `${pct(c.agreement)} κ ${c.kappa === null ? 'n/a' : c.kappa.toFixed(2)} (${c.n})` : '—';
      }),
    ]);
  }
  // The panel's disagreement rate: answers on which the judges' (majority) verdicts are not unanimous.
  const answers = new Map<string, { dataset: string; adaptType: string; verdicts: boolean[] }>();
  for (const v of verdicts) {
    const k = `${v.dataset}\t${v.runId}\t${v.questionId}\t${v.method}`;
    const e = answers.get(k) ?? { dataset: v.dataset, adaptType: v.adaptType, verdicts: [] };
    e.verdicts.push(majorityVerdict(v.correct));
    answers.set(k, e);
  }
  for (const dataset of [...new Set(rows.map((r) => r.dataset))]) {
    const judged = [...answers.values()].filter((a) => a.dataset === dataset && a.verdicts.length >= 2);
    const types = byType(judged);
    table.push([
      dataset,
      'disagreement rate (any two judges differ)',
      ...TYPE_COLUMNS.map((t) => rate((types.get(t) ?? []).map((a) => new Set(a.verdicts).size > 1))),
    ]);
  }
  return `Judge agreement  — cells: percent agreement, kappa (n answers judged by both / all); kappa n/a when every verdict is the same\n${table.toString()}`;
}

interface CmpRow {
  judge?: string;
  run: string;
  dataset: string;
  method_a: string;
  method_b: string;
  adapt_type: string;
  mean_diff: number;
  p_holm: number;
}

/** Per comparison of judged accuracy: does the difference keep its sign and significance under every judge? */
export function robustnessCell(primary: CmpRow, perJudge: readonly CmpRow[]): string {
  const sig = (r: CmpRow) => r.p_holm < HOLM_ALPHA;
  const sign = (r: CmpRow) => Math.sign(r.mean_diff);
  const n = perJudge.length;
  const reversing = perJudge.filter((r) => sig(r) && sign(r) !== 0 && sign(r) === -sign(primary));
  if (reversing.length > 0) return `reverses under ${reversing.map((r) => r.judge).join(', ')}`;
  const significant = perJudge.filter((r) => sig(r) && sign(r) === sign(primary));
  if (significant.length === n && n > 0) return `holds under all ${n}`;
  if (significant.length === 0) return sig(primary) ? `n.s. under every judge` : `no difference (0/${n})`;
  return `significant under ${significant.length}/${n}: ${significant.map((r) => r.judge).join(', ')}`;
}

async function robustnessTable(store: ResultStore): Promise<string | null> {
  const judges = await store.query<CmpRow>('SELECT * FROM judge_comparisons');
  if (judges.length === 0) return null;
  const primary = await store.query<CmpRow>(
    `SELECT run, dataset, method_a, method_b, adapt_type, mean_diff, p_holm FROM comparisons
     WHERE level = 'qa' AND metric = 'accuracy' AND k IS NULL ORDER BY dataset, run, method_a, adapt_type`,
  );
  const byKey = new Map<string, CmpRow[]>();
  for (const j of judges) {
    const k = `${j.run}\t${j.dataset}\t${j.method_a}\t${j.method_b}\t${j.adapt_type}`;
    byKey.set(k, [...(byKey.get(k) ?? []), j]);
  }
  const table = new Table({ head: ['dataset', 'method', 'vs', ...TYPE_COLUMNS], style });
  const rows = new Map<string, Map<string, string>>();
  for (const p of primary) {
    const row = `${p.dataset}\t${p.method_a}\t${p.method_b}`;
    const per = byKey.get(`${p.run}\t${p.dataset}\t${p.method_a}\t${p.method_b}\t${p.adapt_type}`) ?? [];
    if (!rows.has(row)) rows.set(row, new Map());
    rows.get(row)!.set(p.adapt_type, robustnessCell(p, per));
  }
  if (rows.size === 0) return null;
  for (const [key, cells] of rows) table.push([...key.split('\t'), ...TYPE_COLUMNS.map((t) => cells.get(t) ?? '—')]);
  return [
    `Does each difference in judged accuracy hold under every judge?  — per judge, the same paired test and Holm family as the comparisons table (significant: p_holm < ${HOLM_ALPHA}, same sign as under the primary judge)`,
    table.toString(),
  ].join('\n');
}

async function probesTable(
  store: ResultStore,
  verdicts: readonly VerdictInput[],
  info: Map<string, JudgeInfo>,
): Promise<string | null> {
  const rows = await store.query<{
    dataset: string;
    question_id: string;
    probe: string;
    judge: string;
    correct: boolean[];
    adapt_type: string;
    source: string;
  }>(
    `SELECT v.dataset, v.question_id, v.probe, v.judge, v.correct, q.adapt_type, p.source FROM answer_verdicts v
     JOIN questions q ON q.run_id = v.run_id AND q.dataset = v.dataset AND q.question_id = v.question_id
     JOIN probe_answers p ON p.run_id = v.run_id AND p.dataset = v.dataset AND p.question_id = v.question_id AND p.probe = v.probe
     WHERE v.probe <> '' AND v.gold = 'original' ORDER BY ALL`,
  );
  if (rows.length === 0) return null;
  const table = new Table({ head: ['dataset', 'judge', 'what', ...TYPE_COLUMNS], style });
  const warnings: string[] = [];
  for (const dataset of [...new Set(rows.map((r) => r.dataset))]) {
    for (const judge of [...new Set(rows.filter((r) => r.dataset === dataset).map((r) => r.judge))]) {
      const real = byType(verdicts.filter((v) => v.dataset === dataset && v.judge === judge && v.counted));
      table.push([
        dataset,
        judgeName(info, judge),
        'accuracy (real answers)',
        ...TYPE_COLUMNS.map((t) => rate((real.get(t) ?? []).map((v) => majorityVerdict(v.correct)))),
      ]);
      for (const kind of ['specific', 'vague']) {
        const probes = rows
          .filter((r) => r.dataset === dataset && r.judge === judge && r.probe === kind)
          .map((r) => ({ adaptType: r.adapt_type, ok: majorityVerdict(r.correct) }));
        if (probes.length === 0) continue;
        const types = byType(probes);
        table.push([
          dataset,
          judgeName(info, judge),
          `accepts ${kind === 'specific' ? 'specific-wrong' : 'vague-topical'}`,
          ...TYPE_COLUMNS.map((t) => rate((types.get(t) ?? []).map((p) => p.ok))),
        ]);
        const accepted = probes.filter((p) => p.ok).length / probes.length;
        if (accepted > LENIENCY_WARNING) {
          warnings.push(
            `warning: judge ${judge} on ${dataset} accepts ${pct(accepted)} of ${kind === 'specific' ? 'specific-but-wrong' : 'vague-but-topical'} answers (${probes.length} probes): its accuracy counts such answers as correct`,
          );
        }
      }
    }
  }
  const sources = [...new Set(rows.map((r) => r.source.split(':')[0]))].join(', ');
  return [
    `Leniency probes: each judge's acceptance rate of known-wrong answers next to its accuracy (probes from ${sources}; judged against the original gold)  — cells: rate (n)`,
    table.toString(),
    ...warnings,
  ].join('\n');
}

export async function judgeSections(store: ResultStore, label: Label): Promise<string[]> {
  const [count] = await store.query<{ judges: number; probes: number }>(
    `SELECT count(DISTINCT judge)::INT AS judges, count(*) FILTER (WHERE probe <> '')::INT AS probes FROM answer_verdicts`,
  );
  if (!count || (count.judges < 2 && count.probes === 0)) return [];
  const verdicts = await loadVerdictInputs(store);
  const info = await judgeInfo(store);
  const runs = await store.query<{ run_id: string; config_json: string }>('SELECT run_id, config_json FROM runs');
  const primaries = new Map(runs.map((r) => [r.run_id, primaryJudgeOf(r.config_json)]));
  const out = [accuracyTable(verdicts, info, label, (runId) => primaries.get(runId) ?? '')];
  for (const t of [
    await agreementTable(store, verdicts),
    await robustnessTable(store),
    await probesTable(store, verdicts, info),
  ])
    if (t) out.push(t);
  return out;
}
