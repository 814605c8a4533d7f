// termIdsOfSpaceSplit reads the official whitespace tokens off the texts without splitting them: it must give the
// ids `text.split(' ')` interned in order gives (same pieces, same first-occurrence numbering, empty pieces and
// non-ASCII included), and BM25 built on it must score bit-identically to BM25 built on the split arrays.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Bm25 } from './bm25.ts';
import { termIdsOfSpaceSplit, termIdsOfTokens, type TermIdStream } from './vocabulary.ts';

function idsOf(stream: TermIdStream): number[][] {
  const out: number[][] = [];
  for (let d = 0; d < stream.count; d++) {
    const { ids, length } = stream.termIds(d);
    out.push([...ids.subarray(0, length)]);
  }
  return out;
}

const piece = fc.constantFrom(
  'a',
  'A',
  'b',
  ' ',
  '  ',
  'the',
  'The',
  'cat',
  "cat's",
  '猫',
  '我的',
  'é',
  'e\u0301',
  '😀',
  '\ud83d',
  '\t',
  '\n',
  '',
  '-',
  'x y',
);
const text = fc.string({ unit: piece, maxLength: 30 });

describe('termIdsOfSpaceSplit', () => {
  it("numbers the pieces of split(' ') as interning them in order does, on any texts", () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(text, fc.string({ unit: 'binary', maxLength: 20 })), { minLength: 1, maxLength: 8 }),
        (texts) => {
          const split = texts.map((t) => t.split(' '));
          const fromArrays = termIdsOfTokens(split.length, (d) => split[d]!);
          const scanned = termIdsOfSpaceSplit(texts);
          expect(idsOf(scanned)).toEqual(idsOf(fromArrays));
          expect(scanned.vocabulary.size).toBe(fromArrays.vocabulary.size);
          for (const token of new Set(split.flat()))
            expect(scanned.vocabulary.id(token)).toBe(fromArrays.vocabulary.id(token));
          expect(scanned.vocabulary.id('never-a-token\u0000')).toBeUndefined();
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('gives BM25 the same scores as the split arrays, past the first table and buffer sizes', () => {
    // > 4,096 distinct tokens (the table's first size) and documents longer than the 1,024-id buffer.
    const texts = Array.from({ length: 40 }, (_, d) =>
      Array.from({ length: 1500 }, (_, i) => `w${((d * 131 + i * 7) % 6000).toString(36)}`).join(i2s(d)),
    );
    const fromArrays = new Bm25(texts.map((t) => t.split(' ')));
    const scanned = new Bm25(termIdsOfSpaceSplit(texts));
    for (const query of [['w0', 'w1', 'w0'], ['', 'wzz', 'w5k'], texts[3]!.split(' ').slice(0, 50)]) {
      expect([...scanned.scores(query)]).toEqual([...fromArrays.scores(query)]);
    }
    expect(scanned.averageIdf).toBe(fromArrays.averageIdf);
  });
});

/** One or two spaces between words, so some documents have empty tokens. */
function i2s(d: number): string {
  return d % 3 === 0 ? '  ' : ' ';
}
