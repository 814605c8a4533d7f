/**
 * The head reader used by the folder catalog: it must return the same id/type as a full parse, and give up
 * (undefined) rather than guess when the file is not a flat object with those keys.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { headFields, readJsonHead } from './json-head.ts';
import { longMemEvalFiles } from '../../test/data-path.ts';

const dir = mkdtempSync(join(tmpdir(), 'adaptmr-head-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const KEYS = ['question_id', 'question_type'];

describe('readJsonHead', () => {
  it('reads id and type from a real gzipped S file, equal to a full parse', async () => {
    const file = (await longMemEvalFiles('longmemeval-s')).at(-1)!;
    const full = JSON.parse(gunzipSync(readFileSync(file)).toString('utf8')) as Record<string, unknown>;
    expect(await readJsonHead(file, KEYS)).toEqual({
      question_id: full.question_id,
      question_type: full.question_type,
    });
  });

  it('gives up on arrays, nested values, missing keys and malformed files', async () => {
    const cases: Record<string, string> = {
      'array.json': '[{"question_id": "a", "question_type": "x"}]',
      'nested.json': '{"question_id": {"x": 1}, "question_type": "t"}',
      'missing.json': '{"question_id": "a", "other": [1, 2, {"question_type": "inner"}]}',
      'broken.json': '{"question_id": "a", "question_type": ',
    };
    for (const [name, text] of Object.entries(cases)) {
      writeFileSync(join(dir, name), text);
      expect(await readJsonHead(join(dir, name), KEYS), name).toBeUndefined();
    }
  });

  it('ignores keys of nested objects and reads plain and gzipped files alike', async () => {
    const text =
      '{"meta": {"question_id": "wrong"}, "question_type": "multi-session", "n": 3, "question_id": "right_abs"}';
    writeFileSync(join(dir, 'ok.json'), text);
    writeFileSync(join(dir, 'ok.json.gz'), gzipSync(text));
    const want = { question_id: 'right_abs', question_type: 'multi-session' };
    expect(await readJsonHead(join(dir, 'ok.json'), KEYS)).toEqual(want);
    expect(await readJsonHead(join(dir, 'ok.json.gz'), KEYS)).toEqual(want);
  });

  it('headFields agrees with a full parse on any object', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string({ unit: 'grapheme' }), fc.jsonValue({ stringUnit: 'grapheme' }), { maxKeys: 6 }),
        fc.jsonValue(),
        fc.jsonValue(),
        (rest, id, type) => {
          const obj = { ...rest, question_id: id, question_type: type };
          const text = JSON.stringify(obj, null, 1);
          const head = headFields(Buffer.from(text, 'utf8'), KEYS);
          const parsed = JSON.parse(text) as Record<string, unknown>;
          const scalars = KEYS.every((k) => parsed[k] === null || typeof parsed[k] !== 'object');
          if (scalars) expect(head).toEqual({ question_id: parsed.question_id, question_type: parsed.question_type });
          else expect(head).toBeUndefined();
        },
      ),
      { numRuns: 300 },
    );
  });
});
