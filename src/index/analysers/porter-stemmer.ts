/**
 * The Porter stemmer as NLTK runs it by default (`nltk.stem.PorterStemmer()`, mode NLTK_EXTENSIONS), because
 * LoCoMo's token F1 stems with it (`task_eval/evaluation.py`: `ps = PorterStemmer(); ps.stem(w)`).
 *
 * Why not an npm stemmer: the maintained packages implement Porter's original algorithm (or Porter2), which differs
 * from NLTK's default on common words — over LoCoMo's vocabulary `stemmer@2` disagrees with NLTK on 140 of 5,874
 * words (day→"dai" vs "day", are→"ar" vs "are", dying→"dy" vs "die"), enough to move F1. This is a fresh
 * implementation of M. F. Porter (1980), "An algorithm for suffix stripping", with NLTK's documented departures:
 * an irregular-forms pool (dying→die, skies→sky, news→news…); words of ≤ 2 letters left alone; `ies`/`ied` on
 * 4-letter words → `ie`; `ied` → `i`; step 1c turns y→i only after a consonant that is not the word's first letter;
 * step 2 `bli→ble` (Martin's change), a recursive `alli→al`, plus `fulli→ful` and `logi→log`; a 2-letter vc stem
 * counts as *o. Checked word for word against NLTK 3.10 on LoCoMo's whole vocabulary (porter-stemmer.test.ts).
 */

const IRREGULAR: Readonly<Record<string, string>> = {
  sky: 'sky',
  skies: 'sky',
  dying: 'die',
  lying: 'lie',
  tying: 'tie',
  news: 'news',
  innings: 'inning',
  inning: 'inning',
  outings: 'outing',
  outing: 'outing',
  cannings: 'canning',
  canning: 'canning',
  howe: 'howe',
  proceed: 'proceed',
  exceed: 'exceed',
  succeed: 'succeed',
};

const VOWELS = new Set(['a', 'e', 'i', 'o', 'u']);

/** Consonant flags per letter: `y` is a consonant at the start or after a vowel, a vowel after a consonant. */
function consonantFlags(word: string): boolean[] {
  const flags: boolean[] = [];
  for (let i = 0; i < word.length; i++) {
    const ch = word[i]!;
    if (VOWELS.has(ch)) flags.push(false);
    else if (ch === 'y') flags.push(i === 0 ? true : !flags[i - 1]);
    else flags.push(true);
  }
  return flags;
}

function isConsonant(word: string, i: number): boolean {
  return consonantFlags(word)[i] ?? false;
}

/** m in [C](VC)^m[V]: the number of vowel→consonant transitions. */
function measure(stem: string): number {
  const f = consonantFlags(stem);
  let m = 0;
  for (let i = 1; i < f.length; i++) if (!f[i - 1] && f[i]) m++;
  return m;
}

const hasVowel = (stem: string): boolean => consonantFlags(stem).some((c) => !c);

function endsDoubleConsonant(word: string): boolean {
  const n = word.length;
  return n >= 2 && word[n - 1] === word[n - 2] && isConsonant(word, n - 1);
}

/** *o: ends consonant-vowel-consonant, the last not w, x or y; NLTK also accepts a 2-letter vowel-consonant word. */
function endsCvc(word: string): boolean {
  const n = word.length;
  if (n >= 3) {
    const f = consonantFlags(word);
    if (f[n - 3] && !f[n - 2] && f[n - 1] && !'wxy'.includes(word[n - 1]!)) return true;
  }
  return n === 2 && !isConsonant(word, 0) && isConsonant(word, 1);
}

type Rule = [suffix: string, replacement: string, condition?: (stem: string) => boolean];

/**
 * The first rule whose suffix matches decides: applied if its condition holds on the remaining stem, otherwise the
 * word is returned unchanged (later rules are not tried) — Porter's longest-match-first rule lists.
 */
function applyRules(word: string, rules: readonly Rule[]): string {
  for (const [suffix, replacement, condition] of rules) {
    if (!word.endsWith(suffix)) continue;
    const stem = word.slice(0, word.length - suffix.length);
    return !condition || condition(stem) ? stem + replacement : word;
  }
  return word;
}

const mGt0 = (s: string): boolean => measure(s) > 0;
const mGt1 = (s: string): boolean => measure(s) > 1;

function step1a(w: string): string {
  if (w.endsWith('ies') && w.length === 4) return `${w.slice(0, -3)}ie`;
  return applyRules(w, [
    ['sses', 'ss'],
    ['ies', 'i'],
    ['ss', 'ss'],
    ['s', ''],
  ]);
}

function step1b(w: string): string {
  if (w.endsWith('ied')) return w.slice(0, -3) + (w.length === 4 ? 'ie' : 'i');
  if (w.endsWith('eed')) {
    const stem = w.slice(0, -3);
    return measure(stem) > 0 ? `${stem}ee` : w;
  }
  let stem: string | undefined;
  for (const suffix of ['ed', 'ing']) {
    if (w.endsWith(suffix) && hasVowel(w.slice(0, -suffix.length))) {
      stem = w.slice(0, -suffix.length);
      break;
    }
  }
  if (stem === undefined) return w;
  if (stem.endsWith('at') || stem.endsWith('bl') || stem.endsWith('iz')) return `${stem}e`;
  if (endsDoubleConsonant(stem)) return 'lsz'.includes(stem[stem.length - 1]!) ? stem : stem.slice(0, -1);
  return measure(stem) === 1 && endsCvc(stem) ? `${stem}e` : stem;
}

function step1c(w: string): string {
  return applyRules(w, [['y', 'i', (s) => s.length > 1 && isConsonant(s, s.length - 1)]]);
}

function step2(w: string): string {
  if (w.endsWith('alli') && mGt0(w.slice(0, -4))) return step2(`${w.slice(0, -4)}al`);
  return applyRules(w, [
    ['ational', 'ate', mGt0],
    ['tional', 'tion', mGt0],
    ['enci', 'ence', mGt0],
    ['anci', 'ance', mGt0],
    ['izer', 'ize', mGt0],
    ['bli', 'ble', mGt0],
    ['alli', 'al', mGt0],
    ['entli', 'ent', mGt0],
    ['eli', 'e', mGt0],
    ['ousli', 'ous', mGt0],
    ['ization', 'ize', mGt0],
    ['ation', 'ate', mGt0],
    ['ator', 'ate', mGt0],
    ['alism', 'al', mGt0],
    ['iveness', 'ive', mGt0],
    ['fulness', 'ful', mGt0],
    ['ousness', 'ous', mGt0],
    ['aliti', 'al', mGt0],
    ['iviti', 'ive', mGt0],
    ['biliti', 'ble', mGt0],
    ['fulli', 'ful', mGt0],
    // NLTK measures the word minus "ogi" here (keeping the "l"), not the stem minus "logi".
    ['logi', 'log', () => mGt0(w.slice(0, -3))],
  ]);
}

function step3(w: string): string {
  return applyRules(w, [
    ['icate', 'ic', mGt0],
    ['ative', '', mGt0],
    ['alize', 'al', mGt0],
    ['iciti', 'ic', mGt0],
    ['ical', 'ic', mGt0],
    ['ful', '', mGt0],
    ['ness', '', mGt0],
  ]);
}

function step4(w: string): string {
  return applyRules(w, [
    ['al', '', mGt1],
    ['ance', '', mGt1],
    ['ence', '', mGt1],
    ['er', '', mGt1],
    ['ic', '', mGt1],
    ['able', '', mGt1],
    ['ible', '', mGt1],
    ['ant', '', mGt1],
    ['ement', '', mGt1],
    ['ment', '', mGt1],
    ['ent', '', mGt1],
    ['ion', '', (s) => mGt1(s) && (s.endsWith('s') || s.endsWith('t'))],
    ['ou', '', mGt1],
    ['ism', '', mGt1],
    ['ate', '', mGt1],
    ['iti', '', mGt1],
    ['ous', '', mGt1],
    ['ive', '', mGt1],
    ['ize', '', mGt1],
  ]);
}

function step5a(w: string): string {
  if (!w.endsWith('e')) return w;
  const stem = w.slice(0, -1);
  const m = measure(stem);
  return m > 1 || (m === 1 && !endsCvc(stem)) ? stem : w;
}

function step5b(w: string): string {
  return w.endsWith('ll') && measure(w.slice(0, -1)) > 1 ? w.slice(0, -1) : w;
}

/** NLTK `PorterStemmer().stem(word)`: lower-cases, then stems. */
export function porterStem(word: string): string {
  const w = word.toLowerCase();
  const irregular = IRREGULAR[w];
  if (irregular !== undefined) return irregular;
  if (word.length <= 2) return w;
  return step5b(step5a(step4(step3(step2(step1c(step1b(step1a(w))))))));
}
