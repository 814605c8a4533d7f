/**
 * The README is the front door, so what it shows must hold: at most 200 lines, every relative link (its own and every
 * Markdown page's) names a file of the repository, and its "a method in TypeScript" example type-checks against
 * src/core and ranks as it says. The example is written under node_modules/.cache (so `zod` resolves and no
 * repository scan sees it) with its imports pointed at the real src/core files.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import type { MemoryIndex, MethodFactoryContext } from '../src/core/interfaces.ts';
import type { MemoryUnit, Query } from '../src/core/types.ts';
import { trackedTextFiles } from './citations.ts';

const ROOT = join(import.meta.dirname, '..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** The README's TypeScript example, with its `../../src/…` imports made absolute. */
function methodExample(): string {
  const block = /```ts\n([\s\S]*?)```/.exec(README)?.[1];
  if (!block) throw new Error('README.md has no ```ts block');
  return block.replace(/from '\.\.\/\.\.\/(src\/[^']+)'/g, (_m, p: string) => `from '${join(ROOT, p)}'`);
}

describe('README.md', () => {
  it('is at most 200 lines', () => {
    expect(README.split('\n').length).toBeLessThanOrEqual(200);
  });

  it('links only to files the repository has, as does every Markdown page', () => {
    const pages = trackedTextFiles(ROOT).filter((f) => f.endsWith('.md'));
    expect(pages).toContain('README.md');
    const broken: string[] = [];
    let links = 0;
    for (const page of pages) {
      // Links inside fenced code are examples, not links.
      const text = readFileSync(join(ROOT, page), 'utf8').replace(/```[\s\S]*?```/g, '');
      for (const m of text.matchAll(/\]\(([^)#\s]+)(#[^)]*)?\)/g)) {
        const target = m[1]!;
        if (/^[a-z]+:/.test(target)) continue;
        links++;
        if (!existsSync(resolve(ROOT, dirname(page), target))) broken.push(`${page} → ${target}`);
      }
    }
    expect(links).toBeGreaterThan(50);
    expect(broken).toEqual([]);
  });

  it('its method example type-checks and returns the k newest units, newest first', async () => {
    const dir = join(ROOT, 'node_modules', '.cache', `readme-example-${process.pid}`);
    const file = join(dir, 'recency-method.ts');
    mkdirSync(dirname(file), { recursive: true });
    try {
      writeFileSync(file, methodExample());
      const options = ts.parseJsonConfigFileContent(
        ts.readConfigFile(join(ROOT, 'tsconfig.json'), ts.sys.readFile).config,
        ts.sys,
        ROOT,
      ).options;
      const program = ts.createProgram([file], options);
      const errors = ts
        .getPreEmitDiagnostics(program)
        .filter((d) => d.file?.fileName === file)
        .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      expect(errors).toEqual([]);

      const { recencyEntry } = await import(pathToFileURL(file).href);
      expect(recencyEntry.name).toBe('recency');
      const method = recencyEntry.create(recencyEntry.optionsSchema.parse({}), { k: 2 } as MethodFactoryContext);
      const unit = (id: string, at: string) => ({ id, at, text: `会话 ${id}` }) as unknown as MemoryUnit;
      const index = { units: [unit('a', '2023-05-01'), unit('c', '2023-07-01'), unit('b', '2023-06-01')] };
      const out = await method.run({ text: '最近聊了什么?' } as Query, index as unknown as MemoryIndex, {} as never);
      expect(out.retrieval.units.map((u: { unit: MemoryUnit }) => u.unit.id)).toEqual(['c', 'b']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
