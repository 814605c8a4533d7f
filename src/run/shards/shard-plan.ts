/**
 * Splitting one run over machines (`adaptmr run --shard i/n`): by haystack group, never by question, so every
 * haystack is indexed — and a memory server ingests it — in one shard only. Groups are weighted by their share of
 * their dataset's work (questions × haystack bytes when each group has a file or folder of its own, as chat folders and
 * LongMemEval's per-question files do; questions alone otherwise), then dealt largest first to the least loaded shard
 * (Graham's LPT rule, within 4/3 of the best split). Ties break on dataset and group key, so every machine computes
 * the same split from the catalog alone.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { CatalogEntry } from '../../data/index.ts';
import type { Shard } from '../sweep/shard.ts';

export interface ShardGroup {
  dataset: string;
  /** The haystack group: a conversation, chat or trajectory, or the question itself. */
  key: string;
  questionIds: string[];
  /** Its share of the work; a dataset's groups sum to its number of questions. */
  weight: number;
}

/** The selected questions of one dataset, grouped by haystack and weighted. */
export function haystackGroups(dataset: string, kept: readonly CatalogEntry[]): ShardGroup[] {
  const byKey = new Map<string, CatalogEntry[]>();
  for (const c of kept) {
    const key = c.haystack ?? c.questionId;
    const list = byKey.get(key);
    if (list) list.push(c);
    else byKey.set(key, [c]);
  }
  const entries = [...byKey.entries()];
  const bytes = ownFileBytes(entries.map(([, list]) => list));
  const raw = entries.map(([, list], i) => list.length * (bytes ? bytes[i]! : 1));
  const total = raw.reduce((a, b) => a + b, 0);
  const scale = total > 0 ? kept.length / total : 0;
  return entries.map(([key, list], i) => ({
    dataset,
    key,
    questionIds: list.map((c) => c.questionId),
    weight: raw[i]! * scale,
  }));
}

/** Each group's file size (a folder: its files, two levels deep), when no two groups share a file; else undefined. */
function ownFileBytes(groups: readonly CatalogEntry[][]): number[] | undefined {
  const files = groups.map((list) => new Set(list.map((c) => c.file)));
  if (files.some((f) => f.size !== 1 || f.has(undefined))) return undefined;
  const names = files.map((f) => [...f][0]!);
  if (new Set(names).size !== names.length) return undefined;
  try {
    return names.map((f) => Math.max(1, sizeOf(f, 2)));
  } catch {
    return undefined; // unreadable: the reader reports it; the split falls back to question counts
  }
}

function sizeOf(path: string, depth: number): number {
  const st = statSync(path);
  if (!st.isDirectory()) return st.size;
  if (depth === 0) return 0;
  return readdirSync(path).reduce((n, name) => n + sizeOf(join(path, name), depth - 1), 0);
}

/** The 0-based shard of each group: largest first onto the least loaded shard (ties: dataset, key, shard index). */
export function assignShards(groups: readonly ShardGroup[], count: number): number[] {
  const order = groups
    .map((g, i) => ({ g, i }))
    .sort((a, b) => b.g.weight - a.g.weight || cmp(a.g.dataset, b.g.dataset) || cmp(a.g.key, b.g.key));
  const load = new Array<number>(count).fill(0);
  const shardOf = new Array<number>(groups.length).fill(0);
  for (const { g, i } of order) {
    let best = 0;
    for (let s = 1; s < count; s++) if (load[s]! < load[best]!) best = s;
    load[best]! += g.weight;
    shardOf[i] = best;
  }
  return shardOf;
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The question ids of `shard` per dataset, and the share of the run's weight it holds. */
export function shardSelection(
  groups: readonly ShardGroup[],
  shard: Shard,
): { ids: Map<string, Set<string>>; share: number; groups: number } {
  const shardOf = assignShards(groups, shard.count);
  const ids = new Map<string, Set<string>>();
  let mine = 0;
  let total = 0;
  let count = 0;
  groups.forEach((g, i) => {
    total += g.weight;
    if (!ids.has(g.dataset)) ids.set(g.dataset, new Set());
    if (shardOf[i] !== shard.index - 1) return;
    mine += g.weight;
    count++;
    for (const id of g.questionIds) ids.get(g.dataset)!.add(id);
  });
  return { ids, share: total > 0 ? mine / total : 0, groups: count };
}
