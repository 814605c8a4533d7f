/**
 * Verdicts on a method run with `replicates: n` (src/run/config/replicates.ts) use its replicate-averaged per-question score
 * (docs/statistics.md): the replicates `<id>:r1` … `<id>:rn` of a run become one method `<id>` whose score on each
 * question (per metric, level and k) is the mean of the replicates' scores on it, so a paired test compares the
 * system's expected score per question, not one lucky or unlucky run. The method's facts are its first replicate's
 * (degraded if any replicate is); its retrieval facts (latency, ranking) are the first replicate's. Inputs without
 * replicates are returned unchanged.
 */
import { parseReplicateId } from '../../core/replicate-id.ts';
import type { ScoreInput } from '../stats/results/index.ts';
import type { VerdictInput } from './context.ts';

/** `runId\tmethod` → the base id, for every replicate method. */
function replicateBases(input: VerdictInput): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of input.methods) {
    const rep = parseReplicateId(m.method);
    if (rep) out.set(`${m.runId}\t${m.method}`, rep.base);
  }
  return out;
}

function averagedScores(scores: readonly ScoreInput[], bases: Map<string, string>): ScoreInput[] {
  const out: ScoreInput[] = [];
  const groups = new Map<string, { row: ScoreInput; sum: number; n: number }>();
  for (const s of scores) {
    const base = bases.get(`${s.runId}\t${s.method}`);
    if (base === undefined) {
      out.push(s);
      continue;
    }
    const key = [s.runId, s.dataset, s.questionId, base, s.granularity, s.level, s.metric, s.k ?? ''].join('\t');
    const g = groups.get(key);
    if (g) {
      g.sum += s.value;
      g.n += 1;
    } else groups.set(key, { row: { ...s, method: base }, sum: s.value, n: 1 });
  }
  for (const g of groups.values()) out.push({ ...g.row, value: g.sum / g.n });
  return out;
}

/** The verdict input with each replicated method collapsed to its replicate-averaged self (see the file header). */
export function averageReplicates(input: VerdictInput): VerdictInput {
  const bases = replicateBases(input);
  if (bases.size === 0) return input;
  const first = (runId: string, method: string) =>
    parseReplicateId(method)?.replicate === 1 && bases.has(`${runId}\t${method}`);
  const degraded = new Map<string, string>();
  for (const m of input.methods) {
    const base = bases.get(`${m.runId}\t${m.method}`);
    if (base !== undefined && m.degraded !== null && !degraded.has(`${m.runId}\t${base}`)) {
      degraded.set(`${m.runId}\t${base}`, m.degraded);
    }
  }
  const methods = input.methods.flatMap((m) => {
    const base = bases.get(`${m.runId}\t${m.method}`);
    if (base === undefined) return [m];
    if (!first(m.runId, m.method)) return [];
    return [{ ...m, method: base, degraded: degraded.get(`${m.runId}\t${base}`) ?? null }];
  });
  const retrievals = input.retrievals.flatMap((r) => {
    const base = bases.get(`${r.runId}\t${r.method}`);
    if (base === undefined) return [r];
    return first(r.runId, r.method) ? [{ ...r, method: base }] : [];
  });
  const runs = input.runs.map((run) => {
    const seen = new Set<string>();
    const methods = run.methods.flatMap((m) => {
      const rep = parseReplicateId(m.id);
      if (!rep || !bases.has(`${run.runId}\t${m.id}`)) return [m];
      if (seen.has(rep.base)) return [];
      seen.add(rep.base);
      return [{ ...m, id: rep.base }];
    });
    return { ...run, methods };
  });
  return { ...input, scores: averagedScores(input.scores, bases), methods, retrievals, runs };
}
