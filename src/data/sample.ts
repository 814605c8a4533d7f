/**
 * Seeded stratified sampling by AdaptMR type: per type, ids are sorted, shuffled with a seeded Fisher–Yates
 * (pure-rand xoroshiro128+), and the first `perType` kept; a type with fewer questions keeps them all. The same
 * catalog and seed always give the same set, whatever order the catalog came in.
 */
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import type { AdaptType } from '../core/types.ts';
import type { CatalogEntry } from './catalog.ts';
import { compareIds } from './sort.ts';

export function stratifiedSample(catalog: readonly CatalogEntry[], perType: number, seed: number): Set<string> {
  const byType = new Map<AdaptType, string[]>();
  for (const c of catalog) {
    const list = byType.get(c.adaptType) ?? [];
    list.push(c.questionId);
    byType.set(c.adaptType, list);
  }
  const chosen = new Set<string>();
  // One generator per type, seeded from (seed, type) so adding a type elsewhere does not shift another's draw.
  for (const type of [...byType.keys()].sort()) {
    const ids = byType.get(type)!.sort(compareIds);
    let typeSeed = seed | 0;
    for (const ch of type) typeSeed = (Math.imul(typeSeed, 31) + ch.charCodeAt(0)) | 0;
    const rng = xoroshiro128plus(typeSeed);
    for (let i = ids.length - 1; i > 0; i--) {
      const j = uniformInt(rng, 0, i);
      [ids[i], ids[j]] = [ids[j]!, ids[i]!];
    }
    for (const id of ids.slice(0, perType)) chosen.add(id);
  }
  return chosen;
}
