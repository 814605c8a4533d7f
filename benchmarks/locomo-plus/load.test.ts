// LoCoMo-Plus: upstream's time-gap parser (data/build_conv.py `parse_time_gap`) and the deterministic stitching
// (item i into conversation i % 10; cue at query_time − gap, query_time = last session + 7 days, ties after the
// session), on a two-conversation LoCoMo file written here and on the real 401 items (counts of the docs/datasets.md).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadDataset, type DataIssue } from '../../src/data/index.ts';
import { normaliseLocomoPlus, parseAbDialogue, parseTimeGap } from './load.ts';
import { TEST_DATA_DIR } from '../../test/data-path.ts';

describe('parseTimeGap (upstream parse_time_gap)', () => {
  it('the first number / number word / a / an before week(s), month(s) or year(s); nothing else', () => {
    expect(parseTimeGap('two weeks later')).toBe(14);
    expect(parseTimeGap('about six months later')).toBe(180);
    expect(parseTimeGap('A year later')).toBe(365);
    expect(parseTimeGap('3 months afterwards')).toBe(90);
    expect(parseTimeGap('an entire month later')).toBeUndefined(); // "an" is not followed by the unit
    expect(parseTimeGap('several months later')).toBeUndefined();
    expect(parseTimeGap('a few weeks later')).toBeUndefined();
    expect(parseTimeGap('ten days later')).toBeUndefined(); // days are not a unit upstream reads
  });
  it('A: / B: lines; others apart', () => {
    expect(parseAbDialogue('A: hi\nB: hello\nnarration\n')).toEqual({
      turns: [
        { who: 'A', text: 'hi' },
        { who: 'B', text: 'hello' },
      ],
      other: ['narration'],
    });
  });
});

const root = mkdtempSync(join(tmpdir(), 'adaptmr-plus-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const turn = (speaker: string, dia: string, text: string) => ({ speaker, dia_id: dia, text });
const conv = (id: string, a: string, b: string, dates: string[]) => ({
  sample_id: id,
  qa: [],
  conversation: Object.fromEntries([
    ['speaker_a', a],
    ['speaker_b', b],
    ...dates.flatMap((d, i) => [
      [`session_${i + 1}`, [turn(a, `D${i + 1}:1`, `hello ${i + 1}`), turn(b, `D${i + 1}:2`, `hi ${i + 1}`)]],
      [`session_${i + 1}_date_time`, d],
    ]),
  ]),
});
const locomoFile = join(root, 'locomo10.json');
writeFileSync(
  locomoFile,
  JSON.stringify([
    conv('conv-x', 'Caroline', 'Melanie', [
      '1:00 pm on 1 May, 2023',
      '1:00 pm on 1 June, 2023',
      '1:00 pm on 24 June, 2023',
    ]),
    conv('conv-y', 'Jon', 'Gina', ['9:00 am on 3 March, 2023']),
  ]),
);
const item = (
  gap: string,
  cue = 'A: After learning to say no, I feel less stressed.\nB: Protecting your time matters.',
) => ({
  relation_type: 'causal',
  cue_dialogue: cue,
  trigger_query: "A: I volunteered for that project and now I'm overwhelmed.",
  time_gap: gap,
});

describe('stitching (fixture)', () => {
  const stitch = (raw: unknown, index: number, issues: DataIssue[] = []) =>
    normaliseLocomoPlus(raw, 'locomo_plus.json', index, locomoFile, 'locomo-plus', issues)[0]!;

  it('item i goes with conversation i % n; trigger at the last session + 7 days; the cue is the gold', () => {
    const inst = stitch(item('two weeks later'), 2);
    // 24 June 13:00 + 7 days = 1 July 13:00; − 14 days = 17 June: after session 2 (1 June), before session 3.
    expect(inst.query).toEqual({
      id: 'plus:2',
      text: "I volunteered for that project and now I'm overwhelmed.",
      askedAt: '2023-07-01T13:00:00Z',
    });
    expect(inst.haystack.map((s) => s.id)).toEqual(['D1', 'D2', 'P2', 'D3']);
    const cue = inst.haystack[2]!;
    expect(cue.at).toBe('2023-06-17T13:00:00Z');
    expect(cue.turns.map((t) => [t.id, t.role, t.speaker])).toEqual([
      ['P2:1', 'user', 'Caroline'],
      ['P2:2', 'assistant', 'Melanie'],
    ]);
    expect(inst.gold).toMatchObject({
      nativeType: 'causal',
      reportAs: 'cognitive',
      type: 'factual',
      evidenceTurnIds: ['P2:1', 'P2:2'],
      evidenceSessionIds: ['P2'],
      answer: '',
    });
    expect(inst.gold.evidenceText).toBe(
      'Caroline：After learning to say no, I feel less stressed.\nMelanie：Protecting your time matters.',
    );
    // conv-y: one session on 3 March; the trigger on 10 March; two weeks back (24 February) is before it.
    expect(stitch(item('two weeks later'), 1).haystack.map((s) => s.id)).toEqual(['P1', 'D1']);
  });

  it('a one-week gap ties with the last session and goes after it; no match is 0 days (reported); before everything goes first', () => {
    expect(stitch(item('one week later'), 0).haystack.map((s) => s.id)).toEqual(['D1', 'D2', 'D3', 'P0']);
    const issues: DataIssue[] = [];
    const zero = stitch(item('several months later'), 0, issues);
    expect(zero.haystack.at(-1)!.at).toBe(zero.query.askedAt);
    expect(issues.map((i) => i.problem)).toEqual([expect.stringContaining('read as 0 days as upstream does')]);
    expect(stitch(item('two years later'), 0).haystack.map((s) => s.id)).toEqual(['P0', 'D1', 'D2', 'D3']);
  });
});

describe('LoCoMo-Plus (docs/datasets.md §4.3 counts)', () => {
  it('401 items, 101/100/100/100 by relation; conv-26 gets 41; 15 zero gaps; 33 with no session between cue and trigger; 28 cues before session 1', async () => {
    const { instances, issues } = await loadDataset({ name: 'locomo-plus' }, TEST_DATA_DIR);
    expect(instances).toHaveLength(401);
    const by = (f: (i: (typeof instances)[number]) => string) => {
      const counts: Record<string, number> = {};
      for (const i of instances) counts[f(i)] = (counts[f(i)] ?? 0) + 1;
      return counts;
    };
    expect(by((i) => i.gold.nativeType)).toEqual({ causal: 101, state: 100, goal: 100, value: 100 });
    expect(by((i) => i.haystack.find((s) => s.id === 'D1')!.turns[0]!.speaker!).Caroline).toBe(41); // conv-26's speaker_a
    expect(issues.filter((i) => i.field.endsWith('time_gap'))).toHaveLength(15);
    const cueIndex = (i: (typeof instances)[number]) => i.haystack.findIndex((s) => s.id.startsWith('P'));
    expect(instances.filter((i) => cueIndex(i) === i.haystack.length - 1)).toHaveLength(33);
    expect(instances.filter((i) => cueIndex(i) === 0)).toHaveLength(28);
  }, 30_000);
});
