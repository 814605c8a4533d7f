// The run's git provenance from one `git status` call: the commit, and dirty only for changes to tracked files.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { gitState } from './provenance.ts';

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
