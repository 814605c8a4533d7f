// parseJsonBytes must give exactly what JSON.parse of the UTF-8 text gives: any values, any script, escaped or not.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { parseJsonBytes } from './json-decode.ts';
import { longMemEvalFiles } from '../../test/data-path.ts';

const reference = (bytes: Buffer): unknown => JSON.parse(bytes.toString('utf8'));
/** JSON text with every non-ASCII character written as a \\uXXXX escape (Python's ensure_ascii=True). */
const asciiOnly = (v: unknown): string =>
  JSON.stringify(v).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

describe('parseJsonBytes', () => {
  it('equals JSON.parse of the UTF-8 text for any value, raw or escaped non-ASCII', () => {
    fc.assert(
      fc.property(
        fc.jsonValue({ stringUnit: 'grapheme' }),
        fc.boolean(),
        fc.string({ unit: 'grapheme' }),
        (value, escapeAll, extra) => {
          const mixed = { value, extra, 'clé ключ 键': extra };
          const text = escapeAll ? asciiOnly(mixed) : JSON.stringify(mixed);
          const bytes = Buffer.from(text, 'utf8');
          expect(parseJsonBytes(bytes)).toEqual(reference(bytes));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('keeps an own "__proto__" key in an object whose keys are re-decoded (found by the property above)', () => {
    const bytes = Buffer.from('{"value": {"é": 1, "__proto__": false, "键": [1]}}', 'utf8');
    const parsed = parseJsonBytes(bytes) as { value: Record<string, unknown> };
    expect(Object.keys(parsed.value)).toEqual(['é', '__proto__', '键']);
    expect(parsed).toEqual(reference(bytes));
  });

  it('handles mixed raw and escaped characters, Chinese and emoji', () => {
    const text = '{"a": "é \\u00e9 我 \\u6211 😀 \\ud83d\\ude00", "b": ["\\u0041", "ü"], "ñ": 1}';
    const bytes = Buffer.from(text, 'utf8');
    expect(parseJsonBytes(bytes)).toEqual(reference(bytes));
    expect(parseJsonBytes(Buffer.from('["naïve", {"k": "日本"}]'))).toEqual(['naïve', { k: '日本' }]);
  });

  it('reads the real LongMemEval S files exactly', async () => {
    for (const f of (await longMemEvalFiles('longmemeval-s')).slice(0, 8)) {
      const bytes = gunzipSync(readFileSync(f));
      expect(parseJsonBytes(bytes)).toEqual(reference(bytes));
    }
  });

  it('throws on malformed JSON', () => {
    expect(() => parseJsonBytes(Buffer.from('{"a": "é'))).toThrow(SyntaxError);
  });
});
