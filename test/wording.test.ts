/**
 * Words that match the statistics (docs/statistics.md "Choices and tie rules"): the one upper bound of routing is the
 * per-question ceiling. The oracle strategy chosen on one half is a held-out estimate a single strategy can beat, and
 * gold-type routing is a reference that saw gold; neither bounds anything. So "upper bound" may appear in the
 * repository's text (code, tests, docs, README, experiment files, notebooks) only next to "ceiling"; identifiers
 * (`upperBound`, `upper_bound`, the contract name `oracle-upper-bound`) are not prose and are not matched.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sourcesUnder } from './source-files.ts';

const ROOT = join(import.meta.dirname, '..');
const DIRS = [
  'src',
  'docs',
  'experiments',
  'notebooks',
  'baselines',
  'benchmarks',
  'scripts',
  'examples',
  'test',
  'calibration',
];
const TEXT = /\.(ts|md|ya?ml|ipynb|mjs|py|json|cff)$/;
/** Characters either side of an "upper bound" that must hold "ceiling" (one sentence or table cell, roughly). */
const WINDOW = 120;
const SELF = 'test/wording.test.ts';
/** Upstream files copied byte for byte (their README gives source and sha256): not this project's prose. */
const VENDORED = /^src\/tools\/bundle\/schemas\//;

/** Each "upper bound" of `text` with no "ceiling" within WINDOW characters: `line: excerpt`. */
export function unboundedUpperBounds(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/upper\s+bounds?\b/gi)) {
    const around = text.slice(Math.max(0, m.index - WINDOW), m.index + m[0].length + WINDOW);
    // The per-question ceiling, or a confidence interval's bound (vendored schemas describe CI columns so).
    if (/ceiling|confidence/i.test(around)) continue;
    const line = text.slice(0, m.index).split('\n').length;
    out.push(`${line}: ${text.slice(Math.max(0, m.index - 40), m.index + 40).replace(/\s+/g, ' ')}`);
  }
  return out;
}

describe('"upper bound" only for the per-question ceiling', () => {
  it('the rule itself: flags a bare "upper bound", accepts one next to the ceiling', () => {
    expect(unboundedUpperBounds('the oracle (an upper bound) routes by gold')).toHaveLength(1);
    expect(unboundedUpperBounds('oracle\n * upper   bounds everything')).toHaveLength(1);
    expect(unboundedUpperBounds('the per-question ceiling, the upper bound of any routing')).toEqual([]);
    expect(unboundedUpperBounds('upperBound: true, upper_bound, exp2-oracle-upper-bound.yaml')).toEqual([]);
    expect(unboundedUpperBounds('"description": "Upper bound of the confidence interval"')).toEqual([]);
  });

  it('holds in every text file of the repository and the README', () => {
    const files = sourcesUnder(ROOT, DIRS, TEXT);
    files.delete(SELF);
    for (const path of [...files.keys()]) if (VENDORED.test(path)) files.delete(path);
    for (const f of ['README.md', 'CONTRIBUTING.md', 'CITATION.cff']) files.set(f, readFileSync(join(ROOT, f), 'utf8'));
    expect(files.size).toBeGreaterThan(500);
    const found = [...files].flatMap(([path, text]) => unboundedUpperBounds(text).map((x) => `${path}:${x}`));
    expect(found).toEqual([]);
  });
});
