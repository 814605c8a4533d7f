// `adaptmr data info` through yargs: the JSON summary equals the docs/datasets.md's numbers; issues are listed.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import yargs from 'yargs';
import { dataCommand } from './commands.ts';
import { longMemEvalCount, TEST_DATA_DIR } from '../../test/data-path.ts';

let out: string[];
let err: string[];
beforeEach(() => {
  out = [];
  err = [];
  vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void out.push(a.join(' ')));
  vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void err.push(a.join(' ')));
});
afterEach(() => vi.restoreAllMocks());

async function run(args: string[]): Promise<void> {
  await yargs(args)
    .command(dataCommand)
    .strict()
    .fail((msg, e) => {
      throw e ?? new Error(msg);
    })
    .parseAsync();
}

const dataDir = TEST_DATA_DIR;

describe('data info', () => {
  it('locomo --json', async () => {
    await run(['data', 'info', '--dataset', 'locomo', '--data-dir', dataDir, '--json']);
    expect(JSON.parse(out.join('\n'))).toEqual({
      dataset: 'locomo',
      questions: 1986,
      sessions: 272,
      turns: 5882,
      byNativeType: { '1': 282, '2': 321, '3': 96, '4': 841, '5': 446 },
      byAdaptType: { abstention: 446, factual: 937, 'multi-hop': 282, temporal: 321 },
      abstention: 446,
    });
    expect(err.join('\n')).toContain('data issues: 22 (12 repaired, 4 dropped, 6 kept)');
  });

  // The folder copy lacks one temporal question of the release (gpt4_7a0daae1): 499 questions, 23,806 sessions and
  // 246,189 turns counted from its files; the release file has all 500, so it holds at least as many of each.
  it('longmemeval-s --json (499 questions in the folder copy, 500 in the release; 30 abstention)', async () => {
    await run(['data', 'info', '--dataset', 'longmemeval-s', '--data-dir', dataDir, '--json']);
    const info = JSON.parse(out.join('\n')) as {
      questions: number;
      sessions: number;
      turns: number;
      byNativeType: Record<string, number>;
    };
    const folderCopy = longMemEvalCount('longmemeval-s') === 499;
    expect(info).toMatchObject({
      dataset: 'longmemeval-s',
      questions: longMemEvalCount('longmemeval-s'),
      abstention: 30,
    });
    if (folderCopy) expect(info).toMatchObject({ sessions: 23806, turns: 246189 });
    else expect(info.sessions > 23806 && info.turns > 246189).toBe(true);
    expect(info.byNativeType).toEqual({
      'knowledge-update': 78,
      'multi-session': 133,
      'single-session-assistant': 56,
      'single-session-preference': 30,
      'single-session-user': 70,
      'temporal-reasoning': folderCopy ? 132 : 133,
    });
  });

  it('oracle table (500 questions, 948 sessions, 10,960 turns)', async () => {
    await run(['data', 'info', '--dataset', 'longmemeval-oracle', '--data-dir', dataDir]);
    const text = out.join('\n');
    expect(text).toMatch(/│ 500 +│ 948 +│ 10960 +│ 30 +│/);
    expect(text).toContain('data issues: 0');
  });

  it("beam-100k table names BEAM's units: batches and messages", async () => {
    await run(['data', 'info', '--dataset', 'beam-100k', '--data-dir', dataDir]);
    const text = out.join('\n');
    expect(text).toMatch(/│ questions +│ batches +│ messages +│ abstention +│/);
    expect(text).not.toMatch(/│ sessions /);
  });

  it('--verbose lists the issues, e.g. the D:11:26 repair', async () => {
    await run(['data', 'info', '--dataset', 'locomo', '--data-dir', dataDir, '--verbose']);
    expect(out.join('\n')).toContain(
      'repaired conv-43:q18 conv-43.qa[18].evidence[4]: "D:11:26" normalised to "D11:26"',
    );
  });

  it('unknown dataset names are refused with the known list', async () => {
    await expect(run(['data', 'info', '--dataset', 'longmemeval-x', '--data-dir', dataDir])).rejects.toThrow(
      /known: longmemeval-oracle/,
    );
  });
});
