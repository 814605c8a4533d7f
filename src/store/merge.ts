/**
 * Merges results files (the shards of a sweep, or runs of one experiment made on several machines) into one file.
 * Every input is checked first — a results file of this schema version (open-store.ts refuses others, naming the
 * file) holding the same experiment as every other input and as the output — so nothing is written when any
 * input is wrong. Rows are copied with DuckDB's ATTACH, one transaction per input:
 *   - tables with a primary key (runs, methods, questions, retrievals, answers, verdicts, probe_answers, gold_versions,
 *     checkpoints) keep the row already
 *     present (a run seen as `done` in any input ends `done`);
 *   - scores and llm_calls have no key; they are copied per (run, dataset, question, method) only when the output
 *     holds no row of that question and method yet — a question's rows are written atomically, so "some" means "all".
 * Merging the same files twice therefore adds no row. Derived tables (statistics, comparisons) are not copied:
 * `recompute` (when given) rebuilds them over the merged questions.
 *
 * The merge is built in a temporary file beside the output (a copy of it, when it exists) and renamed over it only
 * when complete: a merge killed or failing midway (a full disk) leaves the output as it was, and the same merge
 * can simply be run again. An output that is an input — by name, through a symlink or a hard link — is refused.
 * The shards of one run (`adaptmr run --shard i/n`) must all be given, of one config, commit and data (merge-shards.ts);
 * the merged file is whole (the shards' `shard` mark is not copied).
 */
import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, readdirSync, realpathSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { InputError, userFacingMessage } from '../core/errors.ts';
import { checkShardSet, readShardInput, type ShardInput } from './merge-shards.ts';
import { experimentOf, EXPERIMENT_META_KEY } from './meta.ts';
import { openResultStore } from './open-store.ts';
import type { ResultStore } from './types.ts';

export interface MergeOptions {
  /** Rebuilds derived tables over the merged file (statistics); called once, after every input is copied. */
  recompute?: (store: ResultStore) => Promise<void>;
}

export interface MergeSummary {
  out: string;
  experiment: string;
  inputs: number;
  /** Rows added per table by this merge. */
  added: Record<string, number>;
}

const KEYED = [
  'runs',
  'methods',
  'questions',
  'retrievals',
  'answers',
  'cutoff_answers',
  'answer_verdicts',
  'probe_answers',
  'gold_versions',
  'checkpoints',
] as const;
const PER_QUESTION = ['scores', 'llm_calls'] as const;

const sqlString = (s: string): string => `'${s.replaceAll("'", "''")}'`;

async function count(store: ResultStore, table: string): Promise<number> {
  const [row] = await store.query<{ n: number }>(`SELECT count(*) AS n FROM ${table}`);
  return row?.n ?? 0;
}

/** The file a path names in the end (a symlink followed), and its identity (device and inode) when it exists. */
function identity(path: string): { real: string; id?: string } {
  if (!existsSync(path)) return { real: resolve(path) };
  const st = statSync(path);
  return { real: realpathSync(path), id: `${st.dev}:${st.ino}` };
}

/** The experiment each input holds, refusing a mix (one line naming both files). */
async function checkInputs(files: readonly string[], out: string): Promise<string> {
  const target = identity(out);
  let first: { file: string; experiment: string } | undefined;
  const shards: ShardInput[] = [];
  for (const file of files) {
    const input = identity(file);
    if (input.real === target.real || (input.id !== undefined && input.id === target.id)) {
      const how =
        target.real !== resolve(out)
          ? `--out ${out} is a symlink to it`
          : input.real !== target.real
            ? `--out ${out} is a hard link of it`
            : `--out ${out} is this file`;
      throw new InputError(`an input is also the output of the merge (${how}); merge into a new file`, file);
    }
    const store = await openResultStore(file, { readOnly: true });
    try {
      const experiment = await experimentOf(store);
      if (experiment === null) throw new InputError('holds no run to merge', file);
      if (first && first.experiment !== experiment) {
        throw new InputError(
          `holds experiment "${experiment}", but ${first.file} holds "${first.experiment}"; merge files of one experiment`,
          file,
        );
      }
      first ??= { file, experiment };
      shards.push(await readShardInput(store, file));
    } finally {
      await store.close();
    }
  }
  if (!first) throw new InputError('name at least one results file to merge', 'merge');
  checkShardSet(shards);
  return first.experiment;
}

async function copyInput(store: ResultStore, file: string): Promise<void> {
  await store.query(`ATTACH ${sqlString(resolve(file))} AS src (READ_ONLY)`);
  try {
    await store.query('BEGIN TRANSACTION');
    try {
      await store.query(`INSERT INTO runs BY NAME SELECT * FROM src.runs
        ON CONFLICT (run_id) DO UPDATE SET
          status = CASE WHEN excluded.status = 'done' OR runs.status = 'done' THEN 'done' ELSE runs.status END,
          ended_at = CASE WHEN excluded.status = 'done' AND runs.status <> 'done' THEN excluded.ended_at ELSE runs.ended_at END`);
      for (const table of KEYED.filter((t) => t !== 'runs')) {
        await store.query(`INSERT OR IGNORE INTO ${table} BY NAME SELECT * FROM src.${table}`);
      }
      for (const table of PER_QUESTION) {
        await store.query(`INSERT INTO ${table} BY NAME SELECT s.* FROM src.${table} s
          WHERE NOT EXISTS (SELECT 1 FROM ${table} t WHERE t.run_id = s.run_id AND t.dataset = s.dataset
            AND t.question_id = s.question_id AND t.method = s.method)`);
      }
      await store.query('COMMIT');
    } catch (err) {
      await store.query('ROLLBACK');
      throw err;
    }
  } finally {
    await store.query('DETACH src');
  }
}

/** Merges `files` into `out` (created when missing; an existing output must hold the same experiment). */
export async function mergeResults(
  files: readonly string[],
  out: string,
  opts: MergeOptions = {},
): Promise<MergeSummary> {
  const experiment = await checkInputs(files, out);
  // A symlinked output is written where it points (the link stays a link).
  const target = identity(out).real;
  const tmp = join(dirname(target), `.${basename(target)}.${process.pid}-${randomBytes(4).toString('hex')}.merging`);
  const cleanup = (): void => {
    for (const f of [tmp, `${tmp}.wal`]) rmSync(f, { force: true });
  };
  removeAbandoned(target);
  try {
    if (existsSync(target)) {
      // Opened once as itself first: a killed run's spool or log is folded in (and a foreign log refused), so the
      // copy is the whole file.
      await (await openResultStore(target)).close();
      copyFileSync(target, tmp);
    }
    const summary = await mergeInto(tmp, files, experiment, opts);
    renameSync(tmp, target);
    return { ...summary, out };
  } catch (err) {
    cleanup();
    const line = userFacingMessage(err);
    throw line === undefined ? err : new InputError(line.replaceAll(tmp, target));
  }
}

/** Temporary files of earlier merges into `target` whose process is gone (killed): never an output, only clutter. */
function removeAbandoned(target: string): void {
  const base = basename(target).replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');
  const mine = new RegExp(`^\\.{1,2}${base}\\.(\\d+)-[0-9a-f]{8}\\.merging`, 'u');
  for (const name of readdirSync(dirname(target))) {
    const pid = Number(mine.exec(name)?.[1] ?? NaN);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      process.kill(pid, 0);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ESRCH') rmSync(join(dirname(target), name), { force: true });
    }
  }
}

async function mergeInto(
  out: string,
  files: readonly string[],
  experiment: string,
  opts: MergeOptions,
): Promise<MergeSummary> {
  const store = await openResultStore(out);
  try {
    const existing = await experimentOf(store);
    if (existing !== null && existing !== experiment) {
      throw new InputError(
        `holds experiment "${existing}", the inputs hold "${experiment}"; merge into a new file`,
        out,
      );
    }
    const tables = [...KEYED, ...PER_QUESTION];
    const before = Object.fromEntries(await Promise.all(tables.map(async (t) => [t, await count(store, t)] as const)));
    for (const file of files) await copyInput(store, file);
    await store.query(
      `INSERT OR REPLACE INTO meta VALUES (${sqlString(EXPERIMENT_META_KEY)}, ${sqlString(experiment)})`,
    );
    if (opts.recompute) await opts.recompute(store);
    const added: Record<string, number> = {};
    for (const t of tables) added[t] = (await count(store, t)) - (before[t] ?? 0);
    // Into the file itself before it is renamed into place (closing would checkpoint silently, errors unsaid).
    await store.query('CHECKPOINT');
    return { out, experiment, inputs: files.length, added };
  } finally {
    await store.close();
  }
}
