// Units at each granularity on a tiny hand-made haystack: ids, texts, roles filter, captions, speaker prefix.
import { describe, expect, it } from 'vitest';
import type { IndexSpec } from '../core/interfaces.ts';
import type { Session, Turn } from '../core/types.ts';
import { buildUnits } from './units.ts';

const AT1 = '2023-05-01T10:00:00Z';
const AT2 = '2023-05-02T10:00:00Z';
function turn(
  sessionId: string,
  index: number,
  role: Turn['role'],
  text: string,
  extra: Partial<Turn> & { caption?: string } = {},
): Turn {
  return {
    id: `${sessionId}#${index + 1}`,
    sessionId,
    index,
    role,
    text,
    at: sessionId === 's1' ? AT1 : AT2,
    ...extra,
  };
}

const haystack: Session[] = [
  {
    id: 's1',
    at: AT1,
    turns: [
      turn('s1', 0, 'assistant', 'Welcome back!'),
      turn('s1', 1, 'user', 'I adopted a cat.', { speaker: 'Caroline' }),
      turn('s1', 2, 'assistant', 'Congratulations!'),
      turn('s1', 3, 'assistant', 'What is its name?'),
      turn('s1', 4, 'user', 'Look at this', { speaker: 'Caroline', caption: 'a grey kitten on a sofa' }),
      turn('s1', 5, 'user', ''),
    ],
  },
  {
    id: 's2',
    at: AT2,
    turns: [turn('s2', 0, 'assistant', 'Only the assistant spoke here.')],
  },
];

const spec = (over: Partial<IndexSpec>): IndexSpec => ({
  granularity: 'turn',
  roles: ['user', 'assistant'],
  includeCaptions: true,
  ...over,
});

describe('buildUnits', () => {
  it('turn: one unit per kept non-empty turn, id = turn id', () => {
    const units = buildUnits(haystack, spec({ roles: ['user'] }));
    expect(units.map((u) => u.id)).toEqual(['s1#2', 's1#5']);
    expect(units[1]).toEqual({
      id: 's1#5',
      sessionId: 's1',
      turnIds: ['s1#5'],
      role: 'user',
      speaker: 'Caroline',
      text: 'Look at this [image: a grey kitten on a sofa]',
      at: AT1,
    });
    const all = buildUnits(haystack, spec({}));
    expect(all.map((u) => u.id)).toEqual(['s1#1', 's1#2', 's1#3', 's1#4', 's1#5', 's2#1']);
  });

  it('captions can be left out; the speaker prefix is opt-in', () => {
    const [, second] = buildUnits(haystack, spec({ roles: ['user'], includeCaptions: false }));
    expect(second?.text).toBe('Look at this');
    const prefixed = buildUnits(haystack, spec({ roles: ['user'], speakerPrefix: true }));
    expect(prefixed.map((u) => u.text)).toEqual([
      'Caroline: I adopted a cat.',
      'Caroline: Look at this [image: a grey kitten on a sofa]',
    ]);
  });

  it('session: kept turns joined by one space (empty turns included, as the official script does)', () => {
    const units = buildUnits(haystack, spec({ granularity: 'session', roles: ['user'] }));
    expect(units).toHaveLength(1); // s2 has no user turn
    expect(units[0]).toMatchObject({
      id: 's1',
      turnIds: ['s1#2', 's1#5', 's1#6'],
      role: 'user',
      text: 'I adopted a cat. Look at this [image: a grey kitten on a sofa] ',
    });
    const both = buildUnits(haystack, spec({ granularity: 'session' }));
    expect(both.map((u) => [u.id, u.role])).toEqual([
      ['s1', 'mixed'],
      ['s2', 'assistant'],
    ]);
  });

  it('round: a user turn plus the following assistant turns; leading assistant turns form their own round', () => {
    const units = buildUnits(haystack, spec({ granularity: 'round' }));
    expect(units.map((u) => [u.id, u.turnIds, u.role])).toEqual([
      ['s1#r1', ['s1#1'], 'assistant'],
      ['s1#r2', ['s1#2', 's1#3', 's1#4'], 'mixed'],
      ['s1#r3', ['s1#5'], 'user'],
      // s1#r4 is the empty user turn: skipped
      ['s2#r1', ['s2#1'], 'assistant'],
    ]);
    expect(units[1]?.text).toBe('I adopted a cat. Congratulations! What is its name?');
  });

  it('round with a roles filter keeps the grouping and ids, dropping the excluded text', () => {
    const users = buildUnits(haystack, spec({ granularity: 'round', roles: ['user'] }));
    expect(users.map((u) => [u.id, u.text])).toEqual([
      ['s1#r2', 'I adopted a cat.'],
      ['s1#r3', 'Look at this [image: a grey kitten on a sofa]'],
    ]);
    const assistants = buildUnits(haystack, spec({ granularity: 'round', roles: ['assistant'] }));
    expect(assistants.map((u) => [u.id, u.turnIds])).toEqual([
      ['s1#r1', ['s1#1']],
      ['s1#r2', ['s1#3', 's1#4']],
      ['s2#r1', ['s2#1']],
    ]);
  });
});

describe('buildUnits keepEmpty (official parity)', () => {
  it('keeps empty turns and sessions without kept turns, as the official index does', () => {
    const turns = buildUnits(haystack, spec({ roles: ['user'] }), { keepEmpty: true });
    expect(turns.map((u) => [u.id, u.text])).toEqual([
      ['s1#2', 'I adopted a cat.'],
      ['s1#5', 'Look at this [image: a grey kitten on a sofa]'],
      ['s1#6', ''],
    ]);
    const sessions = buildUnits(haystack, spec({ granularity: 'session', roles: ['user'] }), { keepEmpty: true });
    expect(sessions.map((u) => [u.id, u.text, u.turnIds, u.role, u.at])).toEqual([
      ['s1', 'I adopted a cat. Look at this [image: a grey kitten on a sofa] ', ['s1#2', 's1#5', 's1#6'], 'user', AT1],
      ['s2', '', [], 'user', AT2],
    ]);
  });
});
