// Eliding unread turn text (json-elide.ts) must give what the full parse gives with that text emptied, and reject
// every input the full parse rejects: a raw control character, a bad escape or an unterminated string inside an
// elided string included, at any byte alignment (the control-character check reads 4-byte words).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseJsonBytes } from './json-decode.ts';
import { elideTurnContent } from './json-elide.ts';

const ELIDE = { elideContentOfRole: 'assistant' };

/** Content pieces: escapes JSON.stringify writes, quotes, backslashes, non-ASCII, the key and value texts themselves. */
const piece = fc.constantFrom(
  'a',
  ' ',
  'é',
  '猫',
  '😀',
  '"',
  '\\',
  '\n',
  '\t',
  '\u0001',
  '\u001f',
  '/',
  '"role": "assistant", "content": "',
  'assistant',
  '\\u00e9',
  '\u2028',
  'x'.repeat(37),
);
const turn = fc.record({
  role: fc.constantFrom('user', 'assistant', 'assistant'),
  content: fc.string({ unit: piece, maxLength: 12 }),
  has_answer: fc.option(fc.boolean(), { nil: undefined }),
});
const item = fc.record({
  question_id: fc.string({ unit: piece, maxLength: 3 }),
  haystack_sessions: fc.array(fc.array(turn, { maxLength: 5 }), { maxLength: 4 }),
});

/** The item as written with `indent` and, when `contentFirst`, each turn's content key before its role. */
function write(
  value: {
    question_id: string;
    haystack_sessions: { role: string; content: string; has_answer?: boolean | undefined }[][];
  },
  indent: number,
  contentFirst: boolean,
): Buffer {
  const sessions = value.haystack_sessions.map((s) =>
    s.map((t) => (contentFirst ? { content: t.content, role: t.role, has_answer: t.has_answer } : t)),
  );
  return Buffer.from(JSON.stringify({ ...value, haystack_sessions: sessions }, null, indent));
}

/** What the full parse gives with every assistant turn's content emptied (role written before content). */
function emptied(buf: Buffer): unknown {
  const v = JSON.parse(buf.toString('utf8')) as { haystack_sessions: { role: string; content: string }[][] };
  for (const s of v.haystack_sessions) for (const t of s) if (t.role === 'assistant') t.content = '';
  return v;
}

/** `buf`'s bytes at byte offset `shift` of a fresh ArrayBuffer (the word check's alignment). */
function shifted(buf: Buffer, shift: number): Buffer {
  const out = Buffer.alloc(buf.length + shift);
  buf.copy(out, shift);
  return out.subarray(shift);
}

describe('elideTurnContent', () => {
  it('gives the full parse with assistant text emptied, for any content, indentation and alignment', () => {
    fc.assert(
      fc.property(item, fc.constantFrom(0, 1, 2, 4), fc.integer({ min: 0, max: 3 }), (value, indent, shift) => {
        const buf = shifted(write(value, indent, false), shift);
        expect(parseJsonBytes(buf, ELIDE)).toEqual(emptied(buf));
      }),
      { numRuns: 2000 },
    );
  });

  it('leaves a turn whose content key comes before its role as it is', () => {
    fc.assert(
      fc.property(item, (value) => {
        const buf = write(value, 2, true);
        expect(parseJsonBytes(buf, ELIDE)).toEqual(JSON.parse(buf.toString('utf8')));
      }),
      { numRuns: 300 },
    );
  });

  it('rejects what JSON.parse rejects inside an elided string, at every alignment', () => {
    const bad = [
      'a\u0001b',
      'tab\there',
      'new\nline',
      'x\u001f',
      'bad \\x escape',
      'bad \\u12G4 escape',
      'ends with \\',
    ];
    for (const content of bad) {
      // The bad bytes before, inside and after whole 4-byte words of the string.
      for (let pad = 0; pad < 8; pad++) {
        for (const padded of [
          `${'p'.repeat(pad)}${content}`,
          `${content}${'q'.repeat(pad + 8)}`,
          `${'p'.repeat(pad)}${content}${'q'.repeat(8)}`,
        ]) {
          const text = `{"haystack_sessions": [[{"role": "assistant", "content": "${padded}"}]]}`;
          const buf = Buffer.from(text);
          expect(() => JSON.parse(text), padded).toThrow();
          for (let shift = 0; shift < 4; shift++)
            expect(() => parseJsonBytes(shifted(buf, shift), ELIDE), `${padded} shift ${shift}`).toThrow(SyntaxError);
        }
      }
    }
    // Unterminated: the last string never closes.
    expect(() => parseJsonBytes(Buffer.from('[{"role": "assistant", "content": "abc'), ELIDE)).toThrow(SyntaxError);
  });

  it('reports a syntax error outside the elided strings at its position in the whole input', () => {
    const text = '{"s": [{"role": "assistant", "content": "a long reply, elided"}], "broken": tru}';
    const plain = (() => {
      try {
        parseJsonBytes(Buffer.from(text));
      } catch (err) {
        return (err as Error).message;
      }
    })();
    expect(plain).toMatch(/position|JSON/);
    expect(() => parseJsonBytes(Buffer.from(text), ELIDE)).toThrow(plain!);
  });

  it('returns the input itself when nothing matches, and removes only the string content', () => {
    const none = Buffer.from('[{"role": "user", "content": "hi"}]');
    expect(elideTurnContent(none, 'assistant')).toBe(none);
    const one = Buffer.from(
      '[{"role" :\n "assistant" ,\t"content"\r\n: "hello \\"there\\""}, {"role": "user", "content": "x"}]',
    );
    expect(elideTurnContent(one, 'assistant').toString()).toBe(
      '[{"role" :\n "assistant" ,\t"content"\r\n: ""}, {"role": "user", "content": "x"}]',
    );
  });
});
