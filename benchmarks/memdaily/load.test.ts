// MemDaily loader: Chinese trajectories written here (error items, out-of-order times, a date answer, a weekday that
// does not match its date), then the real 26 files (through ADAPTMR_DATA_DIR) against the docs/datasets.md's counts,
// which reproduce upstream's own table.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { formatMemDailyTime, parseMemDailyTime } from './dates.ts';
import {
  loadDataset,
  readCatalog,
  readInstances,
  resolveDataset,
  summarize,
  type DataIssue,
} from '../../src/data/index.ts';
import { TEST_DATA_DIR } from '../../test/data-path.ts';

const root = mkdtempSync(join(tmpdir(), 'adaptmr-memdaily-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const m = (mid: number, message: string, time: string) => ({ mid, message, time, place: '广东深圳' });
const traj = (tid: number, messages: ReturnType<typeof m>[], qa: Record<string, unknown>) => ({
  tid,
  message_list: messages,
  question_list: [{ qid: 0, ...qa }],
});
const folder = join(root, 'messages_and_QAs');
mkdirSync(folder);
writeFileSync(
  join(folder, '02_conditional_roles.json'),
  JSON.stringify([
    traj(
      0,
      [
        m(0, '我的上司今年44岁。', '2024年04月02日 周二 07:24'),
        m(1, '我的上司叫赵雅琳。', '2024年04月02日 周二 09:29'),
        m(2, '我上司的老家是重庆。', '2024年04月03日 周三 20:10'),
      ],
      {
        question: '那个来自重庆的人叫什么名字啊？',
        answer: '赵雅琳',
        target_step_id: [2, 1],
        choices: { A: '赵雅琪', B: '赵雅婧', C: '赵雅琳', D: '赵雅璇' },
        ground_truth: 'C',
        time: '2024年04月05日 周五 07:04',
      },
    ),
    traj(
      1,
      [
        m(0, '我和同事约的时间是下周五下午两点。', '2024年04月05日 周五 10:00'),
        m(1, '今天早上我吃了包子。', '2024年04月05日 周五 07:00'),
      ],
      {
        question: '我和同事约的是什么时间？',
        answer: '2024年04月12日 周五 14:00',
        target_step_id: [0],
        choices: {
          A: '2024年04月12日 周五 14:00',
          B: '2024年04月11日 周四 14:00',
          C: '2024年04月12日 周五 10:00',
          D: '2024年04月05日 周五 14:00',
        },
        ground_truth: 'A',
        time: '2024年04月05日 周五 09:00',
      },
    ),
    traj(2, [m(0, '我的邻居叫王芳。', '2024年04月01日 周一 08:00')], {
      question: '[ERRORQ]',
      answer: '王芳',
      target_step_id: [0],
      choices: { A: 'a', B: 'b', C: 'c', D: '王芳' },
      ground_truth: 'D',
      time: '2024年04月02日 周二 08:00',
    }),
    traj(3, [m(0, '我的邻居叫王芳。', '2024年04月01日 周三 08:00')], {
      question: '邻居叫什么？',
      answer: '[ERRORA]',
      target_step_id: [0],
      choices: '[ERRORC]',
      ground_truth: '[ERRORG]',
      time: '2024年04月02日 周二 08:00',
    }),
  ]),
);

async function load() {
  const issues: DataIssue[] = [];
  const out = [];
  for await (const i of readInstances(resolveDataset({ format: 'memdaily', path: folder, name: 'md' }, root), {
    issues,
  }))
    out.push(i);
  return { instances: out, issues };
}

describe('MemDaily loader (fixture)', () => {
  it('messages are turns with their own times, days are sessions (list order kept), evidence and choices kept', async () => {
    const { instances } = await load();
    expect(instances.map((i) => i.query.id)).toEqual(['02_conditional_roles:t0', '02_conditional_roles:t1']);
    const [a, b] = instances;
    expect(a!.haystack.map((s) => [s.id, s.turns.map((t) => [t.id, t.at])])).toEqual([
      [
        's1',
        [
          ['m0', '2024-04-02T07:24:00Z'],
          ['m1', '2024-04-02T09:29:00Z'],
        ],
      ],
      ['s2', [['m2', '2024-04-03T20:10:00Z']]],
    ]);
    expect(a!.query).toMatchObject({
      text: '那个来自重庆的人叫什么名字啊？',
      askedAt: '2024-04-05T07:04:00Z',
      choices: { C: '赵雅琳' },
    });
    expect(a!.gold).toMatchObject({
      nativeType: 'conditional',
      type: 'multi-hop',
      evidenceTurnIds: ['m2', 'm1'],
      evidenceSessionIds: ['s2', 's1'],
      answer: '赵雅琳',
      correctChoice: 'C',
    });
    // A date answer (resolved from 下周五 against the message's date) makes the question temporal; the native type stays.
    expect(b!.gold).toMatchObject({ nativeType: 'conditional', type: 'temporal' });
  });

  it('error items are dropped as upstream drops them; out-of-order times and early questions are reported', async () => {
    const { issues } = await load();
    const lines = issues.map((i) => `${i.action} ${i.field}: ${i.problem}`);
    expect(lines.filter((l) => l.startsWith('dropped'))).toEqual([
      expect.stringContaining('tid 2.question_list[0]: question "[ERRORQ]"'),
      expect.stringContaining('tid 3.question_list[0]: answer "[ERRORA]"'),
    ]);
    expect(lines).toContainEqual(expect.stringContaining('tid 1.message_list: messages are not in time order'));
    expect(lines).toContainEqual(
      expect.stringContaining('asked at 2024年04月05日 周五 09:00, before the last message'),
    );
    const entries = await readCatalog(resolveDataset({ format: 'memdaily', path: folder }, root));
    expect(entries.map((e) => e.questionId)).toEqual(['02_conditional_roles:t0', '02_conditional_roles:t1']);
  });

  it('a time whose weekday does not match its date is kept and reported; an unparsable one is an error', () => {
    expect(parseMemDailyTime('2024年04月12日 周五 14:00')).toEqual({ at: '2024-04-12T14:00:00Z', weekdayAgrees: true });
    expect(parseMemDailyTime('2024年04月01日 周三 08:00')).toEqual({
      at: '2024-04-01T08:00:00Z',
      weekdayAgrees: false,
    });
    expect(parseMemDailyTime('2024年02月30日 周五 14:00')).toBeUndefined();
    expect(parseMemDailyTime('2024-04-12 14:00')).toBeUndefined();
    expect(formatMemDailyTime('2024-04-07T09:05:00Z')).toBe('2024年04月07日 周日 09:05');
  });

  it('a file name that is not <NN>_<type>_<entity>.json is one error naming it', async () => {
    const odd = join(root, 'odd');
    mkdirSync(odd);
    writeFileSync(join(odd, 'questions.json'), '[]');
    await expect(readCatalog(resolveDataset({ format: 'memdaily', path: odd }, root))).rejects.toThrow(
      /questions\.json.*MemDaily file name|MemDaily file name.*questions\.json/s,
    );
  });
});

describe('MemDaily (docs/datasets.md §4.2 counts, upstream data_card_raw.csv)', () => {
  it('2,954 kept questions and 26,003 messages of 3,000 / 26,531; per type as upstream; 46 error items dropped; 105 date answers temporal', async () => {
    const { instances, issues } = await loadDataset({ name: 'memdaily' }, TEST_DATA_DIR);
    const info = summarize('memdaily', instances);
    expect(info.questions).toBe(2954);
    expect(info.turns).toBe(26003);
    expect(info.byNativeType).toEqual({
      aggregative: 462,
      comparative: 492,
      conditional: 500,
      noisy: 500,
      post_processing: 500,
      simple: 500,
    });
    expect(info.byAdaptType.temporal).toBe(105);
    expect(issues.filter((i) => i.action === 'dropped')).toHaveLength(46);
    // 189 trajectories are out of time order; one of them is an error item (dropped), so 188 are reported as kept.
    expect(issues.filter((i) => i.problem.startsWith('messages are not in time order'))).toHaveLength(188);
    expect(issues.filter((i) => i.problem.includes('before the last message'))).toHaveLength(20);
  }, 30_000);
});
