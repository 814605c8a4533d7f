// `verify --submission`: each rule refuses the case it exists for, naming the run, file, method or model.
import { describe, expect, it } from 'vitest';
import type { Manifest } from '../bundle/manifest.ts';
import { Checks } from './checks.ts';
import type { EeeResult } from './eee-check.ts';
import { DATED, checkSubmission } from './submission.ts';

const line = (id: string, error: string | null = null) => ({
  sample_id: id,
  error,
  metadata: { run_id: 'r', dataset: 'locomo' },
});

function manifest(over: Partial<Manifest['runs'][number]> = {}, images: Manifest['images'] = []): Manifest {
  return {
    runs: [
      {
        run_id: 'r',
        status: 'done',
        datasets: [{ name: 'locomo', questions: 2 }],
        models: { reader: 'gpt-4o-mini-2024-07-18', judges: [{ id: 'j', model: 'gpt-4o-2024-08-06' }] },
        methods: [{ method: 'bm25', degraded: null }],
        ...over,
      },
    ],
    images,
    allow_unpinned: false,
  } as unknown as Manifest;
}
const eee = (a = [line('q1'), line('q2')], b = [line('q2'), line('q1')]): EeeResult => ({
  aggregates: new Map(),
  samples: new Map([
    ['a.jsonl', a],
    ['b.jsonl', b],
  ]),
});

function failures(m: Manifest, e: EeeResult): string[] {
  const checks = new Checks(() => {});
  checkSubmission(m, e, checks);
  return checks.list.filter((c) => !c.ok).map((c) => `${c.name}: ${c.detail}`);
}

describe('submission checks', () => {
  it('accept a complete run of pinned models on every question once', () => {
    expect(failures(manifest(), eee())).toEqual([]);
  });

  it('refuse an unfinished run, an error row, a missing or repeated question', () => {
    expect(failures(manifest({ status: 'stopped' }), eee())[0]).toBe(
      'submission: complete: run r is stopped, not done',
    );
    expect(failures(manifest(), eee([line('q1'), line('q2', 'timeout')]))[0]).toMatch(
      /a\.jsonl line 2: question q2 ended in error/u,
    );
    expect(failures(manifest(), eee([line('q1'), line('q1')]))[0]).toBe(
      'submission: questions: a.jsonl: question q1 appears twice',
    );
    expect(failures(manifest(), eee([line('q1'), line('q2')], [line('q1'), line('q3')]))[0]).toBe(
      'submission: questions: b.jsonl: not the questions of a.jsonl',
    );
  });

  it('refuse an undated reader or judge model, an unpinned image and an offline stand-in', () => {
    expect(failures(manifest({ models: { reader: 'gpt-4o', judges: [] } }), eee())[0]).toMatch(
      /reader model gpt-4o names no dated version/u,
    );
    const image = {
      run_id: 'r',
      method: 'mem0',
      kind: 'mem0',
      image: 'mem0/mem0-api-server:latest',
      source: '--image',
      pinned: false,
      reported_digest: null,
    };
    expect(failures(manifest({}, [image]), eee())[0]).toMatch(/mem0 runs mem0\/mem0-api-server:latest/u);
    expect(
      failures(manifest({ methods: [{ method: 'mem0-offline', degraded: 'offline' }] } as never), eee())[0],
    ).toMatch(/mem0-offline is an offline stand-in/u);
  });

  it('knows a dated model name', () => {
    for (const m of ['gpt-4o-2024-08-06', 'claude-3-5-sonnet-20241022', 'gpt-4.1-mini-2025-04-14'])
      expect(m).toMatch(DATED);
    for (const m of ['gpt-4o', 'gpt-4o-mini', 'llama3.1:8b', 'qwen2.5-72b']) expect(m).not.toMatch(DATED);
  });
});
