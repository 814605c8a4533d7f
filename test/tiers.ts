/**
 * The two test tiers (vitest.config.ts projects `fast` and `full`; CONTRIBUTING.md):
 *   fast  every test file that needs no full dataset, no browser and no Jupyter — `npm run test:fast`;
 *   full  the rest — `npm test` runs both tiers.
 * A file's tier is read from what it imports, so a new test file lands in the right tier without a list to edit: a file
 * whose imports (followed through the repository's own modules, static and dynamic) reach
 *   - test/data-path.ts (the one way tests read the real datasets),
 *   - puppeteer-core (headless Chromium), or
 *   - a `jupyter` / `jupyter-nbconvert` process
 * is full-tier. FULL_ALSO lists the few files that need none of these but are too slow for the fast tier, each with
 * its reason.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** Test files that need no data, browser or notebook but take too long for the fast tier, with the reason. */
export const FULL_ALSO: Readonly<Record<string, string>> = {
  'test/bad-inputs/bad-inputs.test.ts': 'slow: 120 bad inputs, each through a CLI process (~4 min on 2 cores)',
  'src/store/merge-kill.test.ts': 'slow: kills merge processes at many points (~35 s)',
};

const IMPORT =
  /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s*['"]([^'"]+)['"]/gm;
const BROWSER = /from\s*['"]puppeteer-core['"]/;
/** A `jupyter` / `jupyter-nbconvert` process started (not the word in a string: a list of Debian packages is not a notebook). */
const NOTEBOOK = /\b(?:spawn|spawnSync|exec|execSync|execFile|execFileSync)\(\s*['"]jupyter(?:-nbconvert)?['"]/;

/** Why a file is full-tier, or undefined when it is fast. */
export type TierReason = 'full data' | 'browser' | 'notebook' | string;

function localImports(file: string, source: string): string[] {
  const out: string[] = [];
  for (const m of source.matchAll(IMPORT)) {
    const spec = (m[1] ?? m[2] ?? m[3])!;
    if (!spec.startsWith('.')) continue;
    const target = resolve(dirname(file), spec);
    for (const candidate of [target, `${target}.ts`, join(target, 'index.ts')]) {
      if (/\.(ts|mjs|js)$/.test(candidate) && existsSync(candidate)) {
        out.push(candidate);
        break;
      }
    }
  }
  return out;
}

/** Classifies test files by what they reach; one instance caches each module's own marker and imports. */
export class TierScanner {
  private readonly own = new Map<string, { reason: TierReason | null; imports: string[] }>();
  private readonly dataHelper: string;
  constructor(private readonly root: string) {
    this.dataHelper = resolve(root, 'test/data-path.ts');
  }

  private facts(file: string): { reason: TierReason | null; imports: string[] } {
    let f = this.own.get(file);
    if (!f) {
      const source = readFileSync(file, 'utf8');
      const reason =
        file === this.dataHelper
          ? 'full data'
          : BROWSER.test(source)
            ? 'browser'
            : NOTEBOOK.test(source)
              ? 'notebook'
              : null;
      f = { reason, imports: localImports(file, source) };
      this.own.set(file, f);
    }
    return f;
  }

  /** The reason a module or anything it imports needs the full tier; null when none does. */
  reason(file: string): TierReason | null {
    const seen = new Set<string>([file]);
    const stack = [file];
    while (stack.length > 0) {
      const f = this.facts(stack.pop()!);
      if (f.reason) return f.reason;
      for (const dep of f.imports)
        if (!seen.has(dep)) {
          seen.add(dep);
          stack.push(dep);
        }
    }
    return null;
  }

  /** The full-tier test files among `files` (absolute paths), repository-relative, with their reasons. */
  fullTier(files: readonly string[]): Map<string, TierReason> {
    const out = new Map<string, TierReason>();
    for (const f of files) {
      const rel = relative(this.root, f);
      const why = FULL_ALSO[rel] ?? this.reason(f);
      if (why) out.set(rel, why);
    }
    return out;
  }
}

/** Every test file under the given folders (repository-relative folder names). */
export function testFiles(root: string, folders: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.name === 'node_modules' || e.name.startsWith('.')) continue;
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.test.ts')) out.push(p);
    }
  };
  for (const f of folders) if (existsSync(join(root, f))) walk(join(root, f));
  return out.sort();
}
