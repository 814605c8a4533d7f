// LongMemEval's superseded evidence (supersession.ts), on records written here: the earlier evidence session is
// superseded, by date not by list order, unless the question asks for the earlier value.
import { describe, expect, it } from 'vitest';
import type { DataIssue } from '../../src/core/dataset-records.ts';
import { normaliseLongMemEval } from './load.ts';
import { LME_ASKS_EARLIER_VALUE } from './supersession.ts';

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
