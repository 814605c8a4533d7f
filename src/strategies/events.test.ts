// Offline event splitting for "which came first" questions (English and Chinese).
import { describe, expect, it } from 'vitest';
import { splitEvents } from './events.ts';

describe('splitEvents', () => {
  it.each([
    ['Which did I do first, attend the yoga class or buy the new bike?', ['attend the yoga class', 'buy the new bike']],
    [
      'How many days passed between the day I bought the tickets and the day I went to the concert?',
      ['bought the tickets', 'went to the concert'],
    ],
    ['Did I start running before I moved to Hangzhou?', ['start running', 'moved to Hangzhou']],
    ['我是先开始跑步还是先搬到杭州的？', ['开始跑步', '搬到杭州']],
    ['What did I eat last week?', []],
  ])('%s', (q, events) => expect(splitEvents(q)).toEqual(events));
});
