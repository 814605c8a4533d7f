// Upstream's chat-shortening rule (mohammadtavakoli78/BEAM@b2a3ee8 src/beam/adjust_chats_length.py
// `count_chats_tokens`) on hand-made batches with a hand count (tokens = characters of the turn's contents), and the
// Qwen 2.5 template text of a turn. The real count and the real chats: truncation-real.test.ts.
import { describe, expect, it } from 'vitest';
import { qwenTurnText, truncateChat } from './truncation.ts';

const turn = (user: string, reply: string) => [
  { role: 'user', content: user },
  { role: 'assistant', content: reply },
];
const chars = (t: readonly { content: string }[]) => t.reduce((n, m) => n + m.content.length, 0);
// Turn sizes 10, 10 | 10, 20 | 10: running totals 10, 20, 30, 50, 60.
const batches = [
  { batch_number: 1, time_anchor: 'March-01-2024', turns: [turn('aaaaa', 'bbbbb'), turn('ccccc', 'ddddd')] },
  {
    batch_number: 2,
    time_anchor: 'March-09-2024',
    turns: [turn('eeeee', 'fffff'), turn('g'.repeat(10), 'h'.repeat(10))],
  },
  { batch_number: 3, time_anchor: 'March-20-2024', turns: [turn('iiiii', 'jjjjj')] },
];

describe("upstream's truncation rule", () => {
  it('keeps turns until the running total passes the limit; the cut batch keeps its earlier turns', () => {
    const cut = truncateChat(batches, 45, chars);
    // 10 + 10 + 10 = 30 ≤ 45; + 20 = 50 > 45: batch 2 keeps its first turn, batch 3 is gone.
    expect(cut.kept).toBe(6);
    expect(cut.total).toBe(10);
    expect(cut.batches.map((b) => [b.batch_number, b.turns.length])).toEqual([
      [1, 2],
      [2, 1],
    ]);
    expect(cut.batches[1]!.time_anchor).toBe('March-09-2024');
  });

  it('drops a batch whose first turn already passes; a total equal to the limit is kept', () => {
    const cut = truncateChat(batches, 20, chars);
    expect(cut.batches.map((b) => b.batch_number)).toEqual([1]);
    expect(cut.kept).toBe(4);
    expect(truncateChat(batches, 60, chars)).toEqual({ batches, kept: 10, total: 10 });
  });

  it("renders a turn as Qwen 2.5's chat template does with no system message", () => {
    expect(qwenTurnText(turn('Hi', '你好'))).toBe(
      '<|im_start|>system\nYou are Qwen, created by Alibaba Cloud. You are a helpful assistant.<|im_end|>\n' +
        '<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n你好<|im_end|>\n',
    );
  });
});
