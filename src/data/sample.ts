/**
 * Seeded stratified sampling by AdaptMR type (a question outside the five types by its extra label, `stratum`): per type, ids are sorted, shuffled with a seeded Fisher–Yates
 * (pure-rand xoroshiro128+), and the first `perType` kept; a type with fewer questions keeps them all. The same
 * catalog and seed always give the same set, whatever order the catalog came in.
 */
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { stratum, type CatalogEntry } from './catalog.ts';
import { compareIds } from './sort.ts';

/**
 * Per AdaptMR type (in sorted type order), the type's ids sorted and then shuffled with a seeded Fisher–Yates; the
 * generator of each type is seeded from (seed, `salt(type)`), so adding a type elsewhere does not shift another's
 * draw, and different uses (sampling, calibration) draw independently through their salt.
 */
export function shuffledByType(
  catalog: readonly Pick<CatalogEntry, 'questionId' | 'adaptType' | 'reportAs'>[],
  seed: number,
  salt: (type: string) => string = (type) => type,
): Map<string, string[]> {
  const byType = new Map<string, string[]>();
  for (const c of catalog) {
    const list = byType.get(stratum(c)) ?? [];
    list.push(c.questionId);
    byType.set(stratum(c), list);
  }
  const out = new Map<string, string[]>();
  for (const type of [...byType.keys()].sort()) {
    const ids = byType.get(type)!.sort(compareIds);
    let typeSeed = seed | 0;
    for (const ch of salt(type)) typeSeed = (Math.imul(typeSeed, 31) + ch.charCodeAt(0)) | 0;
    const rng = xoroshiro128plus(typeSeed);
    for (let i = ids.length - 1; i > 0; i--) {
      const j = uniformInt(rng, 0, i);
      [ids[i], ids[j]] = [ids[j]!, ids[i]!];
    }
    out.set(type, ids);
  }
  return out;
}

export function stratifiedSample(catalog: readonly CatalogEntry[], perType: number, seed: number): Set<string> {
  const chosen = new Set<string>();
  for (const ids of shuffledByType(catalog, seed).values()) for (const id of ids.slice(0, perType)) chosen.add(id);
  return chosen;
}
