// ReasoningBank's reply readers and formatters, Chinese included.
import { describe, expect, it } from 'vitest';
import {
  extractSuccessPrompt,
  formatMemoriesForPrompt,
  formatMergeMemories,
  formatTrajectory,
  mergePrompt,
  parseExtraction,
  parseMerge,
} from './prompts.ts';

describe('reasoningbank prompts', () => {
  it('formats a session as the source formats a trajectory and fills the Chinese extraction prompt', () => {
    const t = formatTrajectory([
      { role: 'user', content: '我想学大提琴' },
      { role: 'assistant', content: '好的' },
      { role: 'Caroline', content: 'hi' },
    ]);
    expect(t).toBe('步骤 1 [User]: 我想学大提琴\n步骤 2 [Assistant]: 好的\n步骤 3 [Caroline]: hi');
    const p = extractSuccessPrompt('学习乐器', t);
    expect(p).toContain('**任务查询：**\n学习乐器');
    expect(p).toContain('**成功的轨迹：**\n步骤 1 [User]');
    expect(formatTrajectory([])).toBe('（空轨迹）');
  });

  it('reads memory items from a fenced JSON reply, skipping incomplete items; prose is no items', () => {
    const reply =
      '好的：\n```json\n{"memories": [{"title": "坚持练习", "description": "学习乐器时", "content": "每天练习三十分钟"}, {"title": "缺内容"}]}\n```';
    expect(parseExtraction(reply)).toEqual({
      ok: true,
      items: [{ title: '坚持练习', description: '学习乐器时', content: '每天练习三十分钟' }],
    });
    expect(parseExtraction('我无法提取')).toEqual({ ok: false, items: [] });
  });

  it('reads a merge reply with its required fields, defaulting the query as the source does', () => {
    expect(parseMerge('{"title": "通用", "description": "d", "content": "c", "abstraction_level": 1}')).toEqual({
      title: '通用',
      description: 'd',
      content: 'c',
      query: '<通用场景>',
    });
    expect(parseMerge('{"title": "通用", "content": "c"}')).toBeUndefined();
    const text = formatMergeMemories([{ title: 'a', description: 'b', content: 'c', query: 'q' }]);
    expect(text).toBe('\n### 经验 1\n**标题**: a\n**描述**: b\n**内容**: c\n**原始场景**: q\n');
    expect(mergePrompt(3, text)).toContain('以下是 3 条相似的经验');
  });

  it('renders retrieved items as the source does, with dates', () => {
    expect(formatMemoriesForPrompt([{ title: 'T', content: 'C', success: true, date: '2023/05/30 (Tue) 10:00' }])).toBe(
      '以下是我从过去与环境的交互中积累的一些记忆项，可能有助于解决任务。当您觉得它们相关时可以使用它们。\n\n**记忆 1 [✓ 成功经验] - T** (2023/05/30 (Tue) 10:00)\nC',
    );
  });
});
