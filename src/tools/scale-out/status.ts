/**
 * `adaptmr status <results dir>`: each shard of a split run (`<dir>/shard-<i>.duckdb`, as `adaptmr launch` writes
 * them) read from its own files, never from the scheduler — queued (no file yet), running (a live writer holds its
 * row spool or the database), done, stopped (its budget part), failed (the run recorded a failure, or its process is
 * gone with the run unfinished: rerunning the shard resumes it) — with the questions written and the dollars paid.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { errorMessage } from '../../core/errors.ts';
import { openResultStore } from '../../store/index.ts';
import { shardOf } from '../../store/meta.ts';
import { readSpool, spoolBusy, spoolPathOf } from '../../store/spool.ts';

export type ShardState = 'queued' | 'running' | 'done' | 'stopped' | 'failed';

export interface ShardStatus {
  index: number;
  file: string;
  state: ShardState;
  questions: number;
  costUsd: number;
  /** Why a shard is failed or running, when its files say more than the state. */
  note?: string;
}

const SHARD_FILE = /^shard-(\d+)\.duckdb$/u;

/** The shard indices present in `dir` (a file or a spool). */
function present(dir: string): number[] {
  const indices = new Set<number>();
  for (const name of existsSync(dir) ? readdirSync(dir) : []) {
    const m = SHARD_FILE.exec(name.replace(/\.spool$/u, ''));
    if (m) indices.add(Number(m[1]));
  }
  return [...indices].sort((a, b) => a - b);
}

/** Every shard 1..n of the run in `dir` (n: `shards`, else the count a shard's file records, else the highest seen). */
export async function shardStatuses(dir: string, shards?: number): Promise<ShardStatus[]> {
  const indices = present(dir);
  const statuses = new Map<number, ShardStatus>();
  let recorded: number | undefined;
  for (const i of indices) {
    const s = await shardStatus(join(dir, `shard-${i}.duckdb`), i);
    statuses.set(i, s.status);
    recorded ??= s.count;
  }
  const n = shards ?? recorded ?? Math.max(0, ...indices);
  return Array.from({ length: Math.max(n, ...indices) }, (_, k) => {
    const i = k + 1;
    return (
      statuses.get(i) ?? { index: i, file: join(dir, `shard-${i}.duckdb`), state: 'queued', questions: 0, costUsd: 0 }
    );
  });
}

async function shardStatus(file: string, index: number): Promise<{ status: ShardStatus; count?: number }> {
  const spool = spoolPathOf(file);
  if (existsSync(spool)) return { status: fromSpool(spool, file, index) };
  if (!existsSync(file)) return { status: { index, file, state: 'queued', questions: 0, costUsd: 0 } };
  let store: Awaited<ReturnType<typeof openResultStore>>;
  try {
    store = await openResultStore(file, { readOnly: true });
  } catch (err) {
    // The writer of a run that writes the database directly holds its lock.
    const note = errorMessage(err).split('\n')[0] ?? '';
    return { status: { index, file, state: 'running', questions: 0, costUsd: 0, note } };
  }
  try {
    const [run] = await store.query<{ status: string; n: number; cost: number }>(
      `SELECT r.status, (SELECT count(*) FROM questions q WHERE q.run_id = r.run_id) AS n,
        (SELECT coalesce(sum(cost_usd), 0) FROM llm_calls c WHERE c.run_id = r.run_id AND NOT c.cached) AS cost
       FROM runs r ORDER BY r.started_at DESC LIMIT 1`,
    );
    const meta = await shardOf(store);
    const status = run?.status ?? 'running';
    // Readable, so no process holds it: a run still marked running was killed.
    const state: ShardState = status === 'done' || status === 'stopped' ? status : 'failed';
    const note =
      status === 'running' ? 'its process ended before the run did; run the shard again to resume' : undefined;
    const costUsd = Number(run?.cost ?? 0);
    return {
      status: { index, file, state, questions: Number(run?.n ?? 0), costUsd, ...(note ? { note } : {}) },
      ...(meta ? { count: meta.count } : {}),
    };
  } finally {
    await store.close();
  }
}

function fromSpool(spool: string, file: string, index: number): ShardStatus {
  const contents = readSpool(spool);
  let questions = 0;
  let costUsd = 0;
  for (const b of contents.batches()) {
    questions++;
    for (const c of b.llmCalls ?? []) if (!c.cached) costUsd += c.costUsd;
  }
  const busy = contents.header ? spoolBusy(spool, contents.header.owner) : 'starting';
  if (busy) return { index, file, state: 'running', questions, costUsd };
  const note = 'its process ended before the run did; run the shard again to resume';
  return { index, file, state: 'failed', questions, costUsd, note };
}

/** One line per shard and a total. */
export function formatStatuses(statuses: readonly ShardStatus[]): string {
  const lines = statuses.map(
    (s) =>
      `shard ${s.index}/${statuses.length}  ${s.state.padEnd(7)}  ${String(s.questions).padStart(6)} questions  $${s.costUsd.toFixed(4)}  ${s.file}${s.note ? `  (${s.note})` : ''}`,
  );
  const by = (state: ShardState): number => statuses.filter((s) => s.state === state).length;
  const total = statuses.reduce((n, s) => n + s.questions, 0);
  const cost = statuses.reduce((n, s) => n + s.costUsd, 0);
  lines.push(
    `${by('done')} done, ${by('running')} running, ${by('queued')} queued, ${by('stopped')} stopped, ${by('failed')} failed; ${total} questions, $${cost.toFixed(4)} paid`,
  );
  return lines.join('\n');
}
