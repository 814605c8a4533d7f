// The wink SIF embedder on the real package vectors (converted once into the shared cache dir), and the binary
// cache format on a tiny hand-made vectors file.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { embedders } from './registry.ts';
import { createWinkSifEmbedder, LazyWinkSifEmbedder, WINK_SIF_ID, WINK_SIF_V1_ID } from './wink-sif.ts';
import { HASH_BUCKETS } from './hashed-tokens.ts';
import { convertWinkJson, loadWinkVectors, readWordVectors } from './wink-vectors.ts';

const dot = (a: Float32Array, b: Float32Array): number => a.reduce((s, x, i) => s + x * b[i]!, 0);

describe('wink binary cache format', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wink-fmt-'));
  const json = join(dir, 'tiny.json');
  writeFileSync(
    json,
    JSON.stringify({
      precision: 8,
      l2NormIndex: 2,
      wordIndex: 3,
      size: 3,
      dimensions: 2,
      words: ['the', 'café', '猫'],
      vectors: { the: [1, 0, 1, 0], café: [0.5, -0.25, 0.559, 1], 猫: [0, 2, 2, 2] },
      unkVector: [0, 0, -1],
    }),
  );
  const bin = join(dir, 'tiny.bin');
  convertWinkJson(json, bin);

  it('round-trips words, rows and vectors', () => {
    const v = readWordVectors(bin);
    expect([v.size, v.dim]).toEqual([3, 2]);
    expect(v.lookup('café')).toBe(1);
    expect(v.lookup('x猫y', 1, 2)).toBe(2);
    expect(v.lookup('cafe')).toBe(-1);
    expect(v.word(1)).toBe('café');
    expect([...v.vector(1)]).toEqual([0.5, -0.25]);
  });

  it('rejects a truncated file', () => {
    const cut = join(dir, 'cut.bin');
    writeFileSync(cut, readFileSync(bin).subarray(0, 40));
    expect(() => readWordVectors(cut)).toThrow(/truncated/);
  });

  it('rejects vectors whose word index disagrees with the word list', () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ size: 1, dimensions: 1, words: ['a'], vectors: { a: [1, 1, 7] } }));
    expect(() => convertWinkJson(bad, join(dir, 'bad.bin'))).toThrow(/not at index 0/);
  });
});

describe('wink-sif on the real package', () => {
  // Shared cache dir (ADAPTMR_CACHE_DIR or <repo>/.cache): the slow JSON conversion runs once per machine.
  const sif = createWinkSifEmbedder();

  it('loads the real vectors: frequency order and the package norms', () => {
    const words = loadWinkVectors();
    expect(words.size).toBe(341479);
    expect(words.lookup('the')).toBe(0);
    // The package stores each vector's l2 norm; 'the' has 5.821154.
    expect(Math.hypot(...words.vector(0))).toBeCloseTo(5.821154, 5);
  });

  it('puts cat nearer dog than car', () => {
    const [cat, dog, car] = ['cat', 'dog', 'car'].map((w) => sif.embedOne(w));
    expect(dot(cat!, dog!)).toBeGreaterThan(dot(cat!, car!));
  });

  it('sentences: paraphrases are closer than unrelated sentences; vectors are unit length', async () => {
    const [a, b, c] = await sif.embed([
      'The cat rested on the carpet.',
      'The kitten slept on the rug.',
      'Quarterly revenue grew in the banking sector.',
    ]);
    expect(dot(a!, a!)).toBeCloseTo(1, 5);
    expect(dot(a!, b!)).toBeGreaterThan(dot(a!, c!));
  });

  it('v1 (hashUnknown: false) skips unknown words; Chinese and punctuation-only texts embed to zero, counted and warned once', () => {
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    const v1 = createWinkSifEmbedder({ hashUnknown: false });
    expect(v1.id).toBe(WINK_SIF_V1_ID);
    expect([...v1.embedOne('qqzxv zzkkq !!!')].every((x) => x === 0)).toBe(true);
    expect([...v1.embedOne('我养了一只猫')].every((x) => x === 0)).toBe(true);
    expect(v1.embedOne('cat qqzxv')).toEqual(v1.embedOne('CAT'));
    expect(v1.unrepresented).toBe(2);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]![0])).toMatch(/zero vector/);
    warn.mockRestore();
  });

  it('v2 hashes unknown words and Chinese: an exact unknown name or Chinese word matches, nothing is silently zero', () => {
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    const e = createWinkSifEmbedder();
    const [q, hit, miss] = [
      'Shuxiangqing',
      'Try Shuxiangqing, a Sichuan restaurant.',
      'Try Tsurumi, a Japanese restaurant.',
    ].map((t) => e.embedOne(t));
    expect(dot(q!, hit!)).toBeGreaterThan(dot(q!, miss!) + 0.2);
    const [cat, catMemory, move] = ['我的猫叫什么名字？', '我养了一只叫小白的猫', '我搬到杭州西湖区了'].map((t) =>
      e.embedOne(t),
    );
    expect(Math.hypot(...cat!)).toBeCloseTo(1, 5);
    expect(dot(cat!, catMemory!)).toBeGreaterThan(dot(cat!, move!) + 0.1);
    const [live, moved, run] = ['我现在住在哪个城市？杭州还是北京？', '我搬到杭州西湖区了', '我最近开始跑步了'].map(
      (t) => e.embedOne(t),
    );
    expect(dot(live!, moved!)).toBeGreaterThan(dot(live!, run!));
    // English texts of known words only keep their v1 vector in the first 100 dimensions, the hashed ones are 0.
    const v2 = e.embedOne('The kitten slept on the rug.');
    expect(v2.length).toBe(100 + HASH_BUCKETS);
    expect(v2.subarray(0, 100)).toEqual(
      createWinkSifEmbedder({ hashUnknown: false }).embedOne('The kitten slept on the rug.'),
    );
    expect(v2.subarray(100).every((x) => x === 0)).toBe(true);
    expect([...e.embedOne('!!! ...')].every((x) => x === 0)).toBe(true);
    expect(e.unrepresented).toBe(1);
    expect(warn).toHaveBeenCalledTimes(1);
    warn.mockRestore();
  });

  it("a text's vector does not depend on the texts embedded before it (hashed buckets included)", () => {
    const texts = [
      'Try Shuxiangqing, a Sichuan restaurant.',
      '我搬到杭州西湖区了',
      'Shuxiangqing again: Shuxiangqing!',
      'The kitten slept on the rug.',
      '我现在住在杭州',
    ];
    const fresh = texts.map((t) => createWinkSifEmbedder().embedOne(t));
    const e = createWinkSifEmbedder();
    for (let round = 0; round < 2; round++)
      texts.forEach((t, i) => expect(e.embedOne(t), `${round}: ${t}`).toEqual(fresh[i]));
  });

  it('ids name the settings; common-component removal changes the id and the vectors', () => {
    expect(sif.id).toBe(WINK_SIF_ID);
    expect(createWinkSifEmbedder({ a: 1e-4 }).id).toBe(`${WINK_SIF_ID}(a=0.0001)`);
    const fitted = sif.withCommonComponentRemoved(['I like cats', 'the dog barked', 'we bought a car', 'it rained']);
    expect(fitted.id).toMatch(new RegExp(`^${WINK_SIF_ID}\\+pc1:[0-9a-f]{12}$`));
    const v = fitted.embedOne('I like dogs');
    expect(dot(v, v)).toBeCloseTo(1, 5);
    expect(dot(v, sif.embedOne('I like dogs'))).toBeLessThan(0.9999);
  });

  it('the lazy embedder loads nothing until its first embed, then matches the eager one exactly', async () => {
    const lazy = new LazyWinkSifEmbedder({ a: 1e-4 });
    expect(lazy.loaded).toBe(false);
    expect(lazy.id).toBe(createWinkSifEmbedder({ a: 1e-4 }).id);
    expect(lazy.dim).toBe(100 + HASH_BUCKETS);
    const texts = ['The kitten slept on the rug.', 'we bought a car'];
    expect(await lazy.embed(texts)).toEqual(await createWinkSifEmbedder({ a: 1e-4 }).embed(texts));
    expect(lazy.loaded).toBe(true);
  });

  it('is in the embedders registry with strict options', async () => {
    const e = await embedders.create('wink-sif', {}, {});
    expect(e.id).toBe(WINK_SIF_ID);
    expect(e.dim).toBe(100 + HASH_BUCKETS);
    expect((await embedders.create('wink-sif', { hashUnknown: false }, {})).dim).toBe(100);
    expect(() => embedders.parseOptions('wink-sif', { alpha: 1 })).toThrow(/alpha/);
    expect(() => embedders.get('wink-sfi')).toThrow(/Did you mean "wink-sif"/);
  });
});
