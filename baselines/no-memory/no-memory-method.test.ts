// The no-memory control: no unit, an empty context, whatever the haystack (English or Chinese); the reader then gets
// LongMemEval's prompt with an empty history and the question.
import { describe, expect, it } from 'vitest';
import { readerContext, readerPrompt } from '../../src/eval/qa/reader.ts';
import { createNoMemoryMethod, noMemoryEntry } from './no-memory-method.ts';

describe('no-memory', () => {
  it('returns no units and no context, and does not rank', async () => {
    const m = createNoMemoryMethod();
    expect(m.capabilities).toEqual({ output: 'units', ranks: false });
    const query = { id: 'q1', text: '我的猫叫什么名字？', askedAt: '2024-04-12T14:00:00Z' };
    const out = await m.run(query, undefined as never, { seed: 1, calls: [] });
    expect(out.retrieval).toEqual({ units: [], noMemory: false, context: '' });
    expect(readerContext(out.retrieval, {})).toBe('');
    const prompt = readerPrompt(query, readerContext(out.retrieval, {}), false);
    expect(prompt).toContain('我的猫叫什么名字？');
    expect(prompt).not.toContain('Session');
  });

  it('takes no options', () => {
    expect(noMemoryEntry.optionsSchema.safeParse({ k: 3 }).success).toBe(false);
  });
});
