/**
 * Time-aware query expansion, after the official `temp_query_search_pruning.py` (xiaowu0162/LongMemEval@9e0b455,
 * src/index_expansion/): when the question yields a time range [start, end], the range is widened by two days on
 * each side (`increment_date(start, -2)`, `increment_date(end, 2)`), the sessions with an event dated inside it are
 * "in range", and the ranking puts in-range values first, each part keeping its order. No range → ranking unchanged.
 *
 * Event dates per session come from the LLM's timestamped events (`batch_expansion_session_temp_event.py`) in LLM
 * mode; offline, a session's only event date is its own date.
 */
const DAY_MS = 86_400_000;

export function shiftDay(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Sessions with an event dated inside [start − 2, end + 2] (days as `YYYY-MM-DD`). */
export function sessionsInRange(
  eventDays: ReadonlyMap<string, readonly string[]>,
  range: { start: string; end: string },
): Set<string> {
  const lo = shiftDay(range.start, -2);
  const hi = shiftDay(range.end, 2);
  const hit = new Set<string>();
  for (const [session, days] of eventDays) if (days.some((d) => d >= lo && d <= hi)) hit.add(session);
  return hit;
}

/** Stable partition of a ranking: items whose session is in range first. */
export function inRangeFirst<T>(
  ranked: readonly T[],
  sessionOf: (item: T) => string,
  inRange: ReadonlySet<string>,
): { ranked: T[]; moved: number } {
  const left = ranked.filter((x) => inRange.has(sessionOf(x)));
  const right = ranked.filter((x) => !inRange.has(sessionOf(x)));
  return { ranked: [...left, ...right], moved: left.length };
}
