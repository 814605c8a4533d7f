/**
 * Offline same-topic test of the update strategy: do two memories hold old and new values of the *same* attribute —
 * the one the question asks about? Decided from what the question and the two memories name, not from a cosine
 * threshold over the whole haystack (with flat SIF cosines that merged unrelated memories, and with Chinese zero
 * vectors merged everything):
 * 1. attribute: both memories name an attribute family (attributes.ts) the question names too
 *    ("where do I live now?" — "I live in Beijing" / "I moved to Hangzhou");
 * 2. otherwise entity + change: both contain a question entity, a change is signalled — the newer memory carries a
 *    change cue ("switched", "no longer", "now", 换, 改 …) or the question asks for the current value ("now",
 *    "currently", "still", 现在, 目前) — and the pair's cosine is at least the median cosine of the candidate pairs
 *    (the embedding as one signal among three).
 * Never the same topic: memories of one session, or of one day (a memory does not update itself).
 */
import { familiesOf } from './attributes.ts';
import { countOverlap, normaliseWord, textKeys, type TextKeys } from './text.ts';

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

export function topicUnit(unit: { sessionId: string; at: string; text: string }): TopicUnit {
  const keys = textKeys(unit.text);
  return { sessionId: unit.sessionId, day: unit.at.slice(0, 10), keys, families: familiesOf(keys) };
}

function hasChangeCue(keys: TextKeys): boolean {
  for (const w of keys.words) if (CHANGE_EN.has(w)) return true;
  return CHANGE_ZH.some((w) => keys.lower.includes(w));
}

const CURRENT_EN = new Set('now current currently still latest anymore'.split(' ').map(normaliseWord));
const CURRENT_ZH = ['现在', '目前', '最新', '如今', '还'];

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
export function sameTopic(older: TopicUnit, newer: TopicUnit, cosine: number, ctx: SameTopicContext): TopicReason | undefined {
  if (older.sessionId === newer.sessionId || older.day === newer.day) return undefined;
  for (const f of ctx.queryFamilies) if (older.families.has(f) && newer.families.has(f)) return 'attribute';
  const shared = ctx.queryEntities.filter((e) => countOverlap([e], older.keys) >= 1 && countOverlap([e], newer.keys) >= 1);
  if (shared.length > 0 && (ctx.asksCurrent || hasChangeCue(newer.keys)) && cosine >= ctx.medianCosine) return 'entity+change';
  return undefined;
}
