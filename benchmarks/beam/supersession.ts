/**
 * Superseded evidence of BEAM (mohammadtavakoli78/BEAM@b2a3ee8, `probing_questions.json`; docs/datasets.md §4.6):
 * knowledge-update questions name the old message (`source_chat_ids.original_info`) and the new one
 * (`updated_info`); `original_info` ids (minus any also in `updated_info`) are superseded. Contradiction-resolution
 * questions are not: their rubric asks the answer to quote both statements and ask which is right, and
 * `first_statement` is not the earlier message (chat 100K/1: 58 vs 24), so neither side is an older value.
 * `gold: { update: both }` puts them back into the evidence (src/data/supersession.ts `withUpdateGold`).
 */
import type { Gold } from '../../src/core/types.ts';

/**
 * Superseded ids of one BEAM question: `original_info` of a knowledge update, as turn ids present in the chat, minus
 * the current evidence; the sessions are those holding superseded turns and no current evidence.
 */
export function beamSuperseded(
  ability: string,
  sourceChatIds: unknown,
  current: { turns: readonly string[]; sessions: readonly string[] },
  sessionOf: (turnId: string) => string | undefined,
): Pick<Gold, 'supersededSessionIds' | 'supersededTurnIds'> {
  if (ability !== 'knowledge_update' || sourceChatIds === null || typeof sourceChatIds !== 'object') return {};
  const original = (sourceChatIds as Record<string, unknown>).original_info;
  const ids: number[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === 'number' && Number.isInteger(v) && v >= 0) ids.push(v);
    else if (Array.isArray(v)) for (const x of v) walk(x);
  };
  walk(original);
  const currentTurns = new Set(current.turns);
  const turns = [...new Set(ids.map((id) => `m${id}`))].filter((t) => !currentTurns.has(t) && sessionOf(t));
  if (turns.length === 0) return {};
  const currentSessions = new Set(current.sessions);
  const sessions = [...new Set(turns.map((t) => sessionOf(t)!))].filter((s) => !currentSessions.has(s));
  return { supersededSessionIds: sessions, supersededTurnIds: turns };
}
