/**
 * LLM-free text helpers for the strategies: query entity/keyword extraction and matching against unit text.
 *
 * English: capitalised phrases ("New York", "Dr. Smith") plus non-stopword content words of ≥ 3 letters, normalised
 * like BM25's standard analyser (possessive stripped, Porter-stemmed: "moved" meets "move", "named" meets "name").
 * Chinese (and other Han text): the dictionary words of each Han run (Intl.Segmenter, src/index/analysers/chinese.ts)
 * that are not function words (pronouns, particles, question words). A Chinese entity found verbatim in a text counts
 * 1; otherwise half the share of its content characters found — the segmenter glues words the way the question
 * uses them ("我的猫叫什么名字" → 猫叫), and the memory says 猫 on its own.
 */
import { cjkWords, normaliseEnglish, porterStem } from '../index/analysers/index.ts';
import { FNV_OFFSET, FNV_PRIME, fnvHash, SubstringTable } from '../index/substring-table.ts';
import { ENGLISH_STOPWORDS } from '../index/tokenizers.ts';

/** Question scaffolding that carries no topic ("what did I say about…"). */
const QUESTION_WORDS: ReadonlySet<string> = new Set(
  (
    'what when where which who whom whose why how many much did does do tell remember mentioned mention said say ' +
    'ever know recall remind last first time ago currently current now still previously recently yes among ask asked ' +
    'talk talked told'
  ).split(' '),
);
/** Han characters and words that are grammar, not topic (pronouns, particles, question and measure words). */
const HAN_FUNCTION = new Set([
  ...'我你他她它们的了吗呢吧啊是在有没什么哪谁怎样么个这那和与跟过说到就都也还要会能想种次',
  ...(
    '我的 你的 我们 你们 他们 什么 怎么 怎样 哪里 哪儿 哪个 哪些 哪种 为什么 多少 几个 一下 一个 一只 一些 一种 ' +
    '这个 那个 我是 过的 还是 是不是 有没有 时候 可以 已经 就是 提到 说过 告诉 知道 记得 现在 最近 最多 最少 一共 总共 ' +
    '次数 数量 里 上 中 一家 一次 很 非常 不错 好的 谢谢 可能 应该 需要'
  ).split(' '),
]);

const HAN_RUN = /\p{Script=Han}+/gu;
const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu;

/** An English word as entities and unit keys compare it: lower-cased, possessive and apostrophes gone, stemmed. */
function normalise(word: string): string {
  return porterStem(normaliseEnglish(word.toLowerCase()));
}

/** `normalise`, memoised. */
const normalised = new Map<string, string>();
export function normaliseWord(word: string): string {
  let n = normalised.get(word);
  if (n === undefined) {
    n = normalise(word);
    // Bounded: the vocabulary of a run is a few hundred thousand words at most.
    if (normalised.size >= 500_000) normalised.clear();
    normalised.set(word, n);
  }
  return n;
}

/** Content words of each Han run (see header); adjacent one-character content words are joined (菜|系 → 菜系: the
 * dictionary splits words it does not know into characters). */
function hanWords(text: string): string[] {
  const out: string[] = [];
  for (const run of text.match(HAN_RUN) ?? []) {
    let pending = '';
    const flush = (): void => {
      if (pending) out.push(pending);
      pending = '';
    };
    for (const w of cjkWords(run)) {
      // A word made only of function characters (过的, 我是) carries no topic either.
      if (HAN_FUNCTION.has(w) || [...w].every((c) => HAN_FUNCTION.has(c))) {
        flush();
        continue;
      }
      if ([...w].length === 1) pending += w;
      else {
        flush();
        out.push(w);
      }
    }
    flush();
  }
  return out;
}

/** The content words of a text as written (lower-cased, unstemmed; Chinese words as segmented): search text for
 * sub-queries, where a stem ("restaur") would mean nothing to an embedder. */
export function contentWords(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(WORD)) {
    const raw = normaliseEnglish(m[0].toLowerCase());
    if (/\p{Script=Han}/u.test(raw) || raw.length < 3 || ENGLISH_STOPWORDS.has(raw) || QUESTION_WORDS.has(raw))
      continue;
    out.add(raw);
  }
  for (const w of hanWords(text)) out.add(w);
  return [...out];
}

/**
 * The WORD tokens that start with a capital letter, and only those: a capital at a position where WORD would not
 * start a token (inside "iPhone", after "a-") is not matched: the lookbehind, tried only where a capital matched,
 * rejects a capital that a letter or digit followed by token characters leads up to. Far fewer matches than every
 * word of a long text.
 */
const CAPITALISED = /\p{Lu}(?<![\p{L}\p{N}][\p{L}\p{N}'’-]*\p{Lu})[\p{L}\p{N}'’-]*/gu;
const WHITESPACE_ONLY = /^\s+$/u;

/** Entities/keywords of a query, normalised, deduplicated, in first-seen order. With `limit`, the first `limit` of
 * them — the same list as `extractEntities(text).slice(0, limit)`, but the scan stops once it has them (A-MEM's
 * offline notes keep 8 keywords of each whole session; finding every word of it first was most of that method's
 * per-haystack time, scripts/bench-latency.ts). */
export function extractEntities(text: string, limit = Infinity): string[] {
  const found: string[] = [];
  const seen = new Set<string>();
  const add = (e: string): void => {
    if (e && !seen.has(e)) {
      seen.add(e);
      found.push(e);
    }
  };
  if (limit <= 0) return found;
  // Capitalised multi-word phrases (not at sentence start) first: they are the likeliest named entities. A phrase is
  // a run of capitalised tokens with only whitespace between them (so no other token either), each a possible start.
  const caps = [...text.matchAll(CAPITALISED)];
  for (let i = 0; i < caps.length && found.length < limit; i++) {
    const start = caps[i]!.index;
    const sentenceStart = start === 0 || follows(text, start, '.?!');
    let j = i;
    while (
      j + 1 < caps.length &&
      WHITESPACE_ONLY.test(text.slice(caps[j]!.index + caps[j]![0].length, caps[j + 1]!.index))
    )
      j++;
    if (j > i && !sentenceStart)
      add(
        caps
          .slice(i, j + 1)
          .map((m) => normaliseWord(m[0]))
          .join(' '),
      );
  }
  // Then content words in text order, read lazily: the scan stops at the limit.
  if (found.length < limit) {
    for (const m of text.matchAll(WORD)) {
      const raw = normaliseEnglish(m[0].toLowerCase());
      if (/\p{Script=Han}/u.test(raw)) continue;
      if (raw.length < 3 || ENGLISH_STOPWORDS.has(raw) || QUESTION_WORDS.has(raw)) continue;
      add(normaliseWord(raw));
      if (found.length >= limit) break;
    }
  }
  if (found.length < limit) for (const w of hanWords(text)) add(w);
  return found.length > limit ? found.slice(0, limit) : found;
}

const SPACE = /\s/u;
/**
 * Whether the last non-whitespace character before `index` is one of `chars`: what `/[chars]\s*$/u` tests on
 * `text.slice(0, index)`, without copying the prefix and scanning it from its start for every word — that was
 * quadratic in the text's length and the largest cost of the multi-hop strategy on a LongMemEval session
 * (scripts/bench-latency.ts profile: 38 % of its time).
 */
function follows(text: string, index: number, chars: string): boolean {
  let j = index - 1;
  while (j >= 0 && SPACE.test(text[j]!)) j--;
  return j >= 0 && chars.includes(text[j]!);
}

/** Names a text mentions: English capitalised words not at a sentence start ("Hangzhou", not "Try"), lower-cased,
 * and Chinese content words (Chinese has no capitals to tell names apart). */
export function namedWords(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(WORD)) {
    const w = m[0];
    if (!/^\p{Lu}/u.test(w) || /\p{Script=Han}/u.test(w)) continue;
    if (m.index === 0 || follows(text, m.index, '.?!:;"“')) continue;
    const lower = normaliseEnglish(w.toLowerCase());
    if (lower.length >= 3 && !ENGLISH_STOPWORDS.has(lower)) out.add(lower);
  }
  for (const w of hanWords(text)) out.add(w);
  return [...out];
}

/** The normalised word set and raw lowercase text of a unit, for `countOverlap`. */
export interface TextKeys {
  words: ReadonlySet<string>;
  lower: string;
}

const unitKeysCache = new WeakMap<object, TextKeys>();
/** `textKeys` of a memory unit, computed once per unit object (units live as long as their index, and every strategy
 * of every question of a haystack reads the same units). */
export function unitKeys(unit: { text: string }): TextKeys {
  let k = unitKeysCache.get(unit);
  if (!k) {
    k = textKeys(unit.text);
    unitKeysCache.set(unit, k);
  }
  return k;
}

const unitLowerCache = new WeakMap<object, string>();
/** A unit's text lower-cased, once per unit object (shared with its `unitKeys` when those exist). */
export function unitLower(unit: { text: string }): string {
  const keys = unitKeysCache.get(unit);
  if (keys) return keys.lower;
  let l = unitLowerCache.get(unit);
  if (l === undefined) {
    l = unit.text.toLowerCase();
    unitLowerCache.set(unit, l);
  }
  return l;
}

const unitNamesCache = new WeakMap<object, readonly string[]>();
/** `namedWords` of a memory unit, computed once per unit object (the multi-hop bridge step reads the evidence units'
 * names on every question; before, every question re-scanned them). */
export function unitNamedWords(unit: { text: string }): readonly string[] {
  let n = unitNamesCache.get(unit);
  if (!n) {
    n = namedWords(unit.text);
    unitNamesCache.set(unit, n);
  }
  return n;
}

/**
 * Memory writing for the strategies (`Strategy.memorise`): the per-unit keys they read, built for every unit of the
 * haystack before any question, so a question's latency is its own work (plan experiment 5). `run`s that come first
 * build the same keys lazily; building them here changes nothing they return.
 */
export function memoriseUnitKeys(
  units: readonly { text: string }[],
  parts: { sentences?: boolean; names?: boolean } = {},
): void {
  for (const u of units) {
    unitKeys(u);
    if (parts.sentences) unitSentenceKeys(u);
    if (parts.names) unitNamedWords(u);
  }
}

export interface SentenceKeys {
  sentence: string;
  keys: TextKeys;
}
const unitSentencesCache = new WeakMap<object, readonly SentenceKeys[]>();
/** The `sentences` of a memory unit with each one's `textKeys`, computed once per unit object (the multi-hop
 * extractive answer scores every sentence of its evidence against each sub-question). */
export function unitSentenceKeys(unit: { text: string }): readonly SentenceKeys[] {
  let s = unitSentencesCache.get(unit);
  if (!s) {
    s = sentences(unit.text).map((sentence) => ({ sentence, keys: textKeys(sentence) }));
    unitSentencesCache.set(unit, s);
  }
  return s;
}

export function textKeys(text: string): TextKeys {
  const lower = text.toLowerCase();
  // The words of the lower-cased text are the lower-cased words of the text when lower-casing keeps every code unit
  // in place and is context-free (it then maps letters to letters and leaves the rest, checked for every code point
  // in text.test.ts): fewer distinct forms ("The"/"the") and a smaller memo. Otherwise the text's own words: İ
  // becomes i + a combining dot, and Σ lower-cases by context (final ς, Unicode SpecialCasing), which a word alone
  // does not have.
  return { words: wordStems(lower.length === text.length && !text.includes('Σ') ? lower : text), lower };
}

/** ASCII code units by their part in WORD: 1 starts or continues a word (letter, digit), 2 only continues one (' -). */
const ASCII_WORD = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  ASCII_WORD[c] = /[\p{L}\p{N}]/u.test(ch) ? 1 : /['’-]/u.test(ch) ? 2 : 0;
}
/** WORD anchored at `lastIndex`: the exact word at a position where a non-ASCII code unit is involved. */
const WORD_AT = new RegExp(WORD.source, 'uy');

/**
 * `new Set(src.match(WORD))`, each form normalised (`normaliseWord`), as a set in the order of first occurrence —
 * without slicing every word out of the text. A session repeats most of its words; an ASCII word is hashed as it is
 * scanned and found in `FORMS` (a SubstringTable) in place, so only a form never seen before becomes a string. A word
 * with a non-ASCII code unit in it or next to it is taken by the regex itself (WORD_AT), so the words are exactly the
 * regex's (property test in text.test.ts, against the regex; this was ~80 % of the strategies' per-haystack time,
 * scripts/bench-latency.ts).
 */
function wordStems(src: string): Set<string> {
  const words = new Set<string>();
  const epoch = FORMS.nextEpoch();
  const n = src.length;
  let i = 0;
  while (i < n) {
    let c = src.charCodeAt(i);
    if (c < 128 && ASCII_WORD[c] !== 1) {
      i++;
      continue;
    }
    const start = i;
    if (c < 128) {
      let h = FNV_OFFSET;
      while (c < 128 && ASCII_WORD[c] !== 0) {
        h = Math.imul(h ^ c, FNV_PRIME);
        if (++i === n) break;
        c = src.charCodeAt(i);
      }
      if (i === n || c < 128) {
        FORMS.add(words, epoch, src, start, i, h);
        continue;
      }
    }
    // A non-ASCII code unit starts the word or follows its ASCII part: the regex decides where the word ends.
    WORD_AT.lastIndex = start;
    const m = WORD_AT.exec(src);
    if (m) {
      const w = m[0];
      FORMS.add(words, epoch, w, 0, w.length, fnvHash(w));
      i = start + w.length;
    } else {
      // Not a word start: step over the whole code point (WORD reads code points).
      i = start + (c >= 0xd800 && c <= 0xdbff && i + 1 < n && (src.charCodeAt(i + 1) & 0xfc00) === 0xdc00 ? 2 : 1);
    }
  }
  return words;
}

/**
 * Word forms seen by `textKeys` (a SubstringTable: ids in order of first sight) and, per id, the normalised form and
 * the last `textKeys` call (epoch) that added it, so each distinct form of a text costs one Set insertion. Bounded like
 * `normaliseWord`'s memo.
 */
class FormTable {
  private forms = new SubstringTable();
  private stems: string[] = [];
  private marks = new Int32Array(1 << 12);
  private epoch = 0;

  nextEpoch(): number {
    if (this.epoch === 0x7fffffff) {
      // Marks of earlier calls could equal the epochs counted again: forget them all (once per 2^31 calls).
      this.clear();
      this.epoch = 0;
    }
    return ++this.epoch;
  }

  /** Adds the normalised form of `src[start, end)` (hash `h`) to `words`, once per epoch. */
  add(words: Set<string>, epoch: number, src: string, start: number, end: number, h: number): void {
    if (this.forms.size >= 500_000) this.clear();
    const seen = this.forms.size;
    const id = this.forms.intern(src, start, end, h);
    if (id === seen) {
      this.stems.push(normalise(this.forms.text(id)));
      if (id >= this.marks.length) {
        const marks = new Int32Array(2 * this.marks.length);
        marks.set(this.marks);
        this.marks = marks;
      }
    } else if (this.marks[id] === epoch) {
      return;
    }
    this.marks[id] = epoch;
    words.add(this.stems[id]!);
  }

  /** Forgets every form; the epoch goes on counting, so a cleared mark (0) never equals one. */
  private clear(): void {
    this.forms.clear();
    this.stems = [];
    this.marks = new Int32Array(1 << 12);
  }
}
const FORMS = new FormTable();

/** False when no code unit of `s` can belong to a Han character (all below U+2E80, where the Han script starts;
 * astral Han is written with surrogates, above it): skips the Unicode-property regex for English words, which
 * countOverlap would otherwise run for every entity against every candidate unit. */
function mayBeHan(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) >= 0x2e80) return true;
  return false;
}

/** How many of the entities occur in the text: words by normalised form, phrases as substrings, Chinese words as
 * substrings or, failing that, half the share of their content characters present (see header). */
export function countOverlap(entities: readonly string[], keys: TextKeys): number {
  let n = 0;
  for (const e of entities) {
    if (mayBeHan(e) && /\p{Script=Han}/u.test(e)) {
      if (keys.lower.includes(e)) n++;
      else {
        const chars = [...e].filter((c) => !HAN_FUNCTION.has(c));
        if (chars.length > 1) n += (0.5 * chars.filter((c) => keys.lower.includes(c)).length) / chars.length;
      }
    } else if (e.includes(' ')) {
      if (keys.lower.includes(e)) n++;
    } else if (keys.words.has(e)) n++;
  }
  return n;
}

/** Sentences of a text (for extractive intermediate answers). */
export function sentences(text: string): string[] {
  return text
    .split(/(?<=[.?!。？！])\s*|\n+/u)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}
