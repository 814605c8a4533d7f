/**
 * The text and date of the units the drill-down lists, read back from the dataset rather than stored in the results
 * file. Why: a results file records each ranked unit's id and session (`retrievals.unit_ids`, `unit_session_ids`)
 * and the sha256 of every data file the run read (`runs.dataset_hashes`), which is enough to find the unit again —
 * so existing results files get text without a re-run or a schema change, results files stay free of dataset text
 * (size; datasets' own licences), and the check by hash makes sure the text shown is the text the method ranked.
 * When the dataset is not found or its files no longer match the run's hashes, the drill-down shows ids only and
 * says why (`notes`).
 *
 * A unit id is a session id (session units), a turn id (turn units) or `<session>#r<n>` (rounds,
 * src/index/units.ts); the preview is the first lines of that session, turn or round with roles / speakers, and the
 * date the session's. Memory servers' own memory ids are not dataset units and stay ids.
 */
import { z } from 'zod';
import { loadDataset, resolveDataDir, resolveDataset, hashDatasetFiles, type DatasetSource } from '../../data/index.ts';
import type { Session, Turn } from '../../core/types.ts';
import { oneLine, userFacingMessage } from '../../core/errors.ts';
import { DatasetRefSchema, type DatasetRef } from '../../core/config.ts';
import type { ResultStore } from '../../store/index.ts';
import type { UnitTexts } from './browser/payload.ts';

/** Characters of a unit's preview (its first lines, each turn on its own line). */
export const PREVIEW_CHARS = 240;
/** Lines of a unit's preview. */
export const PREVIEW_LINES = 3;

/** `dataset\tquestion` → unit id → [date, preview] (declared with the page's payload, browser/payload.ts). */
export type { UnitTexts };

export interface LoadedUnitTexts {
  units: UnitTexts;
  /** Per dataset, why its units have no text (not found, hashes differ). */
  notes: string[];
}

const StoredRun = z
  .object({
    dataDir: z.string().optional(),
    datasets: z.array(z.object({ name: z.string().optional(), path: z.string().optional() }).passthrough()),
  })
  .passthrough();

const Hashes = z.record(z.string(), z.object({ files: z.array(z.object({ path: z.string(), sha256: z.string() })) }));

const line = (t: Turn): string => `${t.speaker || t.role}: ${t.text.replace(/\s+/gu, ' ').trim()}`;

/** The first lines, at most PREVIEW_CHARS characters (code points: a character is never split), `…` when cut. */
function preview(turns: readonly Turn[]): string {
  const text = turns.slice(0, PREVIEW_LINES).map(line).join('\n');
  const chars = Array.from(text);
  if (chars.length > PREVIEW_CHARS) return `${chars.slice(0, PREVIEW_CHARS - 1).join('')}…`;
  return turns.length > PREVIEW_LINES ? `${text}\n…` : text;
}

/** Rounds as src/index/units.ts numbers them: each user turn opens one; assistant turns before the first form one. */
function rounds(turns: readonly Turn[]): Turn[][] {
  const out: Turn[][] = [];
  for (const t of turns) {
    if (t.role === 'user' || out.length === 0) out.push([t]);
    else out[out.length - 1]!.push(t);
  }
  return out;
}

/** Every unit id a haystack can give at any granularity → [date, preview]. */
function unitsOf(haystack: readonly Session[], wanted: ReadonlySet<string>): Record<string, [string, string]> {
  const out: Record<string, [string, string]> = {};
  for (const s of haystack) {
    if (wanted.has(s.id)) out[s.id] = [s.at, preview(s.turns)];
    for (const t of s.turns) if (wanted.has(t.id)) out[t.id] = [t.at || s.at, preview([t])];
    rounds(s.turns).forEach((r, i) => {
      const id = `${s.id}#r${i + 1}`;
      if (wanted.has(id)) out[id] = [s.at, preview(r)];
    });
  }
  return out;
}

/** Whether the dataset's files now are the files the run hashed (every stored file, same sha256). */
async function sameFiles(source: DatasetSource, stored: { path: string; sha256: string }[]): Promise<boolean> {
  const now = await hashDatasetFiles(source);
  const bySha = new Set(now.map((d) => d.sha256));
  return stored.length > 0 && stored.every((f) => bySha.has(f.sha256));
}

/**
 * Unit texts for the drill-down's questions: `wanted` maps `dataset\tquestion` to the unit ids listed for it.
 * `dataDir` as `adaptmr run` takes it (flag, then ADAPTMR_DATA_DIR, then the run's config, then the defaults).
 */
export async function loadUnitTexts(
  store: ResultStore,
  wanted: ReadonlyMap<string, ReadonlySet<string>>,
  dataDir?: string,
): Promise<LoadedUnitTexts> {
  const runs = await store.query<{ run_id: string; config_json: string; dataset_hashes: string | null }>(
    'SELECT run_id, config_json, dataset_hashes FROM runs ORDER BY started_at',
  );
  const datasets = [...new Set([...wanted.keys()].map((k) => k.split('\t')[0]!))].sort();
  const units: UnitTexts = {};
  const notes: string[] = [];
  for (const dataset of datasets) {
    const ids = [...wanted.keys()].filter((k) => k.startsWith(`${dataset}\t`)).map((k) => k.slice(dataset.length + 1));
    let done = false;
    let why = 'no run of the file names it in its config';
    for (const run of runs) {
      const cfg = StoredRun.safeParse(JSON.parse(run.config_json));
      const hashes = Hashes.safeParse(run.dataset_hashes ? JSON.parse(run.dataset_hashes) : {});
      if (!cfg.success || !hashes.success || !hashes.data[dataset]) continue;
      const dir = resolveDataDir({ flag: dataDir, config: cfg.data.dataDir });
      for (const ref of cfg.data.datasets) {
        const parsed = DatasetRefSchema.safeParse(ref);
        if (!parsed.success) continue;
        let source: DatasetSource;
        try {
          source = resolveDataset(parsed.data, dir);
        } catch {
          why = `not found under ${dir}`;
          continue;
        }
        if (source.name !== dataset) continue;
        try {
          if (!(await sameFiles(source, hashes.data[dataset].files))) {
            why = `its files under ${source.path} differ from the ones the run read (sha256)`;
            continue;
          }
          // The whole dataset's questions by id: the run's sample / limit selected them already.
          const { sample: _s, limit: _l, questionIds: _q, index: _i, methods: _m, ...rest } = parsed.data;
          const { instances } = await loadDataset({ ...rest, questionIds: ids } as DatasetRef, dir);
          for (const inst of instances) {
            const key = `${dataset}\t${inst.query.id}`;
            units[key] = unitsOf(inst.haystack, wanted.get(key) ?? new Set());
          }
          done = true;
        } catch (e) {
          why = oneLine(userFacingMessage(e) ?? String(e));
        }
        break;
      }
      if (done) break;
    }
    if (!done) notes.push(`${dataset}: unit text not shown — ${why}`);
  }
  return { units, notes };
}
