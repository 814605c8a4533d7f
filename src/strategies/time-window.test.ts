// Time expressions → day windows (English via chrono-node, Chinese rule table), golden values worked out by hand.
import { describe, expect, it } from 'vitest';
import { splitEvents } from './events.ts';
import { findTimeWindow, inWindow } from './time-window.ts';

const ASKED = '2023-05-30T23:40:00Z'; // a Tuesday

describe('findTimeWindow', () => {
  it.each([
    ['What did I do last month?', '2023-04-01', '2023-04-30'],
    ['What did I buy two weeks ago?', '2023-05-13', '2023-05-19'],
    ['What did I eat in May?', '2023-05-01', '2023-05-31'],
    ['Where did I go in July?', '2022-07-01', '2022-07-31'], // July 2023 is after the question: the latest past July
    ['What did I do last Saturday?', '2023-05-27', '2023-05-27'],
    ['What happened in March 2023?', '2023-03-01', '2023-03-31'],
    ['from March to April 2023', '2023-03-01', '2023-04-30'],
    ['What did I cook yesterday?', '2023-05-29', '2023-05-29'],
    ['What trips did I take in the past three months?', '2023-02-28', '2023-05-30'], // 3 × 30.44 days back
    ['What did I buy over the last 2 weeks?', '2023-05-16', '2023-05-30'],
    ['Which airlines did I fly with before today?', '1900-01-01', '2023-05-29'],
    ['What have I cooked since last Saturday?', '2023-05-27', '2023-05-30'],
    ['上个月我们聊了什么？', '2023-04-01', '2023-04-30'],
    ['两周前我买了什么？', '2023-05-13', '2023-05-19'],
    ['上周我去了哪里？', '2023-05-22', '2023-05-28'],
    ['去年', '2022-01-01', '2022-12-31'],
    ['三天前', '2023-05-26', '2023-05-28'],
    ['2023年3月', '2023-03-01', '2023-03-31'],
  ])('%s → %s … %s', (text, start, end) => {
    const w = findTimeWindow(text, ASKED);
    expect(w).toBeDefined();
    expect([w!.startDay, w!.endDay]).toEqual([start, end]);
  });

  it.each([
    'Which happened first, the trip or the party?',
    'How many days passed between X and Y?',
    'What is my cat called?',
  ])('no window in %s', (text) => expect(findTimeWindow(text, ASKED)).toBeUndefined());

  it('compares at day precision: a session later on the question day is inside "today"', () => {
    const w = findTimeWindow('What did I do today?', '2023-05-30T08:00:00Z')!;
    expect(inWindow('2023-05-30T23:59:00Z', w)).toBe(true);
    expect(inWindow('2023-05-31T00:00:00Z', w)).toBe(false);
  });
});

describe('the Chinese forms of the plan (asked 2023-08-20, after M8)', () => {
  const AT = '2023-08-20T12:00:00Z';
  it.each([
    ['上个月我们聊了什么？', '2023-07-01', '2023-07-31'],
    ['两周前我跑了多少公里？', '2023-08-03', '2023-08-09'],
    ['4月20日我做了什么？', '2023-04-20', '2023-04-20'],
    ['五月一日你推荐了什么？', '2023-05-01', '2023-05-01'],
    ['今年三月我养了什么宠物？', '2023-03-01', '2023-03-31'],
    ['去年十二月我住在哪里？', '2022-12-01', '2022-12-31'],
  ])('%s → %s … %s', (text, start, end) => {
    const w = findTimeWindow(text, AT);
    expect([w?.startDay, w?.endDay]).toEqual([start, end]);
  });

  it.each(['我是几月几日搬到杭州的？', '我几号搬的家？', '我是先开始跑步还是先搬到杭州的？'])(
    'no window in %s (it asks for a date, or compares events)',
    (text) => {
      expect(findTimeWindow(text, AT)).toBeUndefined();
    },
  );

  it('先…还是先… splits into the two events', () => {
    expect(splitEvents('我是先开始跑步还是先搬到杭州的？')).toEqual(['开始跑步', '搬到杭州']);
  });
});

// MemDaily's calendar (asked Wednesday 2024-04-10; weeks run Monday–Sunday): weekdays of last / this week, a bare
// weekday (the latest on or before the question day), and MemDaily's own full dates with their weekday.
describe('Chinese weekdays and dates with weekdays (asked Wed 2024-04-10)', () => {
  const WED = '2024-04-10T09:00:00Z';
  it.each([
    ['我上周三和谁吃了饭？', '2024-04-03'],
    ['上星期五我去了哪里？', '2024-04-05'],
    ['这周二我见了谁？', '2024-04-09'],
    ['本周一的会议讲了什么？', '2024-04-08'],
    ['周一我去了哪里？', '2024-04-08'],
    ['我星期天去了哪？', '2024-04-07'], // this week's Sunday (14th) is after the question: last Sunday
    ['周三我做了什么？', '2024-04-10'], // today
    ['2024年04月08日 周一 我做了什么？', '2024-04-08'],
    ['我在2024年4月2日见了谁？', '2024-04-02'],
  ])('%s → %s', (text, day) => {
    const w = findTimeWindow(text, WED);
    expect([w?.startDay, w?.endDay]).toEqual([day, day]);
  });

  it('a weekday of next week lies after the question: no window (questions ask about the past)', () => {
    expect(findTimeWindow('下周五的安排是什么？', WED)).toBeUndefined();
  });

  it('a date with its weekday is one expression, not a date and a weekday', () => {
    expect(findTimeWindow('2024年04月08日 周一 我做了什么？', WED)?.expressions).toEqual(['2024年04月08日 周一']);
  });

  it('上周 alone is still the whole week', () => {
    const w = findTimeWindow('上周我做了什么？', WED);
    expect([w?.startDay, w?.endDay]).toEqual(['2024-04-01', '2024-04-07']);
  });
});
