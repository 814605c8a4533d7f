/**
 * Offline same-topic test of the update strategy: do two memories hold old and new values of the *same* attribute —
 * the one the question asks about? Decided from what the question and the two memories name, not from a cosine
 * threshold over the whole haystack (with flat SIF cosines that merged unrelated memories, and with Chinese zero
 * vectors merged everything):
 * 1. attribute: both memories name an attribute family (attributes.ts) the question names too
 *    ("where do I live now?" — "I live in Beijing" / "I moved to Hangzhou");
 * 2. otherwise, when the question names no attribute family, entity + change: both contain a question entity, a change is signalled — the newer memory carries a
 *    change cue ("switched", "no longer", "now", 换, 改 …) or the question asks for the current value ("now",
 *    "currently", "still", 现在, 目前) — and the pair's cosine is at least the median cosine of the candidate pairs
 *    (the embedding as one signal among three).
 * Memories linked this way form a topic group (connected components, update.ts); inside a group only memories of
 * different sessions and days can be old and new values (a session does not update itself) — units of one session are
 * one value, which keeps the turns of a session together at turn granularity.
 */
import { familiesOf } from './attributes.ts';
import { countOverlap, normaliseWord, textKeys, unitKeys, type TextKeys } from './text.ts';

const CHANGE_EN = new Set(
  'now current currently switch switched change changed new newer no longer anymore instead upgrade upgraded replace replaced start started stop stopped quit became moved'
    .split(' ')
    .map(normaliseWord),
);
const CHANGE_ZH = ['现在', '目前', '换', '改', '不再', '新', '开始', '已经', '搬', '升级'];

export interface TopicUnit {
  sessionId: string;
  day: string;
  keys: TextKeys;
  families: ReadonlySet<string>;
}

const topicCache = new WeakMap<object, TopicUnit>();
/** Per unit object, computed once (the attribute families scan every word of the unit; the update strategy asks for
 * the topic of each candidate on every question). */
export function topicUnit(unit: { sessionId: string; at: string; text: string }): TopicUnit {
  let t = topicCache.get(unit);
  if (!t) {
    const keys = unitKeys(unit);
    t = { sessionId: unit.sessionId, day: unit.at.slice(0, 10), keys, families: familiesOf(keys) };
    topicCache.set(unit, t);
  }
  return t;
}

function hasChangeCue(keys: TextKeys): boolean {
  for (const w of keys.words) if (CHANGE_EN.has(w)) return true;
  return CHANGE_ZH.some((w) => keys.lower.includes(w));
}

const CURRENT_EN = new Set('now current currently still latest anymore'.split(' ').map(normaliseWord));
const CURRENT_ZH = ['现在', '目前', '最新', '如今', '还在', '仍然'];

/** Whether a question asks for the current value of something. */
export function asksCurrent(question: string): boolean {
  const keys = textKeys(question);
  for (const w of keys.words) if (CURRENT_EN.has(w)) return true;
  return CURRENT_ZH.some((w) => keys.lower.includes(w));
}

export interface SameTopicContext {
  /** The question asks for a current value (see asksCurrent). */
  asksCurrent: boolean;
  queryFamilies: ReadonlySet<string>;
  queryEntities: readonly string[];
  /** Median cosine of the candidate pairs. */
  medianCosine: number;
}

export type TopicReason = 'attribute' | 'entity+change';

/** Why `older` and `newer` are the same topic, or undefined when they are not (see header). */
export function sameTopic(
  older: TopicUnit,
  newer: TopicUnit,
  cosine: number,
  ctx: SameTopicContext,
): TopicReason | undefined {
  for (const f of ctx.queryFamilies) if (older.families.has(f) && newer.families.has(f)) return 'attribute';
  // A question that names an attribute is answered by rule 1 alone: "move to Hangzhou" must not make a job search in
  // Hangzhou an earlier value of the residence.
  if (ctx.queryFamilies.size > 0) return undefined;
  const shared = ctx.queryEntities.filter(
    (e) => countOverlap([e], older.keys) >= 1 && countOverlap([e], newer.keys) >= 1,
  );
  if (shared.length > 0 && (ctx.asksCurrent || hasChangeCue(newer.keys)) && cosine >= ctx.medianCosine)
    return 'entity+change';
  return undefined;
}
