/**
 * Every script that loads a dataset or runs an experiment installs the benchmarks first: datasets are found through
 * the registry that `installBenchmarks()` (src/run/benchmark-registry.ts) fills, so a script that forgets it fails at
 * its first dataset with "no benchmark is installed" — as three bench scripts did after benchmarks became plug-ins.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** Imports that reach the installed benchmarks (datasets, the runner, methods, the classifier tools). */
const NEEDS_BENCHMARKS =
  /from '\.\.\/src\/(data\/index|run\/runner|run\/spend\/estimate|run\/methods\/[\w-]+|tools\/classifier\/[\w/-]+)\.ts'/;

/** The scripts (name → source) that need the benchmarks but never call installBenchmarks(). */
export function missingInstall(sources: Record<string, string>): string[] {
  return Object.entries(sources)
    .filter(([, src]) => NEEDS_BENCHMARKS.test(src) && !/await installBenchmarks\(\)/.test(src))
    .map(([name]) => name);
}

function scriptSources(): Record<string, string> {
  const dir = join(import.meta.dirname, '.');
  const files = readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
  return Object.fromEntries(files.map((f) => [f, readFileSync(join(dir, f), 'utf8')]));
}

describe('script entry points', () => {
  it('every script that loads data or runs methods installs the benchmarks', () => {
    expect(missingInstall(scriptSources())).toEqual([]);
  });

  it('the check catches a script that forgets, and passes one that does not', () => {
    const load = "import { loadDataset } from '../src/data/index.ts';\n";
    expect(
      missingInstall({
        'a.ts': load,
        'b.ts': `${load}import { installBenchmarks } from '../src/run/benchmark-registry.ts';\nawait installBenchmarks();\n`,
        'c.ts': "import { join } from 'node:path';\n",
      }),
    ).toEqual(['a.ts']);
  });
});
