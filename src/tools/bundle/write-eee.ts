/**
 * Writes the Every Eval Ever part of a bundle: for each (run, dataset, method) its `{uuid}_samples.jsonl` (one line
 * per question, in question-id order) and then its aggregate `{uuid}.json` (which carries the samples' sha256 and
 * line count). Each document is checked against the pinned schema as it is written: a bundle that would not
 * validate is never produced.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { InputError } from '../../core/errors.ts';
import { aggregateLog } from './eee-aggregate.ts';
import { instanceLine } from './eee-instance.ts';
import { eeeValidators } from './eee-schema.ts';
import { type Cell, instanceHeadline } from './headline.ts';
import { EEE_DIR, type EvalKey, aggregatePath, samplesPath } from './ids.ts';
import { type Results, type RunFacts, keyOf } from './load-results.ts';
import { metricLabel } from './metric-basis.ts';
import { sha256Bytes } from './manifest.ts';
import type { Config } from './config-facts.ts';

export interface DatasetFacts {
  hashes: ReadonlyMap<string, string>;
  contentSha256: string;
}

function cellsOf(r: Results, run: string, dataset: string): Cell[] {
  const seen = new Map<string, Cell>();
  for (const [key, rows] of r.scores) {
    if (!key.startsWith(`${run}\t${dataset}\t`)) continue;
    for (const s of rows) {
      const c = { level: String(s.level), metric: String(s.metric), k: (s.k as number | null) ?? null };
      seen.set(`${c.level}\t${c.metric}\t${c.k}`, c);
    }
  }
  return [...seen.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, c]) => c);
}

function write(dir: string, rel: string, text: string): void {
  const file = join(dir, EEE_DIR, rel);
  mkdirSync(dirname(file), { recursive: true });
  const bytes = Buffer.from(text, 'utf8');
  writeFileSync(file, bytes);
}

function checked(kind: 'aggregate' | 'instance', doc: unknown, where: string): void {
  const err = eeeValidators()[kind](doc);
  if (err) throw new InputError(`would not validate against the EEE ${kind} schema: ${err}`, where);
}

export interface ResultDocs {
  key: EvalKey;
  lines: Record<string, unknown>[];
  samplesText: string;
  log: Record<string, unknown>;
}

/** The instance lines and aggregate log of one (run, dataset, method), as `bundle` writes them and `verify` recomputes them. */
export function buildResult(
  r: Results,
  run: RunFacts,
  config: Config,
  key: EvalKey,
  facts: DatasetFacts,
  headline: Cell,
): ResultDocs {
  const method = r.methods.find((m) => m.run_id === run.run_id && m.method === key.method)!;
  const questions = r.questions.filter((q) => q.run_id === run.run_id && q.dataset === key.dataset);
  const evaluationName = `${key.dataset} ${metricLabel(headline.metric, headline.level, headline.k)} [all]`;
  const lines = questions.map((q) => {
    const qk = keyOf(run.run_id, key.dataset, q.question_id, key.method);
    return instanceLine({
      key,
      question: q,
      headline,
      evaluationName,
      retrieval: r.retrievals.get(qk),
      answer: r.answers.get(qk),
      scores: r.scores.get(qk) ?? [],
      verdicts: r.verdicts.get(qk) ?? [],
      usage: r.usage.get(qk),
      contentSha256: facts.hashes.get(q.question_id) ?? '',
    });
  });
  const samplesText = lines.map((l) => `${JSON.stringify(l)}\n`).join('');
  const log = aggregateLog({
    key,
    run,
    config,
    method,
    cis: r.cis.get(keyOf(run.run_id, key.dataset, key.method)) ?? [],
    samples: { checksum: sha256Bytes(Buffer.from(samplesText, 'utf8')), rows: lines.length },
    datasetContentSha256: facts.contentSha256,
    questions: questions.length,
  });
  return { key, lines, samplesText, log };
}

/** Every (run, dataset, method) result of a results file, in a fixed order. */
export function* results(r: Results, facts: ReadonlyMap<string, DatasetFacts>): Generator<ResultDocs> {
  for (const run of r.runs) {
    const config = JSON.parse(run.config_json) as Config;
    const datasets = [...new Set(r.questions.filter((q) => q.run_id === run.run_id).map((q) => q.dataset))];
    for (const dataset of datasets) {
      const cells = cellsOf(r, run.run_id, dataset);
      if (cells.length === 0) continue;
      const headline = instanceHeadline(config, dataset, cells);
      for (const m of r.methods.filter((x) => x.run_id === run.run_id)) {
        if (!r.cis.has(keyOf(run.run_id, dataset, m.method))) continue;
        const key = { runId: run.run_id, dataset, method: m.method };
        const f = facts.get(keyOf(run.run_id, dataset)) ?? { hashes: new Map(), contentSha256: '' };
        yield buildResult(r, run, config, key, f, headline);
      }
    }
  }
}

/** Writes every result's samples file and aggregate log, each checked against the schema; returns their bundle paths. */
export function writeEee(dir: string, r: Results, facts: ReadonlyMap<string, DatasetFacts>): string[] {
  const out: string[] = [];
  for (const doc of results(r, facts)) {
    for (const [i, line] of doc.lines.entries()) checked('instance', line, `${samplesPath(doc.key)} line ${i + 1}`);
    checked('aggregate', doc.log, aggregatePath(doc.key));
    write(dir, samplesPath(doc.key), doc.samplesText);
    write(dir, aggregatePath(doc.key), `${JSON.stringify(doc.log, null, 2)}\n`);
    out.push(`${EEE_DIR}/${samplesPath(doc.key)}`, `${EEE_DIR}/${aggregatePath(doc.key)}`);
  }
  return out;
}
