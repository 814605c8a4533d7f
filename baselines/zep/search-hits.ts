/**
 * Zep search results (v3 `POST /graph/search`, v4 `POST /graphs/{uuid}/search/{scope}`) as hits: an edge is a fact
 * with its event time (`valid_at`, else `created_at`) and source episodes (`episodes` in v3, `episode_uuids` in v4);
 * an episode is a stored message, its own source. Scores: the reranker's `score` where given, else rank order.
 */
import { z } from 'zod';
import { parseReply, type ServerHit } from '../memory-server/api.ts';

export type ZepScope = 'edges' | 'episodes';

const EdgeSchema = z.looseObject({
  fact: z.string(),
  score: z.number().nullish(),
  valid_at: z.string().nullish(),
  created_at: z.string().nullish(),
  episodes: z.array(z.string()).nullish(),
  episode_uuids: z.array(z.string()).nullish(),
});
const EpisodeSchema = z.looseObject({
  uuid: z.string(),
  content: z.string(),
  score: z.number().nullish(),
  created_at: z.string().nullish(),
});

export function searchHits(
  items: unknown[],
  scope: ZepScope,
  label: string,
  toUtc: (s: string | null | undefined) => string | undefined,
): ServerHit[] {
  if (scope === 'edges') {
    return parseReply(z.array(EdgeSchema), items, label, 'graph search (edges)').map((e, i) => {
      const at = toUtc(e.valid_at ?? e.created_at);
      return {
        text: e.fact,
        score: e.score ?? 1 / (i + 1),
        ...(at ? { at } : {}),
        sources: e.episode_uuids ?? e.episodes ?? [],
      };
    });
  }
  return parseReply(z.array(EpisodeSchema), items, label, 'graph search (episodes)').map((e, i) => {
    const at = toUtc(e.created_at);
    return { text: e.content, score: e.score ?? 1 / (i + 1), ...(at ? { at } : {}), sources: [e.uuid] };
  });
}
