/**
 * A sharded run's datasets (`--shard i/n`, shard-plan.ts): each dataset keeps only the questions of this shard's
 * haystack groups, and its folder reader only their files. A dataset may keep no question in a shard; it stays in
 * the plan (its data hashes are part of every shard's provenance, which merge compares).
 */
import { type CatalogEntry, filesOf } from '../../data/index.ts';
import type { DatasetPlan } from '../run-dataset.ts';
import { haystackGroups, shardSelection } from '../shards/shard-plan.ts';
import type { RunShard } from '../shards/shard-source.ts';

export function applyShard(
  plans: DatasetPlan[],
  catalogs: readonly CatalogEntry[][],
  shard: RunShard,
  log: (line: string) => void,
): void {
  const groups = plans.flatMap((plan, i) =>
    haystackGroups(
      plan.source.name,
      catalogs[i]!.filter((c) => plan.selected.has(c.questionId)),
    ),
  );
  const { ids, share, groups: mine } = shardSelection(groups, shard);
  const before = plans.reduce((n, p) => n + p.selected.size, 0);
  plans.forEach((plan, i) => {
    const keep = ids.get(plan.source.name) ?? new Set<string>();
    plan.selected = keep;
    const files = filesOf(catalogs[i]!.filter((c) => keep.has(c.questionId)));
    if (plan.files) plan.files = files ?? new Set();
  });
  const after = plans.reduce((n, p) => n + p.selected.size, 0);
  log(
    `shard ${shard.index}/${shard.count} (from ${shard.from}): ${mine} of ${groups.length} haystack groups, ` +
      `${after} of ${before} questions, ${(share * 100).toFixed(1)}% of the work`,
  );
}
