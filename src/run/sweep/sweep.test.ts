/**
 * Sweeps, shards and merge on real data (LoCoMo from ADAPTMR_DATA_DIR) and real DuckDB files: the variations
 * expand from one base, shards partition them the same way every time, and the merge of the shards equals the
 * merge of an unsharded run row for row (timing columns aside); merging twice adds nothing; mixed experiments and
 * other schema versions are refused with one line naming the file.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { InputError } from '../../core/errors.ts';
import { mergeResults } from '../../store/merge.ts';
import { openResultStore } from '../../store/index.ts';
import { parseExperiment } from '../config/load-config.ts';
import { runExperiment } from '../runner.ts';
import { parseShard, shardIds } from './shard.ts';
import { expandSweep, loadSweep, type ResolvedSweep } from './sweep-file.ts';
import { runSweep, shardMatrix, variationFile } from './sweep.ts';
import { useTestData } from '../../../test/data-path.ts';

useTestData(); // its runs find LoCoMo / LongMemEval by name on the data search path

const dir = mkdtempSync(join(tmpdir(), 'adaptmr-sweep-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const base = {
  name: 'ignored',
  datasets: [{ name: 'locomo', limit: 4 }],
  methods: [
    { id: 'bm25', method: 'bm25', index: { granularity: 'session' }, k: 5 },
    { id: 'embed', method: 'unified-embedding', index: { granularity: 'session' }, k: 5 },
  ],
  metrics: { ks: [1, 5] },
};

const sweep: ResolvedSweep = {
  path: 'sweep-test.yaml',
  name: 'sweep-test',
  base,
  variations: [
    { id: 'k3', set: { methods: { bm25: { k: 3 }, embed: { k: 3 } } } },
    { id: 'base', set: {} },
    {
      id: 'bm25-only',
      description: 'one method',
      set: { methods: [{ id: 'bm25', method: 'bm25', index: { granularity: 'turn' }, k: 5 }] },
    },
  ],
};

describe('expandSweep', () => {
  it('names each variation after the sweep and merges its set onto the base', () => {
    const runs = expandSweep(sweep);
    expect(runs.map((r) => r.experiment.config.name)).toEqual([
      'sweep-test.k3',
      'sweep-test.base',
      'sweep-test.bm25-only',
    ]);
    const k3 = runs[0]!.experiment.config;
    expect(k3.methods.map((m) => [m.id, m.k, m.index.granularity])).toEqual([
      ['bm25', 3, 'session'],
      ['embed', 3, 'session'],
    ]);
    expect(runs[2]!.experiment.config.methods.map((m) => m.id)).toEqual(['bm25']);
    expect(new Set(runs.map((r) => r.experiment.configHash)).size).toBe(3);
  });

  it('names the sweep file, the variation and the field on errors', () => {
    const bad = { ...sweep, variations: [{ id: 'typo', set: { metrics: { kz: [1] } } }] };
    expect(() => expandSweep(bad)).toThrow(/sweep-test\.yaml#typo: metrics: .*kz/);
    const unknown = { ...sweep, variations: [{ id: 'x', set: { methods: { nope: { k: 1 } } } }] };
    expect(() => expandSweep(unknown)).toThrow(/variation x: set\.methods: no method "nope"/);
    const dup = {
      ...sweep,
      variations: [
        { id: 'a', set: {} },
        { id: 'a', set: {} },
      ],
    };
    expect(() => expandSweep(dup)).toThrow(/"a" is used twice/);
  });
});

describe('loadSweep', () => {
  it('says an experiment config is not a sweep file', async () => {
    const file = join(dir, 'experiment.yaml');
    writeFileSync(file, stringify(base));
    await expect(loadSweep(file)).rejects.toThrow(
      /experiment\.yaml: is an experiment config, not a sweep file \(no `base:`\); run it with `adaptmr run`/,
    );
    const odd = join(dir, 'odd.yaml');
    writeFileSync(odd, stringify({ name: 'x', vary: [] }));
    await expect(loadSweep(odd)).rejects.toThrow(/odd\.yaml: base: missing/);
  });
});

describe('shards', () => {
  it('partition the sorted ids, the same way for any input order', () => {
    const ids = ['e', 'a', 'd', 'c', 'b', 'f', 'g'];
    for (let n = 1; n <= 8; n++) {
      const parts = Array.from({ length: n }, (_, i) => shardIds(ids, { index: i + 1, count: n }));
      expect(parts.flat().sort()).toEqual([...ids].sort());
      expect(Math.max(...parts.map((p) => p.length)) - Math.min(...parts.map((p) => p.length))).toBeLessThanOrEqual(1);
      expect(parts).toEqual(
        Array.from({ length: n }, (_, i) => shardIds([...ids].reverse(), { index: i + 1, count: n })),
      );
    }
  });

  it('parse i/n and refuse anything else', () => {
    expect(parseShard('2/4')).toEqual({ index: 2, count: 4 });
    for (const bad of ['0/2', '3/2', '1', 'a/b', '1/0']) expect(() => parseShard(bad)).toThrow(InputError);
  });

  it('give a CI matrix of non-empty shards', () => {
    expect(shardMatrix(sweep, 2)).toEqual({
      include: [
        { shard: '1/2', variations: 'base k3' },
        { shard: '2/2', variations: 'bm25-only' },
      ],
    });
    expect(shardMatrix(sweep, 10).include).toHaveLength(3);
  });
});

/** Every row of every table, timing columns dropped, sorted: equal content ⇔ equal dumps. */
async function dump(file: string): Promise<Record<string, string[]>> {
  const store = await openResultStore(file, { readOnly: true });
  const timing = new Set(['started_at', 'ended_at', 'latency_ms']);
  try {
    const out: Record<string, string[]> = {};
    for (const table of [
      'runs',
      'methods',
      'questions',
      'retrievals',
      'scores',
      'answers',
      'llm_calls',
      'checkpoints',
      'meta',
    ]) {
      // The run's warm-up time is a measurement (checkpoint key `warmup`), like the timing columns.
      const where = table === 'checkpoints' ? " WHERE key <> 'warmup'" : '';
      const rows = await store.query<Record<string, unknown>>(`SELECT * FROM ${table}${where}`);
      out[table] = rows.map((r) => JSON.stringify(Object.entries(r).filter(([k]) => !timing.has(k)))).sort();
    }
    return out;
  } finally {
    await store.close();
  }
}

describe('sweep → shards → merge', () => {
  const quiet = { progress: false, log: () => {} };
  const whole = join(dir, 'whole');
  const sharded = join(dir, 'sharded');

  it('merged shards equal the merged unsharded run; merging again adds no row', async () => {
    const all = await runSweep(sweep, { outDir: whole, ...quiet });
    expect(all.variations).toEqual(['base', 'bm25-only', 'k3']);
    const s1 = await runSweep(sweep, { outDir: sharded, shard: { index: 1, count: 2 }, ...quiet });
    const s2 = await runSweep(sweep, { outDir: sharded, shard: { index: 2, count: 2 }, ...quiet });
    expect([...s1.variations, ...s2.variations].sort()).toEqual(all.variations);

    const files = (d: string): string[] => all.variations.map((id) => variationFile(d, id));
    const a = await mergeResults(files(whole), join(dir, 'whole.duckdb'));
    expect(a.experiment).toBe('sweep-test');
    expect(a.added.questions).toBe(3 * 4);
    expect(a.added.retrievals).toBe(4 * (2 + 1 + 2));
    await mergeResults(files(sharded), join(dir, 'sharded.duckdb'));
    expect(await dump(join(dir, 'sharded.duckdb'))).toEqual(await dump(join(dir, 'whole.duckdb')));

    const again = await mergeResults(files(sharded), join(dir, 'sharded.duckdb'));
    expect(Object.values(again.added).every((n) => n === 0)).toBe(true);
  });

  it('refuses files of another experiment or schema version, naming the file', async () => {
    const other = join(dir, 'other.duckdb');
    await runExperiment(
      parseExperiment(JSON.stringify({ ...base, name: 'other', methods: [base.methods[0]] }), 'other.yaml'),
      { out: other, ...quiet },
    );
    const mixed = mergeResults([variationFile(whole, 'base'), other], join(dir, 'mixed.duckdb'));
    await expect(mixed).rejects.toThrow(InputError);
    await expect(mixed).rejects.toThrow(
      /other\.duckdb: holds experiment "other", but .*base\.duckdb holds "sweep-test"/,
    );

    const future = join(dir, 'future.duckdb');
    const store = await openResultStore(future);
    await store.query("UPDATE meta SET value = '99' WHERE key = 'schema_version'");
    await store.close();
    await expect(mergeResults([variationFile(whole, 'base'), future], join(dir, 'v.duckdb'))).rejects.toThrow(
      /future\.duckdb: results file has schema version 99/,
    );
  });
});
