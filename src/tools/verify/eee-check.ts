/**
 * The Every Eval Ever files of a bundle against the pinned 0.3.0 schemas (src/tools/bundle/schemas): every
 * aggregate log and every instance line validates, each aggregate's `detailed_evaluation_results` names its
 * samples file with the right sha256 and line count, and every line carries its aggregate's evaluation_id and
 * model_id (the links the upstream datastore gate checks). Returns the parsed documents for the value checks.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eeeValidators } from '../bundle/eee-schema.ts';
import { EEE_DIR } from '../bundle/ids.ts';
import { type Manifest, sha256Bytes } from '../bundle/manifest.ts';
import type { Checks } from './checks.ts';

export type Doc = Record<string, unknown>;

export interface EeeResult {
  /** Bundle path of the aggregate → its parsed log. */
  aggregates: Map<string, Doc>;
  /** Bundle path of the samples file → its parsed lines. */
  samples: Map<string, Doc[]>;
}

function parseLines(path: string, text: string): { lines: Doc[]; error?: string } {
  const lines: Doc[] = [];
  const raw = text.split('\n');
  if (raw.at(-1) === '') raw.pop();
  for (const [i, line] of raw.entries()) {
    try {
      lines.push(JSON.parse(line) as Doc);
    } catch {
      return { lines, error: `${path} line ${i + 1}: not JSON` };
    }
  }
  return { lines };
}

/** Checks one aggregate and its samples; keeps what parses (for the value checks) even when a check fails. */
function checkOne(dir: string, path: string, out: EeeResult): string | undefined {
  const v = eeeValidators();
  const log = JSON.parse(readFileSync(join(dir, path), 'utf8')) as Doc;
  out.aggregates.set(path, log);
  const d = (log.detailed_evaluation_results ?? {}) as { file_path: string; checksum: string; total_rows: number };
  const samplesPath = `${EEE_DIR}/${d.file_path}`;
  const bytes = readFileSync(join(dir, samplesPath));
  const { lines, error } = parseLines(samplesPath, bytes.toString('utf8'));
  out.samples.set(samplesPath, lines);
  const err = v.aggregate(log);
  if (err) return `${path}: ${err}`;
  if (error) return error;
  for (const [i, line] of lines.entries()) {
    const e = v.instance(line);
    if (e) return `${samplesPath} line ${i + 1}: ${e}`;
    if (line.evaluation_id !== log.evaluation_id || line.model_id !== (log.model_info as Doc).id) {
      return `${samplesPath} line ${i + 1}: evaluation_id/model_id differ from ${path}'s`;
    }
  }
  if (lines.length !== d.total_rows)
    return `${path}: field detailed_evaluation_results.total_rows ${d.total_rows}, the file has ${lines.length}`;
  if (sha256Bytes(bytes) !== d.checksum)
    return `${path}: field detailed_evaluation_results.checksum is not ${samplesPath}'s sha256`;
  return undefined;
}

export function checkEee(dir: string, m: Manifest, checks: Checks): EeeResult {
  const out: EeeResult = { aggregates: new Map(), samples: new Map() };
  const aggregates = m.files.map((f) => f.path).filter((p) => p.startsWith(`${EEE_DIR}/`) && p.endsWith('.json'));
  let first: string | undefined;
  for (const path of aggregates) {
    let problem: string | undefined;
    try {
      problem = checkOne(dir, path, out);
    } catch (err) {
      problem = `${path}: ${(err as Error).message}`;
    }
    first ??= problem;
  }
  if (first) {
    checks.add('schema (EEE 0.3.0)', false, first);
    return out;
  }
  const lines = [...out.samples.values()].reduce((n, l) => n + l.length, 0);
  checks.add(
    'schema (EEE 0.3.0)',
    true,
    `${aggregates.length} aggregate logs and ${lines} instance lines valid at ${m.eee?.repo}@${m.eee?.commit?.slice(0, 12)}`,
  );
  return out;
}
