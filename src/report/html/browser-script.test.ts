/**
 * The report page's browser script is a typed module (src/report/html/browser/, its own tsconfig.json: DOM, no
 * Node): it type-checks under that config, bundles for the browser, and formats points with the verdict rule's own
 * `points` (src/eval/verdicts/rule.ts) — the bundle holds that module and no second copy of the rule's format.
 */
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { bundleBrowserScript } from './browser-script.ts';

const CONFIG = join(import.meta.dirname, 'browser', 'tsconfig.json');

describe('the page browser script', () => {
  it('type-checks as browser code (DOM, no Node types)', () => {
    const parsed = ts.getParsedCommandLineOfConfigFile(
      CONFIG,
      {},
      { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
    );
    expect(parsed?.options.lib).toEqual(['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts']);
    expect(parsed?.fileNames.some((f) => f.endsWith('browser/main.ts'))).toBe(true);
    const program = ts.createProgram(parsed?.fileNames ?? [], { ...parsed?.options, noEmit: true });
    const errors = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(errors).toEqual([]);
  });

  it('bundles into one script that takes the verdict rule from its module, imported by the browser code', () => {
    const out = buildSync({
      entryPoints: [join(import.meta.dirname, 'browser', 'main.ts')],
      bundle: true,
      write: false,
      metafile: true,
      format: 'iife',
      platform: 'browser',
      logLevel: 'silent',
    });
    const inputs = Object.keys(out.metafile.inputs);
    expect(inputs).toContain('src/eval/verdicts/rule.ts');
    expect(inputs.every((p) => p.startsWith('src/report/html/browser/') || p === 'src/eval/verdicts/rule.ts')).toBe(
      true,
    );
    const script = bundleBrowserScript();
    expect(script).toMatch(/^"use strict";\n\(\(\) => \{/);
    // The signed-points format appears once: rule.ts's `points`.
    expect(script.match(/Math\.abs\(x \* 100\)\.toFixed\(1\)/g)).toHaveLength(1);
  });
});
