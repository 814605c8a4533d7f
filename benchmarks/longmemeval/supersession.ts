/**
 * Superseded evidence of LongMemEval (xiaowu0162/LongMemEval, `answer_session_ids` + `has_answer`; docs/datasets.md
 * §4.6): in a knowledge-update question the current session is the latest evidence session (by date, then haystack
 * order) holding a `has_answer` turn; every earlier evidence session, and its `has_answer` turns, is superseded.
 * Questions that ask for the earlier value or compare the two (read by hand, `LME_ASKS_EARLIER_VALUE`) have none:
 * there the older evidence is needed.
 */
import type { Gold, Session } from '../../src/core/types.ts';

/**
 * LongMemEval knowledge-update questions (ids as in S, M and oracle) whose question asks for the older value
 * ("previous", "before", "initially", "the first three months") or compares old and new, so that the earlier evidence
 * session is needed, not stale. Read from every knowledge-update question of LongMemEval S.
 */
export const LME_ASKS_EARLIER_VALUE: ReadonlySet<string> = new Set([
  '0977f2af', // the gadget bought before the Air Fryer
  '0ddfec37', // baseballs added in the first three months
  '031748ae', // engineers led at the start and now
  '07741c44', // where the sneakers were initially kept
  '10e09553', // bass caught on the earlier trip, before 7/22
  '50635ada', // the previous frequent flyer status
  '6071bd76', // more or less water than before
  '89941a94', // bikes owned before the gravel bike
  '9bbe84a2', // the previous Apex Legends goal
  'c4ea545c', // the gym more often than previously
  'c6853660', // increased or decreased the coffee limit
  'dfde3500', // the day of the previous tutor
  'e66b632c', // the previous 5K personal best
  'f685340e', // tennis previously and now
]);

/** Superseded session and turn ids of one LongMemEval question (none unless a knowledge-update question). */
export function longMemEvalSuperseded(
  questionId: string,
  nativeType: string,
  evidenceSessionIds: readonly string[],
  haystack: readonly Session[],
  hasAnswer: ReadonlySet<string>,
): Pick<Gold, 'supersededSessionIds' | 'supersededTurnIds'> {
  if (nativeType !== 'knowledge-update' || questionId.endsWith('_abs') || LME_ASKS_EARLIER_VALUE.has(questionId))
    return {};
  const wanted = new Set(evidenceSessionIds);
  const evidence = haystack
    .map((s, position) => ({ s, position }))
    .filter(({ s }) => wanted.has(s.id) && s.turns.some((t) => hasAnswer.has(t.id)))
    .sort((a, b) => (a.s.at < b.s.at ? -1 : a.s.at > b.s.at ? 1 : a.position - b.position));
  if (evidence.length < 2) return {};
  const older = evidence.slice(0, -1).map(({ s }) => s);
  const current = evidence.at(-1)!.s.id;
  const sessions = [...new Set(older.map((s) => s.id))].filter((id) => id !== current);
  const turns = older.filter((s) => s.id !== current).flatMap((s) => s.turns.filter((t) => hasAnswer.has(t.id)));
  return sessions.length > 0 ? { supersededSessionIds: sessions, supersededTurnIds: turns.map((t) => t.id) } : {};
}
