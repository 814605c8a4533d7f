// The estimate's made-up replies and output bounds: a JSON schema without free text bounds the reply (the LoCoMo
// judge's label, the classifier's type and probabilities); one with free text does not; the smallest instance of a
// schema is valid for it.
import { describe, expect, it } from 'vitest';
import { REPLY_JSON_SCHEMA } from '../classify/llm/probabilities.ts';
import { LOCOMO_JUDGE_SCHEMA } from '../eval/qa/judge-locomo.ts';
import { schemaBoundTokens, schemaExample } from './dry-run.ts';
import { countTokens } from './tokens.ts';

describe('dry-run replies', () => {
  it('bound a reply by its schema only when the schema has no free text', () => {
    // {"label": "CORRECT"} pretty-printed with a one-space indent, plus 2.
    expect(schemaBoundTokens(LOCOMO_JUDGE_SCHEMA)).toBe(countTokens(JSON.stringify({ label: 'CORRECT' }, null, 1)) + 2);
    const classifier = schemaBoundTokens(REPLY_JSON_SCHEMA)!;
    expect(classifier).toBeGreaterThan(30);
    expect(classifier).toBeLessThan(120); // under the classifier's own limit, so the bound is the tighter figure
    expect(
      schemaBoundTokens({ type: 'object', properties: { entities: { type: 'array', items: { type: 'string' } } } }),
    ).toBeUndefined();
    expect(schemaBoundTokens({ type: 'string' })).toBeUndefined();
  });

  it('make the smallest valid instance of a schema (required fields, first enum value, 中文 enums kept)', () => {
    expect(schemaExample(LOCOMO_JUDGE_SCHEMA)).toEqual({ label: 'CORRECT' });
    expect(
      schemaExample({
        type: 'object',
        required: ['a', 'b'],
        properties: {
          a: { type: 'array', minItems: 1, items: { type: 'string', enum: ['是', '否'] } },
          b: { type: 'integer', minimum: 2 },
          c: { type: 'string' },
        },
      }),
    ).toEqual({ a: ['是'], b: 2 });
  });
});
