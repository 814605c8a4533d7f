/**
 * Cuts a haystack into memory units (docs/design.md §2) at turn, round or session granularity, keeping only the turns
 * whose role the IndexSpec lists. Unit text is what BM25 and the embedders see.
 *
 * - turn: one unit per kept turn; id = turn id.
 * - session: one unit per session with ≥ 1 kept non-empty turn; text = kept turns' texts joined with a single space,
 *   exactly as the official LongMemEval session index does (`src/retrieval/run_retrieval.py`,
 *   `process_item_flat_index`: `' '.join(user contents)`); id = session id.
 * - round: a user turn plus the assistant turn(s) that follow it until the next user turn; assistant turns before a
 *   session's first user turn form a round of their own. Rounds are numbered 1-based per session *before* the roles
 *   filter is applied (id `<sessionId>#r<n>`), so a round keeps its id whatever `roles` says; the filter only drops
 *   the excluded roles' text and turn ids from the round.
 *
 * Units whose text is empty or only spaces are skipped by default. The official script keeps such documents (empty
 * user turns, and sessions without user turns as ''); they never match a query, but they count in BM25's N and
 * avgdl, so dropping them moves BM25 scores slightly (docs/official-parity.md measures the effect on S).
 * `keepEmpty: true` keeps them, for exact parity with the official index.
 */
import type { IndexSpec } from '../core/interfaces.ts';
import type { MemoryUnit, Role, Session, Turn } from '../core/types.ts';

/** The text a turn contributes to a unit: optional `<speaker>: ` prefix, raw text, optional ` [image: …]` caption. */
export function turnText(turn: Turn, spec: Pick<IndexSpec, 'includeCaptions' | 'speakerPrefix'>): string {
  let text = turn.text;
  const caption = turn.caption;
  if (spec.includeCaptions && caption !== undefined && caption !== '') text = `${text} [image: ${caption}]`;
  if (spec.speakerPrefix && turn.speaker !== undefined && turn.speaker !== '') text = `${turn.speaker}: ${text}`;
  return text;
}

export interface BuildUnitsOptions {
  /** Keep units with empty text (official LongMemEval parity); default false. */
  keepEmpty?: boolean;
}

export function buildUnits(
  haystack: readonly Session[],
  spec: IndexSpec,
  options: BuildUnitsOptions = {},
): MemoryUnit[] {
  const keepEmpty = options.keepEmpty ?? false;
  const keep = new Set<Role>(spec.roles);
  const units: MemoryUnit[] = [];
  for (const session of haystack) {
    switch (spec.granularity) {
      case 'turn':
        for (const turn of session.turns) {
          if (!keep.has(turn.role)) continue;
          const unit = makeUnit(turn.id, session, [turn], spec, keepEmpty);
          if (unit) units.push(unit);
        }
        break;
      case 'session': {
        const unit = makeUnit(
          session.id,
          session,
          session.turns.filter((t) => keep.has(t.role)),
          spec,
          keepEmpty,
        );
        if (unit) units.push(unit);
        break;
      }
      case 'round':
        groupRounds(session.turns).forEach((round, i) => {
          const unit = makeUnit(
            `${session.id}#r${i + 1}`,
            session,
            round.filter((t) => keep.has(t.role)),
            spec,
            keepEmpty,
          );
          if (unit) units.push(unit);
        });
        break;
    }
  }
  return units;
}

/** Splits a session's turns into rounds: each user turn opens a new round. */
export function groupRounds(turns: readonly Turn[]): Turn[][] {
  const rounds: Turn[][] = [];
  let current: Turn[] | undefined;
  for (const turn of turns) {
    if (turn.role === 'user' || current === undefined) {
      current = [];
      rounds.push(current);
    }
    current.push(turn);
  }
  return rounds;
}

function makeUnit(
  id: string,
  session: Session,
  turns: readonly Turn[],
  spec: IndexSpec,
  keepEmpty: boolean,
): MemoryUnit | undefined {
  // Empty turns stay in the join (as the official script keeps them), so session text matches it byte for byte. One
  // turn (turn granularity: once per turn of every haystack) is its own text, without an array to join.
  const text = turns.length === 1 ? turnText(turns[0]!, spec) : turns.map((t) => turnText(t, spec)).join(' ');
  const turnIds: string[] = [];
  let role: Role | 'mixed' | undefined;
  let speaker: string | undefined;
  let oneSpeaker = true;
  for (const [i, turn] of turns.entries()) {
    turnIds.push(turn.id);
    role = role === undefined || role === turn.role ? turn.role : 'mixed';
    if (i === 0) speaker = turn.speaker;
    else if (turn.speaker !== speaker) oneSpeaker = false;
  }
  if (!keepEmpty && text.trim() === '') return undefined;
  const unit: MemoryUnit = {
    id,
    sessionId: session.id,
    turnIds,
    role: role !== undefined && role !== 'mixed' ? role : spec.roles.length === 1 ? spec.roles[0]! : 'mixed',
    text,
    // Datasets give no per-turn times: a turn's `at` is its session's time, so the first kept turn's time is right.
    at: turns[0]?.at || session.at,
  };
  if (oneSpeaker && speaker !== undefined) unit.speaker = speaker;
  return unit;
}
