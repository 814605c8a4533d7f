// The run's git provenance from one `git status` call: the commit, and dirty only for changes to tracked files; dataset
// digests without machine paths; model and calibration files with their sha256.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ExperimentConfig } from '../../core/config.ts';
import { datasetDigests, gitState, inputFileDigests, portablePath } from './provenance.ts';

const dir = mkdtempSync(join(tmpdir(), 'adaptmr-git-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const git = (...args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: dir, encoding: 'utf8' }).trim();

describe('gitState', () => {
  it('is null outside a checkout, and has no commit before the first one', async () => {
    expect(await gitState(dir)).toEqual({ commit: null, dirty: null });
    git('init', '-q');
    expect(await gitState(dir)).toEqual({ commit: null, dirty: false });
  });

  it('names the commit; only a change to a tracked file makes it dirty', async () => {
    writeFileSync(join(dir, 'a.txt'), 'one\n');
    git('add', 'a.txt');
    git('commit', '-q', '-m', 'first');
    const commit = git('rev-parse', 'HEAD');
    expect(await gitState(dir)).toEqual({ commit, dirty: false });
    writeFileSync(join(dir, 'untracked.txt'), 'x\n');
    expect(await gitState(dir)).toEqual({ commit, dirty: false });
    writeFileSync(join(dir, 'a.txt'), 'two\n');
    expect(await gitState(dir)).toEqual({ commit, dirty: true });
  });
});

describe('portable provenance', () => {
  it('names dataset files relative to the dataset, never by an absolute path', () => {
    const folder = {
      name: 'longmemeval-s',
      format: 'longmemeval' as const,
      path: '/data/sets/longmemeval/s_cleaned',
      kind: 'folder' as const,
    };
    const file = {
      name: 'locomo',
      format: 'locomo' as const,
      path: '/data/sets/locomo/locomo10.json',
      kind: 'file' as const,
    };
    expect(
      datasetDigests(folder, [{ path: '/data/sets/longmemeval/s_cleaned/q1.json.gz', sha256: 'a', bytes: 1 }]),
    ).toEqual({ files: [{ path: 'q1.json.gz', sha256: 'a', bytes: 1 }] });
    expect(datasetDigests(file, [{ path: '/data/sets/locomo/locomo10.json', sha256: 'b', bytes: 2 }])).toEqual({
      files: [{ path: 'locomo10.json', sha256: 'b', bytes: 2 }],
    });
    expect(portablePath('/elsewhere/x.json', '/data')).toBe('x.json');
  });

  it('records every model and calibration file a method or the embedder reads, with the sha256 sha256sum gives', async () => {
    const model = join(dir, 'model.onnx');
    const thresholds = join(dir, 'thresholds.json');
    writeFileSync(model, 'onnx bytes 模型'); // 11 + 2 × 3 bytes
    writeFileSync(thresholds, '{"embedders":{}}');
    const config = {
      embedder: { name: 'wink-sif', options: {} },
      methods: [
        {
          id: 'a',
          method: 'adaptmr',
          options: {
            classifier: { name: 'onnx', options: { model } },
            strategies: { abstention: { thresholdsFile: thresholds } },
          },
        },
        { id: 'b', method: 'rae', options: { model: 'not-a-file-name' } },
      ],
    } as unknown as ExperimentConfig;
    const files = await inputFileDigests([{ dataset: 'd1', config }], dir);
    const sha = (p: string): string => execFileSync('sha256sum', [p], { encoding: 'utf8' }).split(' ')[0]!;
    expect(files).toEqual([
      { user: 'd1 / a', option: 'classifier.options.model', path: 'model.onnx', sha256: sha(model), bytes: 17 },
      {
        user: 'd1 / a',
        option: 'strategies.abstention.thresholdsFile',
        path: 'thresholds.json',
        sha256: sha(thresholds),
        bytes: 16,
      },
    ]);
  });
});
