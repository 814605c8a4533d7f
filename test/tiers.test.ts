// The tier classifier on a small repository written here: a test reaching test/data-path.ts through a fixture module is
// full-tier, so are tests driving Chromium or Jupyter; a plain unit test, and one whose import cycle never reaches
// them, are fast. The listed slow files must exist (a renamed file would silently fall back to the fast tier).
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FULL_ALSO, TierScanner, testFiles } from './tiers.ts';

const root = mkdtempSync(join(tmpdir(), 'adaptmr-tiers-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
// The markers are assembled so this file's own source does not carry them (it would be full-tier itself).
const PUPPETEER = ['puppeteer', 'core'].join('-');
const JUPYTER = ['jup', 'yter'].join('');
const write = (rel: string, text: string): void => {
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  writeFileSync(join(root, rel), text);
};

describe('test tiers', () => {
  it('puts a file in the full tier when its imports reach the data helper, Chromium or Jupyter', () => {
    write('test/data-path.ts', "export const TEST_DATA_DIR = '';\n");
    write(
      'src/x/testing/fixture.ts',
      "import { TEST_DATA_DIR } from '../../../test/data-path.ts';\nexport const f = TEST_DATA_DIR;\n",
    );
    write('src/x/a.ts', "import { b } from './b.ts';\nexport const a = 1;\n");
    write('src/x/b.ts', "import { a } from './a.ts';\nexport const b = a;\n");
    write('src/x/data.test.ts', "import { f } from './testing/fixture.ts';\n");
    write('src/x/lazy.test.ts', "const m = await import('./testing/fixture.ts');\n");
    write('src/x/unit.test.ts', "import { a } from './a.ts';\nimport { describe } from 'vitest';\n");
    write('src/x/page.test.ts', `import puppeteer from '${PUPPETEER}';\n`);
    write(
      'src/x/nb.test.ts',
      `import { spawnSync } from 'node:child_process';\nspawnSync('${JUPYTER}', ['nbconvert']);\n`,
    );
    write(
      'src/x/mention.test.ts',
      `// reads no data; test/data-path.ts is only named here\nexport const packages = ['chromium', '${JUPYTER}-nbconvert'];\n`,
    );
    const files = testFiles(root, ['src', 'test']);
    expect(files.map((f) => f.slice(root.length + 1))).toEqual([
      'src/x/data.test.ts',
      'src/x/lazy.test.ts',
      'src/x/mention.test.ts',
      'src/x/nb.test.ts',
      'src/x/page.test.ts',
      'src/x/unit.test.ts',
    ]);
    expect(Object.fromEntries(new TierScanner(root).fullTier(files))).toEqual({
      'src/x/data.test.ts': 'full data',
      'src/x/lazy.test.ts': 'full data',
      'src/x/page.test.ts': 'browser',
      'src/x/nb.test.ts': 'notebook',
    });
  });

  it('lists only slow files that exist', () => {
    for (const file of Object.keys(FULL_ALSO))
      expect(existsSync(join(import.meta.dirname, '..', file)), file).toBe(true);
  });
});
