/**
 * House style kept by a tool: Biome (biome.json) formats and lints every TypeScript file of the repository. This
 * test runs `biome check` so a change that breaks the format or a lint rule fails `npm test` (and the fast tier);
 * `npm run format` rewrites the files, `npm run lint` prints the findings.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const BIOME = join(ROOT, 'node_modules', '@biomejs', 'biome', 'bin', 'biome');

function biome(args: string[], cwd = ROOT): { status: number | null; out: string } {
  const r = spawnSync(process.execPath, [BIOME, ...args], { cwd, encoding: 'utf8' });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

describe('format and lint', () => {
  it('biome check passes on the repository', () => {
    const r = biome(['check', '--max-diagnostics=20']);
    expect(r.status, r.out).toBe(0);
  });

  it('biome check with these settings fails on a badly formatted file and on a lint finding, and passes clean ones', () => {
    const dir = mkdtempSync(join(tmpdir(), 'adaptmr-biome-'));
    try {
      const { vcs: _vcs, $schema: _schema, ...config } = JSON.parse(readFileSync(join(ROOT, 'biome.json'), 'utf8'));
      writeFileSync(join(dir, 'biome.json'), JSON.stringify(config));
      mkdirSync(join(dir, 'src'));
      writeFileSync(join(dir, 'src', 'clean.ts'), "export const a = { b: '记忆' };\n");
      expect(biome(['check', 'src'], dir).status).toBe(0);
      writeFileSync(join(dir, 'src', 'bad-format.ts'), 'export const a = {b:"记忆"}\n');
      writeFileSync(join(dir, 'src', 'bad-lint.ts'), 'export function f(): void {\n  debugger;\n}\n');
      const r = biome(['check', '--max-diagnostics=20', 'src'], dir);
      expect(r.status).not.toBe(0);
      expect(r.out).toMatch(/src\/bad-format\.ts format/);
      expect(r.out).toMatch(/src\/bad-lint\.ts:2:3 lint\/suspicious\/noDebugger/);
      expect(r.out).not.toMatch(/src\/clean\.ts/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
