/**
 * What a run records about where it came from (DESIGN.md §3): git commit and dirty flag, the installed versions of
 * the packages that shape results, and the Node version. Dataset hashes come from src/data.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PACKAGE_ROOT } from '../core/package-root.ts';

const exec = promisify(execFile);

export const REPO_ROOT = PACKAGE_ROOT;

/**
 * The checkout's commit and whether tracked files differ from it, from one `git status --porcelain=v2 --branch`
 * (its `# branch.oid` header line and its change lines). One child process, not two: starting one forks this
 * process, and every page the process then writes faults once more (copy-on-write), on every thread — ~0.05–0.1 s of
 * a LongMemEval S run's set-up went to the two forks this used to make.
 */
export async function gitState(cwd = REPO_ROOT): Promise<{ commit: string | null; dirty: boolean | null }> {
  try {
    const { stdout } = await exec('git', ['status', '--porcelain=v2', '--branch', '--untracked-files=no'], { cwd });
    const lines = stdout.split('\n').filter((l) => l !== '');
    const oid = lines.find((l) => l.startsWith('# branch.oid '))?.slice('# branch.oid '.length);
    return { commit: oid && oid !== '(initial)' ? oid : null, dirty: lines.some((l) => !l.startsWith('#')) };
  } catch {
    // Not a git checkout (e.g. an npm tarball): record the absence rather than guess.
    return { commit: null, dirty: null };
  }
}

/** Installed versions of the project's direct dependencies, read from node_modules (not the ranges in package.json). */
export async function packageVersions(root = REPO_ROOT): Promise<Record<string, string>> {
  const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as {
    version: string;
    dependencies?: Record<string, string>;
  };
  const names = Object.keys(pkg.dependencies ?? {}).sort();
  const versions = await Promise.all(names.map(async (name) => {
    try {
      return (JSON.parse(await readFile(join(root, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
    } catch {
      return 'missing';
    }
  }));
  const out: Record<string, string> = { 'adaptmr-bench': pkg.version, node: process.version };
  names.forEach((name, i) => (out[name] = versions[i]!));
  return out;
}
