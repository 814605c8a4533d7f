// Answer words as the LoCoMo audit counts them (whitespace), Chinese by word segmentation, and the token buckets.
import { describe, expect, it } from 'vitest';
import { answerWords, lengthBucket } from './answer-length.ts';

describe('answer length', () => {
  it('counts whitespace words, and the words of a CJK chunk by segmentation', () => {
    expect(answerWords('The Saturday before 25 May 2023')).toBe(6);
    expect(answerWords('  7 May,   2023 ')).toBe(3);
    expect(answerWords('')).toBe(0);
    // 我喜欢打篮球 = 我 / 喜欢 / 打 / 篮球 (ICU's dictionary segmentation), punctuation not a word
    expect(answerWords('我喜欢打篮球。')).toBe(4);
    expect(answerWords('他说 OK')).toBe(3);
  });

  it('puts token counts in buckets', () => {
    expect([0, 1, 5, 6, 10, 11, 20, 21, 50, 51, 20000].map(lengthBucket)).toEqual([
      'empty',
      '1–5',
      '1–5',
      '6–10',
      '6–10',
      '11–20',
      '11–20',
      '21–50',
      '21–50',
      '51+',
      '51+',
    ]);
  });
});
