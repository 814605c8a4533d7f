/**
 * The benchmark example of docs/architecture.md ("Adding a benchmark: the whole file") type-checks against
 * src/core and scores as it says: exact match, English and Chinese, a native type outside its map unmapped. Written
 * under node_modules/.cache (so no repository scan sees it) with its imports pointed at the real src/core files.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import type { Benchmark } from '../src/core/benchmark.ts';

const ROOT = join(import.meta.dirname, '..');
const PAGE = readFileSync(join(ROOT, 'docs', 'architecture.md'), 'utf8');

/** The page's benchmark example, with its `../../src/…` imports made absolute. */
function benchmarkExample(): string {
  const section = PAGE.slice(PAGE.indexOf('## Adding a benchmark: the whole file'));
  const block = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
  if (!block) throw new Error('docs/architecture.md has no benchmark example');
  return block.replace(/from '\.\.\/\.\.\/(src\/[^']+)'/g, (_m, p: string) => `from '${join(ROOT, p)}'`);
}

describe('docs/architecture.md benchmark example', () => {
  it('type-checks and scores by exact match, English and Chinese', async () => {
    const dir = join(ROOT, 'node_modules', '.cache', `docs-benchmark-example-${process.pid}`);
    const file = join(dir, 'tiny-qa.ts');
    mkdirSync(dirname(file), { recursive: true });
    try {
      writeFileSync(file, benchmarkExample());
      const options = ts.parseJsonConfigFileContent(
        ts.readConfigFile(join(ROOT, 'tsconfig.json'), ts.sys.readFile).config,
        ts.sys,
        ROOT,
      ).options;
      const errors = ts
        .getPreEmitDiagnostics(ts.createProgram([file], options))
        .filter((d) => d.file?.fileName === file)
        .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      expect(errors).toEqual([]);

      const { tinyQa } = (await import(pathToFileURL(file).href)) as { tinyQa: Benchmark };
      expect(tinyQa.name).toBe('tiny-qa');
      expect(tinyQa.mapType('when', 'q1')).toEqual({ type: 'temporal' });
      expect(tinyQa.mapType('哪里', 'q2')).toEqual({ type: 'factual' });
      expect(tinyQa.mapType('why', 'q3')).toBeUndefined();
      const ask = (gold: string, hypothesis: string) =>
        tinyQa.qa.score(
          { protocol: 'tiny-qa', questionId: 'q', nativeType: 'what', question: '?', gold, hypothesis },
          undefined,
          { calls: [] },
        );
      expect((await ask('Paris', ' paris ')).metrics).toEqual({ accuracy: 1 });
      expect((await ask('北京', '北京')).metrics).toEqual({ accuracy: 1 });
      expect((await ask('北京', '上海')).metrics).toEqual({ accuracy: 0 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
