// loadQuestions: the questions loadDataset gives, each without its haystack, with the same data issues — on the real
// datasets (an array file, LoCoMo's conversations, a folder of gzipped S files).
import { describe, expect, it } from 'vitest';
import type { DatasetRef } from '../core/config.ts';
import { loadDataset, loadQuestions } from './index.ts';
import { TEST_DATA_DIR } from '../../test/data-path.ts';

const dataDir = TEST_DATA_DIR;

describe('loadQuestions', () => {
  const refs: [string, DatasetRef][] = [
    ['LongMemEval oracle (array file)', { name: 'longmemeval-oracle' }],
    ['LoCoMo', { name: 'locomo' }],
    ['LongMemEval S (folder), a sample', { name: 'longmemeval-s', sample: { perType: 4, seed: 3 } }],
    [
      'LongMemEval oracle, ids and a limit',
      { name: 'longmemeval-oracle', questionIds: ['gpt4_2655b836', '0a995998', 'e47becba'], limit: 2 },
    ],
  ];
  it.each(refs)('%s: the same questions, sorted, without haystacks', async (_name, ref) => {
    const full = await loadDataset(ref, dataDir);
    const light = await loadQuestions(ref, dataDir);
    expect(light.questions.length).toBeGreaterThan(1);
    expect(light.questions.every((q) => !('haystack' in q))).toBe(true);
    expect(light.questions).toEqual(full.instances.map(({ haystack: _h, ...q }) => q));
    expect(light.issues).toEqual(full.issues);
  });

  it('fails as loadDataset does on an unknown question id', async () => {
    await expect(loadQuestions({ name: 'locomo', questionIds: ['conv-26:q9999'] }, dataDir)).rejects.toThrow(
      /not in the dataset: conv-26:q9999/,
    );
  });
});
