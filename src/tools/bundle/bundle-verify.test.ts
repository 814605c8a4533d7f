// The quick start's results → `adaptmr bundle` → `adaptmr verify` passes with every check printed; one number
// changed in one instance line, one Parquet cell or one manifest byte fails verification naming it; a bundle
// signed by another key fails; bundle → import → bundle gives the same file hashes; a board of two bundles on the
// same sample shares one table and a bundle on another sample is shown apart. (Full tier: reads LoCoMo and
// LongMemEval S.)
import { spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadedFromValue } from '../../run/config/load-config.ts';
import { REPO_ROOT } from '../../run/record/provenance.ts';
import { runExperiment } from '../../run/runner.ts';
import { openResultStore } from '../../store/index.ts';
import { TEST_DATA_DIR } from '../../../test/data-path.ts';
import { writeBoard } from '../board/commands.ts';
import { verifyBundle } from '../verify/verify.ts';
import { writeBundle } from './bundle.ts';
import { importBundle } from './import.ts';
import type { Manifest } from './manifest.ts';
import { loadPublicKey, signManifest } from './sign.ts';

const dir = mkdtempSync(join(tmpdir(), 'adaptmr-bundle-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const key = () => generateKeyPairSync('ed25519').privateKey;
const [key1, key2] = [key(), key()];
const pem = (k: ReturnType<typeof key>): string => String(k.export({ type: 'pkcs8', format: 'pem' }));

type Cfg = { datasets: { name: string; sample: { perType: number } }[] } & Record<string, unknown>;
const read = (name: string): Cfg => parse(readFileSync(join(REPO_ROOT, 'experiments', name), 'utf8')) as Cfg;

async function run(file: string, out: string, perType: number, only?: string): Promise<void> {
  const value = read(file);
  const datasets = value.datasets.filter((d) => !only || d.name === only).map((d) => ({ ...d, sample: { perType } }));
  await runExperiment(loadedFromValue({ ...value, datasets }, file), {
    out,
    dataDir: TEST_DATA_DIR,
    progress: false,
    log: () => {},
  });
}

const bundle = (results: string, out: string, k = key1) =>
  writeBundle(results, { out, key: k, dataDir: TEST_DATA_DIR, command: 'test' });

async function verify(b: string, publicKey?: string): Promise<{ lines: string[]; failed: string | undefined }> {
  const lines: string[] = [];
  const checks = await verifyBundle(b, {
    print: (l) => lines.push(l),
    publicKey: publicKey ? loadPublicKey(publicKey) : undefined,
  });
  const f = checks.failed;
  return { lines, failed: f ? `${f.name}: ${f.detail}` : undefined };
}

const copy = (from: string, name: string): string => {
  const to = join(dir, name);
  cpSync(from, to, { recursive: true });
  return to;
};
const manifestOf = (b: string): Manifest => JSON.parse(readFileSync(join(b, 'manifest.json'), 'utf8')) as Manifest;

const A = join(dir, 'a');
beforeAll(async () => {
  await run('quickstart.yaml', join(dir, 'a.duckdb'), 3);
  await bundle(join(dir, 'a.duckdb'), A);
}, 300_000);

describe('bundle and verify, from the quick start', () => {
  it('verifies: every check printed and passed, signed by the key used, files valid against the pinned EEE schemas', async () => {
    const { lines, failed } = await verify(A, pem(key1));
    expect(failed).toBeUndefined();
    const names = lines.map((l) => l.slice(6, 28).trim());
    expect(names).toEqual(
      expect.arrayContaining([
        'signature',
        'file hashes',
        'schema (EEE 0.3.0)',
        'instances + aggregates',
        'dataset content',
        'recompute score_cis',
        'recompute comparisons',
        'recompute verdicts',
        'totals',
      ]),
    );
    expect(lines.every((l) => l.startsWith('ok'))).toBe(true);
    expect(lines.join('\n')).toMatch(/instance lines valid at evaleval\/every_eval_ever@9bce4136e789/u);
    const m = manifestOf(A);
    expect(m.runs[0]!.experiment_file?.path).toBe('experiments/quickstart.yaml');
    expect(m.runs[0]!.datasets.map((d) => d.name).sort()).toEqual(['locomo', 'longmemeval-s']);
    expect(m.files.some((f) => f.path === 'tables/scores.parquet')).toBe(true);
    expect(JSON.stringify(m)).not.toContain('PRIVATE KEY');
  });

  it('fails naming the line and field when one number of one instance line changes', async () => {
    const b = copy(A, 'jsonl');
    const f = manifestOf(b).files.find((x) => x.path.includes('/bm25/') && x.path.endsWith('_samples.jsonl'))!;
    const lines = readFileSync(join(b, f.path), 'utf8').split('\n');
    const line = JSON.parse(lines[1]!) as { metadata: { scores: string } };
    const scores = JSON.parse(line.metadata.scores) as unknown[][];
    scores[0]![3] = 1 - Number(scores[0]![3]);
    line.metadata.scores = JSON.stringify(scores);
    lines[1] = JSON.stringify(line);
    writeFileSync(join(b, f.path), lines.join('\n'));
    const { lines: out, failed } = await verify(b);
    expect(failed).toContain(`${f.path}: sha256`);
    expect(out.join('\n')).toContain(`${f.path} line 2 (question`);
    expect(out.join('\n')).toContain('field metadata.scores[0][3]');
  });

  it('fails naming the table, row and column when one Parquet cell of a derived table changes', async () => {
    const b = copy(A, 'parquet');
    const file = join(b, 'tables/comparisons.parquet');
    const store = await openResultStore(join(dir, 'edit.duckdb'));
    await store.query(`CREATE TABLE t AS SELECT * FROM read_parquet('${file}')`);
    await store.query(`UPDATE t SET p_holm = p_holm / 2 WHERE rowid = 4`);
    await store.query(`COPY (SELECT * FROM t ORDER BY rowid) TO '${file}' (FORMAT parquet)`);
    await store.close();
    const { lines, failed } = await verify(b);
    expect(failed).toContain('tables/comparisons.parquet: sha256');
    expect(lines.join('\n')).toMatch(/tables\/comparisons\.parquet row 5 column p_holm: /u);
  });

  it('fails when one byte of the manifest changes, and when another key signed it', async () => {
    const b = copy(A, 'manifest');
    const bytes = readFileSync(join(b, 'manifest.json'));
    const at = bytes.indexOf('"seed": ') + 8;
    bytes[at] = bytes[at]! ^ 1; // a digit of the seed: still JSON
    writeFileSync(join(b, 'manifest.json'), bytes);
    expect((await verify(b)).failed).toMatch(/^signature: manifest.sig is not a valid signature of manifest.json/u);

    const other = copy(A, 'other-key');
    writeFileSync(join(other, 'manifest.sig'), signManifest(readFileSync(join(other, 'manifest.json')), key2));
    expect((await verify(other)).failed).toMatch(/^signature: manifest.sig is not a valid signature/u);

    const resigned = join(dir, 'resigned');
    await bundle(join(dir, 'a.duckdb'), resigned, key2);
    expect((await verify(resigned)).failed).toBeUndefined();
    expect((await verify(resigned, pem(key1))).failed).toMatch(
      /^signature: signed by key [0-9a-f]{64}, not the expected/u,
    );
  });

  it('round-trips: bundle → import → bundle gives the same file hashes', async () => {
    const back = join(dir, 'back.duckdb');
    await importBundle(A, back);
    const again = join(dir, 'again');
    await bundle(back, again);
    const hashes = (b: string) => manifestOf(b).files.map((f) => `${f.path} ${f.sha256}`);
    expect(hashes(again)).toEqual(hashes(A));
    expect(manifestOf(again).runs.map((r) => r.datasets.map((d) => d.content_sha256))).toEqual(
      manifestOf(A).runs.map((r) => r.datasets.map((d) => d.content_sha256)),
    );
  });

  it('boards two bundles of other methods on the same sample together, and one on another sample apart', async () => {
    await run('quickstart-oracle.yaml', join(dir, 'b.duckdb'), 3, 'locomo');
    await run('quickstart.yaml', join(dir, 'c.duckdb'), 2, 'locomo');
    await bundle(join(dir, 'b.duckdb'), join(dir, 'b'));
    await bundle(join(dir, 'c.duckdb'), join(dir, 'c'));
    const html = join(dir, 'board.html');
    const groups = await writeBoard([A, join(dir, 'b'), join(dir, 'c')], html);
    const locomo = groups.filter((g) => g.dataset === 'locomo');
    const main = locomo.find((g) => !g.apart)!;
    expect(new Set(main.entries.map((e) => e.bundle))).toEqual(new Set([A, join(dir, 'b')]));
    expect(main.entries.map((e) => e.method)).toEqual(expect.arrayContaining(['bm25', 'strategy-temporal']));
    const apart = locomo.filter((g) => g.apart);
    expect(apart).toHaveLength(1);
    expect(apart[0]!.entries.every((e) => e.bundle === join(dir, 'c'))).toBe(true);
    expect(apart[0]!.apart).toMatch(/^other questions or data: dataset-content hash/u);
    expect(main.entries.every((e) => e.mark === 'verified')).toBe(true);
    const page = readFileSync(html, 'utf8');
    expect(page).toContain("default-src 'none'");
    expect(page).not.toContain('<script');
    expect(page).toContain('Shown apart: other questions or data');
    expect(page).toContain('recall_any@10 (turn level)');
  }, 300_000);

  it('--rerun computes the offline run again and finds a changed score cell', async () => {
    const lines: string[] = [];
    const ok = await verifyBundle(A, { rerun: true, dataDir: TEST_DATA_DIR, print: (l) => lines.push(l) });
    expect(ok.failed).toBeUndefined();
    expect(lines.filter((l) => l.includes('rerun'))).toEqual([
      expect.stringMatching(/^ok {4}rerun .*every ranking and score equal$/u),
    ]);

    const b = copy(A, 'rerun-scores');
    const file = join(b, 'tables/scores.parquet');
    const store = await openResultStore(join(dir, 'edit-scores.duckdb'));
    await store.query(`CREATE TABLE t AS SELECT * FROM read_parquet('${file}')`);
    await store.query(`UPDATE t SET value = 1 - value WHERE rowid = 7`);
    await store.query(`COPY (SELECT * FROM t ORDER BY rowid) TO '${file}' (FORMAT parquet)`);
    await store.close();
    const again: string[] = [];
    await verifyBundle(b, { rerun: true, dataDir: TEST_DATA_DIR, print: (l) => again.push(l) });
    expect(again.find((l) => l.includes('rerun'))).toMatch(/^FAIL {2}rerun .*scores \(.*\) value: /u);
    expect(again.join('\n')).toMatch(/FAIL {2}file hashes +tables\/scores\.parquet: sha256/u);
  }, 300_000);

  it('the CLI exits non-zero and names the first failure', () => {
    const b = copy(A, 'cli');
    writeFileSync(join(b, 'tables/runs.parquet'), 'not parquet');
    const r = spawnSync(process.execPath, [join(REPO_ROOT, 'bin/adaptmr.js'), 'verify', b], { encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/verify failed: file hashes: tables\/runs\.parquet: sha256/u);
  }, 120_000);
});
