// BEAM's superseded evidence (supersession.ts), on a chat written here: original_info is superseded and
// contradiction statements are not; `gold: { update: both }` joins it to the gold.
import { describe, expect, it } from 'vitest';
import { withUpdateGold } from '../../src/data/supersession.ts';
import { normaliseBeam } from './load.ts';

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
