/**
 * The plan-experiment example of docs/architecture.md ("Adding a plan experiment: the whole file") is the shipped
 * entry it names, code for code (its header comment aside), so the page cannot drift from the contract; the shipped
 * file itself is type-checked by tsc and run by the conformance suite.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');

/** The code of a TypeScript text without its leading comments. */
const code = (text: string): string => text.replace(/^(\s*(\/\/[^\n]*|\/\*[\s\S]*?\*\/)\s*)+/, '').trim();

describe('docs/architecture.md plan-experiment example', () => {
  it('is the shipped entry it names', () => {
    const page = readFileSync(join(ROOT, 'docs', 'architecture.md'), 'utf8');
    const block = /```ts\n([\s\S]*?)```/.exec(
      page.slice(page.indexOf('## Adding a plan experiment: the whole file')),
    )?.[1];
    expect(block).toBeDefined();
    const path = /^\/\/ (src\/plan-experiments\/[^ ]+\.ts)/.exec(block!)?.[1];
    expect(path).toBe('src/plan-experiments/efficiency/index.ts');
    expect(code(block!)).toBe(code(readFileSync(join(ROOT, path!), 'utf8')));
  });
});
