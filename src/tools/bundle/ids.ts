/**
 * Names inside a bundle. Every Eval Ever lays a result out as `data/<collection>/<developer>/<model>/<uuid>.json`
 * with its instances beside it in `<uuid>_samples.jsonl`, the uuid a canonical UUIDv4
 * (evaleval/every_eval_ever@9bce4136e789ec006c62582f5f9d107d20f8b398 .agents/skills/eee-dataset-conversion/reference/instance-level.md).
 * Here the collection is the dataset, the developer `adaptmr-bench`, the model the method id; the uuid is derived
 * from (run, dataset, method) — version and variant bits set as v4 requires — so bundling the same results twice
 * names every file the same (the import round trip compares hashes).
 */
import { sha256 } from '../../core/hash.ts';

export const DEVELOPER = 'adaptmr-bench';
export const EEE_DIR = 'eee';

export interface EvalKey {
  runId: string;
  dataset: string;
  method: string;
}

/** The aggregate's and its instances' `evaluation_id`. */
export const evaluationId = (k: EvalKey): string => `${k.runId}/${k.dataset}/${k.method}`;

/** The memory system's id in the schema's Hugging Face form `developer/model`. */
export const modelId = (method: string): string => `${DEVELOPER}/${method}`;

/** A deterministic UUIDv4-shaped id of (run, dataset, method). */
export function evaluationUuid(k: EvalKey): string {
  const h = sha256(evaluationId(k)).slice(0, 32).split('');
  h[12] = '4';
  h[16] = ((Number.parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
  const s = h.join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20, 32)}`;
}

/** A path segment: what a file system and a URL both take unchanged. */
const segment = (s: string): string => s.replace(/[^A-Za-z0-9._-]/gu, '_');

/** The repository-relative folder of a result (EEE's `file_path` is relative to the datastore root). */
export const resultFolder = (k: EvalKey): string => `data/${segment(k.dataset)}/${DEVELOPER}/${segment(k.method)}`;

export const aggregatePath = (k: EvalKey): string => `${resultFolder(k)}/${evaluationUuid(k)}.json`;
export const samplesPath = (k: EvalKey): string => `${resultFolder(k)}/${evaluationUuid(k)}_samples.jsonl`;

/** A result cell's `evaluation_result_id`. */
export const resultId = (c: { level: string; metric: string; k: number | null; adaptType: string }): string =>
  `${c.level}/${c.metric}${c.k === null ? '' : `@${c.k}`}/${c.adaptType}`;
