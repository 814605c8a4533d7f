/**
 * `adaptmr verify --submission`: what a leaderboard accepts beyond a bundle that verifies — complete runs only
 * (status done, no question left in error); every question of each run's sample present exactly once for every
 * method; the reader and every judge model pinned to a dated version (`gpt-4o-2024-08-06`, `…-20241022`) or a
 * digest; every memory-server image pinned by digest (no `--allow-unpinned`); no offline stand-in (a method marked
 * degraded) presented among the systems.
 */
import type { Manifest } from '../bundle/manifest.ts';
import type { Checks } from './checks.ts';
import type { Doc, EeeResult } from './eee-check.ts';

/** A model name pinned to one version: a date in it, or a digest. */
export const DATED = /(?:^|[-_@:.])(?:20\d{2}-\d{2}-\d{2}|20\d{6})(?:$|[-_.])|@sha256:[0-9a-f]{64}$/u;

function complete(m: Manifest, eee: EeeResult): string | undefined {
  const run = m.runs.find((r) => r.status !== 'done');
  if (run) return `run ${run.run_id} is ${run.status}, not done`;
  for (const [file, lines] of eee.samples) {
    const bad = lines.findIndex((l) => l.error !== null && l.error !== undefined);
    if (bad >= 0)
      return `${file} line ${bad + 1}: question ${String(lines[bad]!.sample_id)} ended in error (${String(lines[bad]!.error)})`;
  }
  return undefined;
}

function everyQuestionOnce(m: Manifest, eee: EeeResult): string | undefined {
  const sets = new Map<string, { file: string; ids: string }>();
  for (const [file, lines] of eee.samples) {
    const meta = (lines[0]?.metadata ?? {}) as Record<string, string>;
    const ids = lines.map((l: Doc) => String(l.sample_id));
    const dup = ids.find((id, i) => ids.indexOf(id) !== i);
    if (dup !== undefined) return `${file}: question ${dup} appears twice`;
    const declared = m.runs
      .find((r) => r.run_id === meta.run_id)
      ?.datasets.find((d) => d.name === meta.dataset)?.questions;
    if (declared !== ids.length) return `${file}: ${ids.length} questions, the run's sample has ${String(declared)}`;
    const key = `${meta.run_id}\t${meta.dataset}`;
    const joined = [...ids].sort().join('\n');
    const first = sets.get(key);
    if (first && first.ids !== joined) return `${file}: not the questions of ${first.file}`;
    sets.set(key, first ?? { file, ids: joined });
  }
  return undefined;
}

function modelsPinned(m: Manifest): string | undefined {
  for (const r of m.runs) {
    const models = r.models as { reader?: string | null; judges?: { id: string; model: string }[] };
    if (models.reader && !DATED.test(models.reader))
      return `run ${r.run_id}: reader model ${models.reader} names no dated version`;
    const j = (models.judges ?? []).find((x) => !DATED.test(x.model));
    if (j) return `run ${r.run_id}: judge ${j.id} model ${j.model} names no dated version`;
  }
  return undefined;
}

function systemsReal(m: Manifest): string | undefined {
  const img = m.images.find((i) => !i.pinned);
  if (img || m.allow_unpinned)
    return `method ${img?.method ?? '?'} runs ${img?.image ?? 'an unpinned image'}: a submission pins every image by digest`;
  for (const r of m.runs) {
    const stand = r.methods.find((x) => x.degraded !== null);
    if (stand)
      return `run ${r.run_id}: method ${stand.method} is an offline stand-in (${stand.degraded}), not the system it stands for`;
  }
  return undefined;
}

export function checkSubmission(m: Manifest, eee: EeeResult, checks: Checks): void {
  const rules: [string, () => string | undefined, string][] = [
    ['submission: complete', () => complete(m, eee), 'every run done, no question in error'],
    ['submission: questions', () => everyQuestionOnce(m, eee), "every question of each run's sample once per method"],
    ['submission: models', () => modelsPinned(m), 'reader and judges pinned to dated versions'],
    ['submission: systems', () => systemsReal(m), 'every image pinned by digest, no offline stand-in'],
  ];
  for (const [name, rule, ok] of rules) {
    const problem = rule();
    checks.add(name, !problem, problem ?? ok);
  }
}
