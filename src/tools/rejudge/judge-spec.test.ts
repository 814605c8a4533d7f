// `--judge` specs are parsed strictly: a prompt-name typo, an empty model and an empty prompt are refused with
// "did you mean", never read as a model name with the default prompt; model names with colons still parse.
import { describe, expect, it } from 'vitest';
import { InputError } from '../../core/errors.ts';
import { parseJudgeSpec } from './judge-spec.ts';

describe('parseJudgeSpec', () => {
  it('keeps colons in model names and reads a known prompt last', () => {
    expect(parseJudgeSpec('b:llama3:8b')).toEqual({ id: 'b', model: 'llama3:8b' });
    expect(parseJudgeSpec('c:qwen2.5:7b:strict')).toEqual({ id: 'c', model: 'qwen2.5:7b', prompt: 'strict' });
    expect(parseJudgeSpec('zh:通义千问:locomo')).toEqual({
      id: 'zh',
      model: '通义千问',
      prompt: 'locomo',
    });
  });

  it.each([
    ['x:gpt-4o-2024-08-06:strcit', /"strcit" is not a judge prompt; did you mean "x:gpt-4o-2024-08-06:strict"\?/],
    ['x:gpt-4o-2024-08-06:Strict', /"Strict" is not a judge prompt; did you mean "x:gpt-4o-2024-08-06:strict"\?/],
    ['x:gpt-4o:longmemevl', /did you mean "x:gpt-4o:longmemeval"\?/],
    ['x::strict', /the model is empty; did you mean "x:gpt-4o-2024-08-06:strict"\?/],
    ['x:gpt-4o:', /the prompt after the last colon is empty; did you mean "x:gpt-4o"\?/],
    ['x::llama3:8b', /the model "[^"]*" has an empty part; did you mean "x:llama3:8b"\?/],
    ['x:', /the model is empty; did you mean/],
    [':gpt-4o', /no judge id before the first colon; did you mean "judge:gpt-4o"\?/],
  ])('refuses %s with did you mean', (spec, message) => {
    let err: unknown;
    try {
      parseJudgeSpec(spec);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InputError);
    expect((err as Error).message).toMatch(/^--judge: /);
    expect((err as Error).message).toMatch(message);
  });
});
