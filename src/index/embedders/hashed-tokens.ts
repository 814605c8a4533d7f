/**
 * Features for the words the wink word vectors do not know — every Chinese word (the GloVe vocabulary is English)
 * and English out-of-vocabulary words (names such as "Shuxiangqing") — by the signed hashing trick (Weinberger et
 * al. 2009, "Feature hashing for large scale multitask learning"; fastText's hashed buckets are the same idea):
 * each token goes to one of HASH_BUCKETS extra dimensions, with a sign, both taken from SHA-256 of the token. The
 * buckets are appended to the 100 word-vector dimensions, so equal tokens match exactly, different tokens collide
 * with probability 1/HASH_BUCKETS, and an all-English text of known words keeps exactly its v1 cosines. (Dense
 * random 100-d directions were tried first: on the plan's eight Chinese memories their ±0.1 chance cosines drowned
 * the matches.) A token weighs HASHED_NORM, the median norm of the wink vectors (measured: 3.74 over a 1-in-997
 * sample of the 341k words), so a hashed token counts in the SIF average like a typical known word.
 *
 * Chinese runs are segmented with chinese.ts (dictionary words + their characters). Weights, in SIF's spirit
 * (a / (a + p(w)): frequent words count less) without a frequency list: a word 1, a character of a longer word
 * 0.3 (recall for mis-segmented words without drowning the words), a function word or character (pronouns,
 * particles, question and measure words) 0.05.
 */
import { createHash } from 'node:crypto';
import { cjkTokens, cjkWords } from '../analysers/chinese.ts';

export const HASHED_NORM = 3.74;

/** Chinese words and characters that carry grammar, not topic (pronouns, particles, question words, measure words). */
const ZH_FUNCTION = new Set([
  ...'我你他她它们的了吗呢吧啊是在有没什么哪谁怎样么个这那和与跟过说到就都也还要会能想给把被让很太又再才从对于而并或及等种只',
  ...(
    '我的 你的 他的 她的 我们 你们 他们 什么 怎么 怎样 哪里 哪儿 哪个 哪些 哪种 为什么 多少 几个 一下 一个 一只 一些 一种 ' +
    '这个 那个 这些 那些 我是 过的 还是 是不是 有没有 时候 可以 已经 就是 但是 因为 所以 如果 然后 告诉 知道 提到 说过'
  ).split(' '),
]);

/** Extra dimensions for hashed tokens. */
export const HASH_BUCKETS = 1024;

const cache = new Map<string, number>();
const CACHE_MAX = 200_000;

/** The token's bucket (0 … HASH_BUCKETS-1) and sign, packed as ±(bucket + 1). */
export function hashedFeature(token: string): number {
  const hit = cache.get(token);
  if (hit !== undefined) return hit;
  const bytes = createHash('sha256').update(token).digest();
  const feature = ((bytes.readUInt32LE(0) % HASH_BUCKETS) + 1) * ((bytes[4]! & 1) === 0 ? 1 : -1);
  if (cache.size >= CACHE_MAX) cache.clear();
  cache.set(token, feature);
  return feature;
}

/** Weighted tokens of a Chinese/Japanese run (see header). */
export function cjkWeightedTokens(run: string): { token: string; weight: number }[] {
  const out: { token: string; weight: number }[] = [];
  for (const w of cjkWords(run)) {
    const chars = [...w];
    const functionWord = ZH_FUNCTION.has(w);
    out.push({ token: w, weight: functionWord ? 0.05 : 1 });
    if (chars.length === 1) continue;
    for (const c of cjkTokens(w).slice(1))
      out.push({ token: c, weight: functionWord || ZH_FUNCTION.has(c) ? 0.05 : 0.3 });
  }
  return out;
}
