// rago's extraction reply reader and context format, Chinese included.
import { describe, expect, it } from 'vitest';
import { formatMemories, parseSummary, summaryPrompt } from './prompts.ts';

describe('rago prompts', () => {
  it('fills the spec summary prompt', () => {
    const p = summaryPrompt('Conversation on 2023/05/30 (Tue) 10:00', '[user] I adopted a cat.');
    expect(p).toContain('Task Goal: Conversation on 2023/05/30 (Tue) 10:00\n\nTask Result: [user] I adopted a cat.');
    expect(p).toContain('Return JSON with: should_store (boolean), reasoning, and memories array.');
  });

  it('reads typed memories, clamps importance, skips unknown types; should_store false or prose stores nothing', () => {
    const reply =
      '```json\n{"should_store": true, "reasoning": "有用", "memories": [{"type": "preference", "content": "用户喜欢猫", "importance": 1.4, "tags": ["猫"]}, {"type": "mood", "content": "x", "importance": 0.2}, {"type": "fact", "content": "The user lives in Hangzhou", "importance": 0.9}]}\n```';
    expect(parseSummary(reply)).toEqual({
      ok: true,
      skipped: 1,
      memories: [
        { type: 'preference', content: '用户喜欢猫', importance: 1 },
        { type: 'fact', content: 'The user lives in Hangzhou', importance: 0.9 },
      ],
    });
    expect(
      parseSummary('{"should_store": false, "memories": [{"type": "fact", "content": "x", "importance": 1}]}'),
    ).toEqual({ ok: true, skipped: 0, memories: [] });
    expect(parseSummary('nothing worth storing')).toEqual({ ok: false, skipped: 0, memories: [] });
  });

  it('renders "[i] [type] (score: x.xx)" blocks with dates', () => {
    expect(
      formatMemories([{ type: 'fact', score: 0.8349, content: '用户住在杭州', date: '2023/04/20 (Thu) 10:00' }]),
    ).toBe('## Relevant Memory\n\n[1] [fact] (score: 0.83) [2023/04/20 (Thu) 10:00]\n用户住在杭州');
  });
});
