/**
 * The method id of a memory-system replicate (`<id>:r<n>`, src/run/config/replicates.ts expands `replicates: n` into them):
 * one rule shared by the runner, the verdicts (which average replicates per question) and the report (which shows
 * their spread), so it lives below all three.
 */
const REPLICATE_ID = /^(.*):r([0-9]+)$/;

/** The method id of replicate `r` of `id`. */
export function replicateId(id: string, r: number): string {
  return `${id}:r${r}`;
}

/** `{ base, replicate }` of a replicate's method id, or null for any other id. */
export function parseReplicateId(id: string): { base: string; replicate: number } | null {
  const m = REPLICATE_ID.exec(id);
  return m ? { base: m[1]!, replicate: Number(m[2]) } : null;
}
