// Config YAML: merge keys (`<<: *anchor`) are supported as YAML 1.1 defines them; the alias cap still applies.
import { describe, expect, it } from 'vitest';
import { parseExperiment } from './load-config.ts';
import { readYamlText } from './yaml-text.ts';

describe('YAML merge keys in configs', () => {
  it('merge a shared mapping into each entry; keys given beside the merge win', () => {
    const exp = parseExperiment(
      `name: merge-keys
description: 合并键 (merge keys) share a method's settings
datasets: [{ name: locomo, limit: 2 }]
methods:
  - &bm25 { id: bm25-5, method: bm25, index: { granularity: session }, k: 5 }
  - { <<: *bm25, id: bm25-10, k: 10 }
  - <<: *bm25
    id: bm25-turn
    index: { granularity: turn }
`,
      'merge.yaml',
    );
    expect(exp.config.methods.map((m) => [m.id, m.method, m.k, m.index.granularity])).toEqual([
      ['bm25-5', 'bm25', 5, 'session'],
      ['bm25-10', 'bm25', 10, 'session'],
      ['bm25-turn', 'bm25', 5, 'turn'],
    ]);
    expect(exp.config.description).toBe("合并键 (merge keys) share a method's settings");
  });

  it('a merge-key bomb is still refused by the alias cap', () => {
    const levels = ['a: &a { x: 1, y: 1 }'];
    for (let i = 1; i < 12; i++)
      levels.push(
        `l${i}: &l${i} { <<: [${Array.from({ length: 10 }, () => (i === 1 ? '*a' : `*l${i - 1}`)).join(', ')}] }`,
      );
    expect(() => readYamlText(levels.join('\n'), 'bomb.yaml')).toThrow(/bomb\.yaml: invalid YAML: .*alias/iu);
  });
});
