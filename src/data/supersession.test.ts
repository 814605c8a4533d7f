// Superseded evidence per benchmark (src/data/supersession.ts), on records written here: BEAM's original_info is
// superseded and contradiction statements are not; LongMemEval's earlier evidence session is, by date not by list
// order, unless the question asks for the earlier value; `gold: { update: both }` joins it to the gold.
import { describe, expect, it } from 'vitest';
import { DatasetRefSchema } from '../core/config.ts';
import { normaliseBeam } from './beam.ts';
import type { DataIssue } from './issues.ts';
import { normaliseLongMemEval } from './longmemeval.ts';
import { LME_ASKS_EARLIER_VALUE, withUpdateGold } from './supersession.ts';

const msg = (role: 'user' | 'assistant', id: number, content: string, at?: string) => ({
  role,
  id,
  content,
  ...(at ? { time_anchor: at } : {}),
});
const beamRecord = {
  tier: '100K',
  chat: '7',
  messages: [
    {
      batch_number: 1,
      turns: [[msg('user', 0, '截止日期是五月一日。', 'March-15-2024'), msg('assistant', 1, '好的')]],
    },
    {
      batch_number: 2,
      turns: [[msg('user', 2, 'The deadline moved to May 3.', 'May-01-2024'), msg('assistant', 3, 'Ok')]],
    },
    { batch_number: 3, turns: [[msg('user', 4, 'I also said the budget is 5k.', 'May-02-2024')]] },
  ],
  questions: {
    contradiction_resolution: [
      {
        question: 'Budget?',
        rubric: ['contradictory'],
        source_chat_ids: { first_statement: [4], second_statement: [0] },
      },
    ],
    knowledge_update: [
      { question: '截止日期?', rubric: ['May 3'], source_chat_ids: { original_info: [0], updated_info: [2] } },
      { question: 'Same batch?', rubric: ['x'], source_chat_ids: { original_info: [2, 3], updated_info: [2] } },
    ],
  },
};

describe('BEAM superseded evidence', () => {
  const [contradiction, update, sameBatch] = normaliseBeam(beamRecord, '/fixture/7', 'beam-100k', []);

  it('knowledge update: original_info is superseded, with the batch holding only it', () => {
    expect(update!.gold).toMatchObject({
      evidenceTurnIds: ['m2'],
      evidenceSessionIds: ['b2'],
      supersededTurnIds: ['m0'],
      supersededSessionIds: ['b1'],
    });
  });

  it('an original id that is also current is not superseded; a batch holding current evidence is not either', () => {
    expect(sameBatch!.gold).toMatchObject({ supersededTurnIds: ['m3'], supersededSessionIds: [] });
  });

  it('contradiction resolution marks no older value (both statements are the gold)', () => {
    expect(contradiction!.gold.evidenceTurnIds).toEqual(['m4', 'm0']);
    expect(contradiction!.gold.supersededTurnIds).toBeUndefined();
  });

  it('gold update both: the superseded message joins the evidence and stays superseded', () => {
    const both = withUpdateGold(update!, 'both');
    expect(both.gold.evidenceTurnIds).toEqual(['m2', 'm0']);
    expect(both.gold.evidenceSessionIds).toEqual(['b2', 'b1']);
    expect(both.gold.supersededTurnIds).toEqual(['m0']);
    expect(withUpdateGold(update!, 'current')).toBe(update);
    expect(withUpdateGold(contradiction!, 'both')).toBe(contradiction);
  });
});

const turn = (content: string, hasAnswer = false) => ({
  role: 'user' as const,
  content,
  ...(hasAnswer ? { has_answer: true } : {}),
});
function lmeItem(id: string, type = 'knowledge-update') {
  return {
    question_id: id,
    question_type: type,
    question: 'How many pages have I read?',
    answer: '220',
    question_date: '2023/06/17 (Sat) 04:02',
    haystack_session_ids: ['new', 'filler', 'old'],
    // Listed newest first: the rule goes by date, not list order.
    haystack_dates: ['2023/05/29 (Mon) 09:12', '2023/05/25 (Thu) 10:00', '2023/05/20 (Sat) 21:24'],
    haystack_sessions: [
      [turn('我读到第220页了。', true), turn('ok')],
      [turn('filler')],
      [turn('I am on page 120.'), turn('page 120 of it', true)],
    ],
    answer_session_ids: ['new', 'old'],
  };
}

describe('LongMemEval superseded evidence', () => {
  it('knowledge update: the evidence sessions dated before the last one holding the answer', () => {
    const g = normaliseLongMemEval(lmeItem('184da446'), 'f.json', 'longmemeval-s').gold;
    expect(g.supersededSessionIds).toEqual(['old']);
    expect(g.supersededTurnIds).toEqual(['old_2']);
    expect(g.evidenceSessionIds).toEqual(['new', 'old']);
  });

  it('none for a question asking for the earlier value, an abstention question, or another type', () => {
    const asks = [...LME_ASKS_EARLIER_VALUE][0]!;
    for (const item of [lmeItem(asks), lmeItem('184da446_abs'), lmeItem('1', 'multi-session')]) {
      expect(normaliseLongMemEval(item, 'f.json', 'x').gold.supersededTurnIds).toBeUndefined();
    }
  });

  it('none when only one evidence session holds a has_answer turn', () => {
    const item = lmeItem('184da446');
    item.haystack_sessions[2] = [turn('I am on page 120.')];
    const issues: DataIssue[] = [];
    expect(normaliseLongMemEval(item, 'f.json', 'x', issues).gold.supersededTurnIds).toBeUndefined();
  });
});

describe('gold.update in a config', () => {
  it('is accepted on BEAM and refused elsewhere, naming the field', () => {
    expect(DatasetRefSchema.safeParse({ name: 'beam-100k', gold: { update: 'both' } }).success).toBe(true);
    const bad = DatasetRefSchema.safeParse({ name: 'longmemeval-s', gold: { update: 'both' } });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.message).toContain('gold.update applies to BEAM only');
  });
});
