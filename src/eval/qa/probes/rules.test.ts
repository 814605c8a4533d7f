// The leniency-probe rules on hand-made questions (English and Chinese): each rule's output, the guards that drop a
// probe which would be right, and no vague probe for abstention questions.
import { describe, expect, it } from 'vitest';
import { probesFor, specificWrong, vagueTopical, type ProbeQuestion } from './rules.ts';
import { contentTokens, overlaps } from './text.ts';

const q = (
  questionId: string,
  question: string,
  gold: string,
  adaptType = 'factual',
  isAbstention = false,
): ProbeQuestion => ({ questionId, question, gold, adaptType, isAbstention });

describe('specific-but-wrong probes', () => {
  it('flips yes/no, moves a month four on, a weekday three on, a lone year one back, every number by two', () => {
    expect(specificWrong(q('a', 'Did Ann move?', 'Yes, she did'), [])).toEqual({
      kind: 'specific',
      answer: 'No.',
      source: 'rules:yes-no',
    });
    expect(specificWrong(q('a', 'When?', '7 May 2023'), [])?.answer).toBe('7 September 2023');
    expect(specificWrong(q('a', 'When?', 'The Sunday before 25 Nov 2023'), [])?.answer).toBe(
      'The Sunday before 25 Mar 2023',
    );
    expect(specificWrong(q('a', 'Which day?', 'Friday'), [])?.answer).toBe('Monday');
    expect(specificWrong(q('a', 'Which year?', '2022'), [])?.answer).toBe('2021');
    expect(specificWrong(q('a', 'How many days?', '19 days. 20 days is also acceptable.'), [])?.answer).toBe(
      '21 days. 22 days is also acceptable.',
    );
    expect(specificWrong(q('a', 'How many kids?', 'three kids'), [])?.answer).toBe('five kids');
    // "may" the verb is not a month
    expect(specificWrong(q('a', 'Why?', 'she may be tired'), [q('b', 'What?', 'a red bicycle')])?.source).toBe(
      'rules:neighbour',
    );
  });

  it('keeps to the neighbour rule when asked (a cue with a value edited would still be linked to it)', () => {
    const cue = q(
      'plus:1',
      'I finally signed up for the marathon.',
      'A: I hurt my knee running in May 2023',
      'cognitive',
    );
    const other = q('plus:2', '我又去看了那家画廊。', 'A: 我上周在画廊看到一幅很喜欢的画', 'cognitive');
    // Every rule: the month is moved (still the same memory, so a cue judge rightly accepts it).
    expect(specificWrong(cue, [cue, other])?.source).toBe('rules:date-shift');
    expect(specificWrong(cue, [cue, other], 'neighbour')).toEqual({
      kind: 'specific',
      answer: 'A: 我上周在画廊看到一幅很喜欢的画',
      source: 'rules:neighbour',
    });
    expect(probesFor(cue, [cue], 'neighbour').map((p) => p.kind)).toEqual(['vague']);
  });

  it("takes a neighbour's answer of the same type, same conversation first, sharing no content word", () => {
    const pool = [
      q('conv-1:q1', 'What did Ann buy?', 'a red bicycle'),
      q('conv-1:q2', 'What did Ann paint?', 'a red barn'), // shares "red": skipped
      q('conv-1:q3', 'When did Ann swim?', 'June 2023', 'temporal'), // other type: skipped
      q('conv-1:q4', 'What did Ann cook?', 'lentil soup'),
      q('conv-2:q0', 'What did Bo cook?', 'pancakes'),
    ];
    expect(specificWrong(pool[0]!, pool)).toEqual({
      kind: 'specific',
      answer: 'lentil soup',
      source: 'rules:neighbour',
    });
    // an abstention question gets a confident answer of any type, its own conversation first
    expect(specificWrong(q('conv-2:q9', "What is Bo's cat called?", '', 'abstention', true), pool)?.answer).toBe(
      'pancakes',
    );
  });

  it('handles Chinese answers: yes/no, month, numerals, and a neighbour sharing no character bigram', () => {
    expect(specificWrong(q('z', '他去过北京吗？', '是的'), [])?.answer).toBe('不是。');
    expect(specificWrong(q('z', '他有车吗？', '没有'), [])?.answer).toBe('有。');
    expect(specificWrong(q('z', '什么时候搬家？', '2023年5月'), [])?.answer).toBe('2023年9月');
    expect(specificWrong(q('z', '有几个孩子？', '三个孩子'), [])?.answer).toBe('五个孩子');
    const pool = [
      q('z1', '他喜欢什么运动？', '打篮球'),
      q('z2', '他喜欢什么水果？', '篮球场'),
      q('z3', '她养了什么宠物？', '一只小猫'),
    ];
    expect(specificWrong(pool[0]!, pool)?.answer).toBe('一只小猫'); // 篮球场 shares the bigram 篮球
    expect(overlaps('打篮球', '篮球场')).toBe(true);
    expect([...contentTokens('打篮球 and the Ball')].sort()).toEqual(['ball', '打篮', '篮球']);
  });

  it('gives nothing when no rule is safe', () => {
    expect(
      specificWrong(q('a', 'What did Ann buy?', 'a red bicycle'), [q('b', 'What did Bo buy?', 'a red car')]),
    ).toBeUndefined();
  });
});

describe('vague-but-topical probes', () => {
  it('answers by the question word without the answer', () => {
    const v = (question: string, gold: string) => vagueTopical(q('a', question, gold));
    expect(v('When did Caroline go to the LGBTQ support group?', '7 May 2023')).toEqual({
      kind: 'vague',
      answer: 'Sometime in 2023',
      source: 'rules:date-coarsen',
    });
    expect(v('How many children does Ann have?', '3')?.answer).toBe('A few');
    expect(v('Who did Melanie meet at the park?', 'her cousin Tom')?.answer).toBe('Someone close to Melanie');
    expect(v('What book did Melanie read?', '"Becoming Nicole"')?.answer).toBe('A book that Melanie mentioned');
    expect(v('Where did I buy my bike?', 'Decathlon')?.answer).toBe('A place you had mentioned before');
    expect(v('Did Gina win the contest?', 'Yes')?.answer).toMatch(/hard to say/u);
  });

  it('drops a vague answer that would be right, and abstention questions', () => {
    // "Sometime in 2022" holds every content word of "in 2022"
    expect(vagueTopical(q('a', 'When was Deborah in Bali?', 'in 2022'))).toBeUndefined();
    expect(vagueTopical(q('a', "What is Bo's cat called?", 'not mentioned', 'abstention', true))).toBeUndefined();
  });

  it('handles Chinese questions', () => {
    const v = (question: string, gold: string) => vagueTopical(q('z', question, gold))?.answer;
    expect(v('他什么时候去的上海？', '2023年5月3日')).toBe('2023年的某个时候');
    expect(v('她养了几只猫？', '两只')).toBe('有一些吧');
    expect(v('他喜欢什么运动？', '打篮球')).toBe('之前提到过的某个运动');
    expect(v('谁送了他礼物？', '他的姐姐')).toBe('身边的某个人');
  });

  it('probesFor gives both kinds when both rules apply', () => {
    expect(probesFor(q('a', 'When did Ann move?', 'June 2023'), []).map((p) => p.kind)).toEqual(['specific', 'vague']);
  });
});
