/**
 * Retrieval gold per level: which sessions and which turns count as relevant for one question, derived from the
 * dataset's `Gold` and from what the index actually contains. Two documented modes:
 *
 * - `official` — LongMemEval's rule (GitHub xiaowu0162/LongMemEval, `src/retrieval/run_retrieval.py`,
 *   `process_item_flat_index` + `correct_docs`). The official index holds USER turns only, and an id counts as
 *   correct only if it still contains "answer" after the renaming: a turn of an evidence session without
 *   `has_answer` is renamed `noans_…`, and an evidence session none of whose user turns has `has_answer` is renamed
 *   too. Hence: turn gold = gold turns among the INDEXED turns; session gold = evidence sessions having at least one
 *   gold turn among the indexed turns. Evidence that lives only in turns the index left out (e.g. assistant turns of
 *   `single-session-assistant` questions) is not gold, and such a question has no gold at all.
 * - `evidence` — the dataset's labels as they are: session gold = all `evidenceSessionIds`, turn gold = all
 *   `evidenceTurnIds`, whether indexed or not (an index that leaves evidence out is penalised).
 *
 * For LoCoMo the loader puts the evidence `dia_id`s in `evidenceTurnIds` and their sessions in `evidenceSessionIds`,
 * so both modes apply unchanged (LoCoMo indexes both speakers, so the modes differ only if an index drops turns).
 */
import type { Gold, MemoryUnit } from '../core/types.ts';

export const GOLD_MODES = ['official', 'evidence'] as const;
export type GoldMode = (typeof GOLD_MODES)[number];

/** The part of a memory unit the metrics need. */
export type UnitRef = Pick<MemoryUnit, 'id' | 'sessionId' | 'turnIds'>;

export interface RetrievalGold {
  sessions: ReadonlySet<string>;
  turns: ReadonlySet<string>;
  /** Superseded evidence the index holds (src/data/supersession.ts), never also current gold; empty when none. */
  supersededSessions?: ReadonlySet<string>;
  supersededTurns?: ReadonlySet<string>;
}

/**
 * The superseded evidence of a question that the index holds (a unit never indexed can never be retrieved, stale or
 * not). The metrics take current evidence as gold minus these: under `gold: { update: both }` the superseded
 * message is gold too, but still not the current value.
 */
export function supersededGold(
  gold: Pick<Gold, 'supersededSessionIds' | 'supersededTurnIds'>,
  indexed: ReadonlyMap<string, string>,
): { sessions: Set<string>; turns: Set<string> } {
  const turns = new Set((gold.supersededTurnIds ?? []).filter((t) => indexed.has(t)));
  const indexedSessions = new Set(indexed.values());
  const sessions = new Set((gold.supersededSessionIds ?? []).filter((s) => indexedSessions.has(s)));
  return { sessions, turns };
}

/** Every turn id the index holds, mapped to its session id (from the index's units). */
export function indexedTurns(units: readonly UnitRef[]): Map<string, string> {
  const map = new Map<string, string>();
  for (const u of units) for (const t of u.turnIds) map.set(t, u.sessionId);
  return map;
}

/**
 * Session and turn gold of one question in the given mode. `indexed` maps every indexed turn id to its session id
 * (see `indexedTurns`). Abstention is not decided here: `evaluateRetrieval` skips abstention questions.
 */
export function deriveRetrievalGold(gold: Gold, indexed: ReadonlyMap<string, string>, mode: GoldMode): RetrievalGold {
  const sup = supersededGold(gold, indexed);
  const stale = { supersededSessions: sup.sessions, supersededTurns: sup.turns };
  if (mode === 'evidence') {
    return { sessions: new Set(gold.evidenceSessionIds), turns: new Set(gold.evidenceTurnIds), ...stale };
  }
  const evidenceSessions = new Set(gold.evidenceSessionIds);
  const turns = new Set<string>();
  const sessions = new Set<string>();
  for (const t of gold.evidenceTurnIds) {
    const session = indexed.get(t);
    // Officially only ids containing "answer" (turns of the evidence sessions `answer_…`) can be gold; in
    // LongMemEval S every `has_answer` turn lies in an evidence session, so this check only guards other data.
    if (session === undefined || !evidenceSessions.has(session)) continue;
    turns.add(t);
    sessions.add(session);
  }
  return { sessions, turns, ...stale };
}
