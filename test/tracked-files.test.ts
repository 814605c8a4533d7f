/**
 * What the repository tracks stays a source repository: no file over 1 MB (data, models and caches are pulled or
 * built, not committed; a file that must be larger goes into LARGE_FILES_ALLOWED with its reason), no path with a
 * segment `undefined` (what a missing variable turned into a folder name looks like), and no shipped file that
 * defaults to a folder of one machine's workspace (`../shared`). Also pins what the citation check reads: every
 * tracked text file, data files included.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkoutFiles, trackedTextFiles } from './citations.ts';
import { isTestFile, sourcesUnder } from './source-files.ts';

const ROOT = join(import.meta.dirname, '..');
const MAX_BYTES = 1_000_000;

/** Tracked files allowed over MAX_BYTES: path → why. Empty: none is needed. */
const LARGE_FILES_ALLOWED: ReadonlyMap<string, string> = new Map();

/** Findings of the size and path rules over a list of (path, bytes). */
export function trackedFileFindings(files: readonly { path: string; bytes: number }[]): string[] {
  const out: string[] = [];
  for (const { path, bytes } of files) {
    if (bytes > MAX_BYTES && !LARGE_FILES_ALLOWED.has(path))
      out.push(`${path}: ${bytes} bytes, over ${MAX_BYTES} (pull or build it; or allow it with its reason)`);
    if (path.split('/').includes('undefined')) out.push(`${path}: a path segment is "undefined"`);
  }
  return out;
}

describe('tracked files', () => {
  const files = checkoutFiles(ROOT).flatMap((path) => {
    try {
      return [{ path, bytes: statSync(join(ROOT, path)).size }];
    } catch {
      return []; // deleted in the working tree, not yet committed
    }
  });

  it('no tracked file is over 1 MB and no path has a segment "undefined"', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(trackedFileFindings(files)).toEqual([]);
  });

  it('the rule catches a large file and an "undefined" folder, and passes an allowed name', () => {
    expect(
      trackedFileFindings([
        { path: 'undefined/wink-sg-100d.v1.bin', bytes: 10 },
        { path: 'src/big.json', bytes: 1_000_001 },
        { path: 'src/undefined-handling.ts', bytes: 900 },
        { path: 'docs/img/a.png', bytes: 1_000_000 },
      ]),
    ).toEqual([
      'undefined/wink-sg-100d.v1.bin: a path segment is "undefined"',
      'src/big.json: 1000001 bytes, over 1000000 (pull or build it; or allow it with its reason)',
    ]);
  });

  it('every allowed large file is still tracked (the list does not outlive its files)', () => {
    const tracked = new Set(files.map((f) => f.path));
    expect([...LARGE_FILES_ALLOWED.keys()].filter((p) => !tracked.has(p))).toEqual([]);
  });

  it('the citation check reads every tracked text file, data files included, and no binary one', () => {
    const text = trackedTextFiles(ROOT);
    expect(text).toContain('src/classify/data/zh-questions.jsonl');
    expect(text).toContain('LICENSE');
    expect(text).toContain('.ci/run');
    expect(text.filter((f) => /\.(png|onnx)$/.test(f))).toEqual([]);
  });

  it("no shipped file defaults to a folder of one machine's workspace (../shared)", () => {
    const shipped = [...sourcesUnder(ROOT, ['src', 'baselines', 'bin'], /\.(ts|js|mjs)$/)].filter(
      ([path]) => !isTestFile(path),
    );
    expect(shipped.length).toBeGreaterThan(100);
    expect(shipped.filter(([, text]) => text.includes('../shared')).map(([path]) => path)).toEqual([]);
  });
});
