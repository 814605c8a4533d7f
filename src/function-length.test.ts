/**
 * No function in the orchestration (`src/run/`, its subfolders included) is longer than 60 lines, so each step of the
 * run reads on one screen (docs/architecture.md). Counted with the TypeScript parser: every function-like node with a
 * body — declarations, methods, constructors, accessors, arrow functions and function expressions, nested ones
 * included — from its first token (after its doc comment) to its closing brace, blank and comment lines included.
 * Tests and test fixtures are exempt. Every other shipped function — src/, baselines/, benchmarks/, scripts/, bin/,
 * examples/, TypeScript and JavaScript — is held to the charter's 80 lines.
 */
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { isTestFile, sourcesUnder } from '../test/source-files.ts';

const ROOT = join(import.meta.dirname, '..');
export const MAX_FUNCTION_LINES = 60;
const CHECKED = ['src/run'];
export const MAX_SHIPPED_LINES = 80;
const SHIPPED = ['src', 'baselines', 'benchmarks', 'scripts', 'bin', 'examples'];

/** The functions longer than `max` lines, one line each (`file:line name (N lines)`). `files` maps paths to source. */
export function longFunctions(files: ReadonlyMap<string, string>, max = MAX_FUNCTION_LINES): string[] {
  const out: string[] = [];
  for (const [path, text] of files) {
    if (isTestFile(path)) continue;
    const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
    const lineOf = (pos: number) => source.getLineAndCharacterOfPosition(pos).line + 1;
    const visit = (node: ts.Node): void => {
      if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
        const first = lineOf(node.getStart(source));
        const lines = lineOf(node.getEnd()) - first + 1;
        if (lines > max) out.push(`${path}:${first} ${nameOf(node, source)} (${lines} lines)`);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return out;
}

function nameOf(node: ts.SignatureDeclaration, source: ts.SourceFile): string {
  if (node.name) return node.name.getText(source);
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent))
    return parent.name.getText(source);
  return ts.isArrowFunction(node) ? '(arrow function)' : '(function expression)';
}

describe('function length', () => {
  it(`no function in ${CHECKED.join(', ')} is longer than ${MAX_FUNCTION_LINES} lines`, () => {
    const files = sourcesUnder(ROOT, CHECKED, /\.ts$/);
    expect(files.size).toBeGreaterThan(30);
    expect([...files.keys()].some((p) => p.startsWith('src/run/session/'))).toBe(true);
    expect(longFunctions(files)).toEqual([]);
  });

  it(`no shipped function (${SHIPPED.join(', ')}) is longer than ${MAX_SHIPPED_LINES} lines`, () => {
    const files = sourcesUnder(ROOT, SHIPPED, /\.(ts|mts|js|mjs)$/);
    for (const p of ['benchmarks/beam/', 'baselines/', 'scripts/', 'bin/adaptmr.js', 'examples/'])
      expect([...files.keys()].some((f) => f.startsWith(p))).toBe(true);
    expect(longFunctions(files, MAX_SHIPPED_LINES)).toEqual([]);
  });

  it('the checker counts every kind of function, nested ones included, from its first line to its last', () => {
    const body = (n: number) => Array.from({ length: n }, (_, i) => `  x${i}();`).join('\n');
    // A function of n lines: its opening line, n − 2 statements, its closing brace.
    const cases = new Map([
      [
        'src/run/declared.ts',
        `/** doc */\nexport function sixtyOne() {\n${body(59)}\n}\nfunction sixty() {\n${body(58)}\n}`,
      ],
      ['src/run/arrow.ts', `const go = async () => {\n${body(59)}\n};`],
      ['src/run/method.ts', `class A {\n  run(): void {\n${body(59)}\n  }\n  constructor() {\n${body(59)}\n  }\n}`],
      ['src/run/nested.ts', `function outer() {\n  items.map(function () {\n${body(61)}\n  });\n}`],
      ['src/run/skipped.test.ts', `function long() {\n${body(100)}\n}`],
    ]);
    expect(longFunctions(cases)).toEqual([
      'src/run/declared.ts:2 sixtyOne (61 lines)',
      'src/run/arrow.ts:1 go (61 lines)',
      'src/run/method.ts:2 run (61 lines)',
      'src/run/method.ts:63 constructor (61 lines)',
      'src/run/nested.ts:1 outer (65 lines)',
      'src/run/nested.ts:2 (function expression) (63 lines)',
    ]);
  });
});
