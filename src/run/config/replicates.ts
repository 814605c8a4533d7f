/**
 * `replicates: n` on a memory-system method (the fairness contract, docs/memory-servers.md): systems with LLM
 * extraction vary run to run, so the method is run n times. The experiment's entry is expanded at load into n methods
 * `<id>:r1` … `<id>:rn`, each with its replicate number, which goes into the server-side namespace and the search
 * cache key (baselines/memory-server/memory-server-method.ts), so replicates never share memories, cached replies or
 * resume checkpoints. Each replicate is an ordinary method in the results file (files without replicates are
 * unchanged); the report groups them back by `<id>` (src/report/replicate-spread.ts).
 */
import type { MethodConfig } from '../../core/config.ts';
import { InputError } from '../../core/errors.ts';
import { replicateId } from '../../core/replicate-id.ts';

export { parseReplicateId, replicateId } from '../../core/replicate-id.ts';

/** Registry names of the memory-system methods (ingest into a server, search it). */
export const MEMORY_SYSTEM_METHODS: readonly string[] = ['http-memory', 'mcp-memory', 'mem0', 'zep'];

/** The methods with every `replicates: n` entry expanded into its n replicates (order kept). */
export function expandReplicates(methods: readonly MethodConfig[], path: string): MethodConfig[] {
  return methods.flatMap((m, i) => {
    if (m.replicate !== undefined && m.replicates === undefined) return [m];
    if (m.replicate !== undefined) {
      throw new InputError(`methods.${i} (${m.id}): "replicate" is set by "replicates"; give only replicates`, path);
    }
    if (m.replicates === undefined) return [m];
    if (!MEMORY_SYSTEM_METHODS.includes(m.method)) {
      throw new InputError(
        `methods.${i} (${m.id}): replicates is for memory-system methods (${MEMORY_SYSTEM_METHODS.join(', ')}), not ${m.method}`,
        path,
      );
    }
    const { replicates, ...rest } = m;
    return Array.from({ length: replicates }, (_, r) => ({ ...rest, id: replicateId(m.id, r + 1), replicate: r + 1 }));
  });
}
