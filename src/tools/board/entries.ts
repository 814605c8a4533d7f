/**
 * A board's rows, read from bundles: one per (bundle, run, dataset, method) — the memory system's aggregate log,
 * its headline cell (the instance lines' `evaluation_result_id`) with the per-type means and CIs of that cell, the
 * comparability key the bundle's manifest gives for its run and dataset, and the bundle's verification mark
 * (verified: signed and every check passed; unsigned: every check passed, no signature; failed: the first failure).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ComparabilityKey, Manifest } from '../bundle/manifest.ts';
import { verifyBundle } from '../verify/verify.ts';

export type Mark = 'verified' | 'unsigned' | 'failed';

export interface Cell {
  mean: number;
  low: number;
  high: number;
  n: number;
}

export interface BoardEntry {
  bundle: string;
  runId: string;
  dataset: string;
  method: string;
  flags: string[];
  headline: { id: string; name: string; basis: string };
  /** AdaptMR type (and `all`) → the headline cell. */
  cells: Map<string, Cell>;
  key: ComparabilityKey;
  mark: Mark;
  why: string;
}

type Doc = Record<string, unknown>;

async function markOf(dir: string): Promise<{ mark: Mark; why: string; manifest: Manifest }> {
  const checks = await verifyBundle(dir, { print: () => {} });
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Manifest;
  const failed = checks.failed;
  if (failed) return { mark: 'failed', why: `${failed.name}: ${failed.detail}`, manifest };
  if (!manifest.signature) return { mark: 'unsigned', why: 'every check passed; no signature', manifest };
  return {
    mark: 'verified',
    why: `signed by ${manifest.signature.fingerprint.slice(0, 16)}…, every check passed`,
    manifest,
  };
}

function entryOf(
  dir: string,
  log: Doc,
  firstLine: Doc,
  m: Manifest,
  mark: { mark: Mark; why: string },
): BoardEntry | undefined {
  const meta = firstLine.metadata as Record<string, string>;
  const run = m.runs.find((r) => r.run_id === meta.run_id);
  const ds = run?.datasets.find((d) => d.name === meta.dataset);
  if (!run || !ds) return undefined;
  const headId = String(firstLine.evaluation_result_id ?? '');
  const prefix = headId.slice(0, headId.lastIndexOf('/') + 1);
  const cells = new Map<string, Cell>();
  let headline = { id: prefix, name: headId, basis: '' };
  for (const r of log.evaluation_results as Doc[]) {
    const id = String(r.evaluation_result_id);
    if (!id.startsWith(prefix) || id.slice(prefix.length).includes('/')) continue;
    const s = r.score_details as {
      score: number;
      uncertainty: { confidence_interval: { lower: number; upper: number }; num_samples: number };
    };
    cells.set(id.slice(prefix.length), {
      mean: s.score,
      low: s.uncertainty.confidence_interval.lower,
      high: s.uncertainty.confidence_interval.upper,
      n: s.uncertainty.num_samples,
    });
    const mc = r.metric_config as Doc;
    headline = { id: prefix, name: String(mc.metric_name), basis: String(mc.evaluation_description) };
  }
  const info = (log.model_info as Doc).additional_details as Record<string, string>;
  const flags = [
    info.upper_bound === 'true' ? 'saw the gold type' : '',
    info.degraded && info.degraded !== 'no' ? `degraded: ${info.degraded}` : '',
  ].filter(Boolean);
  return {
    bundle: dir,
    runId: run.run_id,
    dataset: ds.name,
    method: meta.method ?? '',
    flags,
    headline,
    cells,
    key: ds.comparability,
    ...mark,
  };
}

/** Every row of a bundle (verified first). */
export async function bundleEntries(dir: string): Promise<BoardEntry[]> {
  const { manifest, ...mark } = await markOf(dir);
  const out: BoardEntry[] = [];
  for (const f of manifest.files.filter((x) => x.path.startsWith('eee/') && x.path.endsWith('.json'))) {
    const log = JSON.parse(readFileSync(join(dir, f.path), 'utf8')) as Doc;
    const samples = join(dir, 'eee', String((log.detailed_evaluation_results as Doc).file_path));
    const first = readFileSync(samples, 'utf8').split('\n', 1)[0];
    if (!first) continue;
    const e = entryOf(dir, log, JSON.parse(first) as Doc, manifest, mark);
    if (e) out.push(e);
  }
  return out;
}
