// Feature hashing contract: FNV-1a reference values, n-gram strings, L2 normalisation.
import { describe, expect, it } from 'vitest';
import { DEFAULT_FEATURE_SPEC, denseFeatures, featureStrings, fnv1a32, wordTokens, normaliseText } from './features.ts';

describe('hashed features', () => {
  it('FNV-1a 32 matches the published test vectors', () => {
    // From the FNV reference test suite (Landon Curt Noll, isthe.com/chongo/tech/comp/fnv): "" and "a", "foobar".
    expect(fnv1a32('')).toBe(0x811c9dc5);
    expect(fnv1a32('a')).toBe(0xe40c292c);
    expect(fnv1a32('foobar')).toBe(0xbf9cf968);
  });

  it('tokenises words and Han characters, and builds the documented n-gram strings', () => {
    expect(wordTokens(normaliseText('  When  did I  GO? '))).toEqual(['when', 'did', 'i', 'go']);
    expect(wordTokens('我的猫 cat')).toEqual(['我', '的', '猫', 'cat']);
    const f = featureStrings('Hi you', { ...DEFAULT_FEATURE_SPEC, wordNgrams: [1, 2], charNgrams: [3, 3] });
    expect(f).toEqual(['w:hi', 'w:you', 'w:hi you', 'c: hi', 'c:hi ', 'c:i y', 'c: yo', 'c:you', 'c:ou ']);
  });

  it('rows are binary then L2-normalised', () => {
    const spec = { ...DEFAULT_FEATURE_SPEC, dim: 1 << 12 };
    const x = denseFeatures(['how many books did I read?', ''], spec);
    const row = x.subarray(0, spec.dim);
    const nz = [...row].filter((v) => v !== 0);
    expect(nz.length).toBeGreaterThan(10);
    expect(Math.hypot(...row)).toBeCloseTo(1, 6);
    expect(new Set(nz).size).toBe(1);
    expect([...x.subarray(spec.dim)].every((v) => v === 0)).toBe(true);
  });
});
