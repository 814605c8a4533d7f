/**
 * The run's shard split (shard-plan.ts) and where its index comes from (shard-source.ts), on hand-made catalogs:
 * groups stay whole, every question lands in exactly one shard, LPT deals as worked by hand, weights follow each
 * group's own file size, and the flag beats the scheduler's variables.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CatalogEntry } from '../../data/index.ts';
import { assignShards, haystackGroups, shardSelection, type ShardGroup } from './shard-plan.ts';
import { resolveShard } from './shard-source.ts';

const entry = (questionId: string, haystack?: string, file?: string): CatalogEntry => ({
  questionId,
  nativeType: 'x',
  adaptType: 'factual',
  isAbstention: false,
  ...(haystack ? { haystack } : {}),
  ...(file ? { file } : {}),
});

const g = (key: string, weight: number): ShardGroup => ({ dataset: 'd', key, questionIds: [key], weight });

describe('assignShards', () => {
  it('deals largest first onto the least loaded shard (worked by hand)', () => {
    // 5→A; 4→B; 3→B (4<5, B=7); 3→A (5<7, A=8); 3→B (7<8, B=10).
    expect(assignShards([g('a', 5), g('b', 4), g('c', 3), g('d', 3), g('e', 3)], 2)).toEqual([0, 1, 1, 0, 1]);
  });
  it('breaks ties on the group key, whatever the input order', () => {
    const one = assignShards([g('x', 1), g('y', 1), g('z', 1)], 2);
    const two = assignShards([g('z', 1), g('x', 1), g('y', 1)], 2);
    expect(one).toEqual([0, 1, 0]);
    expect(two).toEqual([0, 0, 1]);
  });
});

describe('haystackGroups and shardSelection', () => {
  it('keeps a conversation in one shard and puts every question in exactly one shard (中文 ids too)', () => {
    const kept = [
      entry('conv-1:q0', 'conv-1'),
      entry('conv-1:q1', 'conv-1'),
      entry('对话-2:q0', '对话-2'),
      entry('lone'),
      entry('conv-3:q0', 'conv-3'),
      entry('conv-3:q1', 'conv-3'),
      entry('conv-3:q2', 'conv-3'),
    ];
    const groups = haystackGroups('locomo', kept);
    expect(groups.map((x) => x.key)).toEqual(['conv-1', '对话-2', 'lone', 'conv-3']);
    expect(groups.reduce((n, x) => n + x.weight, 0)).toBeCloseTo(kept.length, 12);
    const seen = new Map<string, number>();
    for (let i = 1; i <= 3; i++) {
      const { ids } = shardSelection(groups, { index: i, count: 3 });
      for (const id of ids.get('locomo')!) seen.set(id, (seen.get(id) ?? 0) + 1);
      const convs = new Set([...ids.get('locomo')!].map((id) => id.split(':')[0]));
      for (const c of convs)
        expect(kept.filter((e) => e.haystack === c).every((e) => ids.get('locomo')!.has(e.questionId))).toBe(true);
    }
    expect([...seen.values()].every((n) => n === 1)).toBe(true);
    expect(seen.size).toBe(kept.length);
  });

  const dir = mkdtempSync(join(tmpdir(), 'adaptmr-shard-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  it('weighs groups by questions × their own folder size', () => {
    for (const [chat, bytes] of [
      ['c1', 300],
      ['c2', 100],
    ] as const) {
      mkdirSync(join(dir, chat, 'probing_questions'), { recursive: true });
      writeFileSync(join(dir, chat, 'chat.json'), 'x'.repeat(bytes - 10));
      writeFileSync(join(dir, chat, 'probing_questions', 'q.json'), 'y'.repeat(10));
    }
    const kept = [
      entry('c1:q0', 'c1', join(dir, 'c1')),
      entry('c2:q0', 'c2', join(dir, 'c2')),
      entry('c2:q1', 'c2', join(dir, 'c2')),
    ];
    // raw weights 1×300 and 2×100 → scaled to 3 questions: 1.8 and 1.2.
    expect(haystackGroups('beam', kept).map((x) => x.weight)).toEqual([1.8, 1.2].map((w) => expect.closeTo(w, 12)));
  });
});

describe('resolveShard', () => {
  it('takes --shard over the scheduler and says so', () => {
    expect(resolveShard('2/3', undefined, { SLURM_ARRAY_TASK_ID: '1', SLURM_ARRAY_TASK_COUNT: '3' })).toEqual({
      index: 2,
      count: 3,
      from: '--shard 2/3',
    });
  });
  it('reads a Slurm array task counted from its minimum, and a Kubernetes completion index (0-based)', () => {
    expect(
      resolveShard(undefined, undefined, {
        SLURM_ARRAY_TASK_ID: '3',
        SLURM_ARRAY_TASK_COUNT: '3',
        SLURM_ARRAY_TASK_MIN: '1',
      }),
    ).toMatchObject({ index: 3, count: 3 });
    expect(
      resolveShard(undefined, undefined, {
        SLURM_ARRAY_TASK_ID: '0',
        SLURM_ARRAY_TASK_COUNT: '4',
        SLURM_ARRAY_TASK_MIN: '0',
      }),
    ).toMatchObject({ index: 1, count: 4 });
    expect(resolveShard(undefined, 4, { JOB_COMPLETION_INDEX: '3' })).toMatchObject({ index: 4, count: 4 });
  });
  it('refuses an index without a count, and one out of range, naming the variable', () => {
    expect(() => resolveShard(undefined, undefined, { JOB_COMPLETION_INDEX: '0' })).toThrow(
      /JOB_COMPLETION_INDEX.*--shards/,
    );
    expect(() => resolveShard(undefined, undefined, { SLURM_ARRAY_TASK_ID: '5', SLURM_ARRAY_TASK_COUNT: '4' })).toThrow(
      /SLURM_ARRAY_TASK_ID=5/,
    );
    expect(resolveShard(undefined, undefined, {})).toBeUndefined();
  });
});
