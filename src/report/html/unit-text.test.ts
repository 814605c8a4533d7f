/**
 * The drill-down's unit text, read back from the dataset by its sha256: a real run (BM25 over sessions and over
 * turns) on a small LongMemEval-format file with Chinese conversations; the report data then carry each ranked
 * unit's date and first lines — exactly the dataset's text (the session's turns, the turn's text) — and the evidence
 * turns. Changing one character of the dataset after the run makes the hashes differ: no text is shown and the note
 * says why; a dataset that is gone says so too.
 */
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadedFromValue } from '../../run/config/load-config.ts';
import { runExperiment } from '../../run/runner.ts';
import { openResultStore } from '../../store/index.ts';
import { loadReportData, type ReportData } from './load-data.ts';
import { PREVIEW_CHARS } from './unit-text.ts';

const dir = mkdtempSync(join(tmpdir(), 'adaptmr-units-'));
const data = join(dir, 'zh-memory.json');
const file = join(dir, 'zh.duckdb');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const turn = (role: 'user' | 'assistant', content: string, hasAnswer = false) => ({
  role,
  content,
  has_answer: hasAnswer,
});
const long = '我们讨论了很多关于旅行的计划，'.repeat(30);
const items = [
  {
    question_id: 'zh-1',
    question_type: 'single-session-user',
    question: '我的猫叫什么名字？',
    answer: '小花',
    question_date: '2023/05/28 (Sun) 19:47',
    haystack_session_ids: ['s-cat', 's-trip', 's-food'],
    haystack_dates: ['2023/05/20 (Sat) 10:00', '2023/05/21 (Sun) 11:30', '2023/05/22 (Mon) 12:45'],
    haystack_sessions: [
      [turn('user', '我的猫叫小花，它很喜欢晒太阳。', true), turn('assistant', '小花这个名字真好听！')],
      [turn('user', long), turn('assistant', '祝你旅途愉快。')],
      [turn('user', '我今天做了红烧肉和青菜。'), turn('assistant', '听起来很好吃。')],
    ],
    answer_session_ids: ['s-cat'],
  },
  {
    question_id: 'zh-2',
    question_type: 'single-session-user',
    question: '我去哪里旅行了？',
    answer: '杭州',
    question_date: '2023/06/02 (Fri) 09:00',
    haystack_session_ids: ['t-1', 't-2'],
    haystack_dates: ['2023/05/30 (Tue) 08:00', '2023/05/31 (Wed) 08:00'],
    haystack_sessions: [
      [turn('user', '上周我去杭州旅行了，西湖很美。', true), turn('assistant', '杭州是个好地方。')],
      [turn('user', '我在学习弹钢琴。'), turn('assistant', '加油！')],
    ],
    answer_session_ids: ['t-1'],
  },
];

async function load(): Promise<ReportData> {
  const store = await openResultStore(file, { readOnly: true });
  try {
    return await loadReportData(store, file, { experiments: false });
  } finally {
    await store.close();
  }
}

beforeAll(async () => {
  writeFileSync(data, JSON.stringify(items));
  const config = {
    name: 'zh-units',
    seed: 1,
    datasets: [{ format: 'longmemeval', path: data, name: 'zh-memory' }],
    methods: [
      { id: 'bm25-session', method: 'bm25', index: { granularity: 'session' }, k: 3 },
      { id: 'bm25-turn', method: 'bm25', index: { granularity: 'turn' }, k: 3 },
    ],
    metrics: { ks: [1, 3] },
  };
  await runExperiment(loadedFromValue(config, 'zh-units'), { out: file, progress: false, log: () => {} });
}, 120_000);

describe('drill-down unit text read back from the dataset', () => {
  it('gives every ranked unit its date and first lines, in Chinese, from the very files the run hashed', async () => {
    const d = await load();
    expect(d.unitNotes).toEqual([]);
    const q1 = d.unitTexts['zh-memory\tzh-1']!;
    // The session unit: its date (the session's) and its turns, one a line, with the role.
    expect(q1['s-cat']).toEqual([
      '2023-05-20T10:00:00Z',
      'user: 我的猫叫小花，它很喜欢晒太阳。\nassistant: 小花这个名字真好听！',
    ]);
    // A long unit is cut to the preview length, marked with an ellipsis, never split inside a character.
    const trip = q1['s-trip']![1];
    expect(Array.from(trip).length).toBeLessThanOrEqual(PREVIEW_CHARS);
    expect(trip.endsWith('…')).toBe(true);
    expect(trip.startsWith('user: 我们讨论了很多关于旅行的计划')).toBe(true);
    // Every unit id the drill-down lists for the question has a text (sessions of one method, turns of the other).
    const q = d.questions.find((x) => x.id === 'zh-1')!;
    const listed = new Set(q.methods.flatMap((m) => m.units.map((u) => u[0])));
    expect(listed.size).toBeGreaterThan(3);
    for (const id of listed) expect(q1[id], id).toBeDefined();
    // A turn unit: its own text; the evidence turn is the one the dataset marks has_answer.
    const turnIds = [...listed].filter((id) => !['s-cat', 's-trip', 's-food'].includes(id));
    expect(turnIds.length).toBeGreaterThan(0);
    expect(q.evidenceTurns).toHaveLength(1);
    expect(q1[q.evidenceTurns[0]!]![1]).toBe('user: 我的猫叫小花，它很喜欢晒太阳。');
  });

  it('shows no text, and says why, when the dataset changed since the run or is gone', async () => {
    const original = readFileSync(data, 'utf8');
    writeFileSync(data, original.replace('西湖很美', '西湖很大'));
    let d = await load();
    expect(d.unitTexts).toEqual({});
    expect(d.unitNotes.join('\n')).toMatch(
      /zh-memory: unit text not shown — its files under .* differ from the ones the run read \(sha256\)/u,
    );
    renameSync(data, `${data}.moved`);
    d = await load();
    expect(d.unitTexts).toEqual({});
    expect(d.unitNotes.join('\n')).toMatch(/zh-memory: unit text not shown — /u);
    renameSync(`${data}.moved`, data);
    writeFileSync(data, original);
    expect(Object.keys((await load()).unitTexts)).toHaveLength(2);
  });
});
