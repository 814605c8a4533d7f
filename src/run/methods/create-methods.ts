/**
 * Builds an experiment's methods and checks, before any work, that the experiment can satisfy what each declares
 * (MethodCapabilities): every LLM role it calls is configured, and a method that returns no unit ids is judged by
 * its answers (the experiment needs `qa`), since it has no retrieval metrics. Identity — id, registry name, index
 * spec, k — stays here with the runner; the Method is behaviour.
 */
import type { ExperimentConfig } from '../../core/config.ts';
import { InputError } from '../../core/errors.ts';
import type { IndexSpec, Method, MethodCapabilities } from '../../core/interfaces.ts';
import { LLM_ROLES, type LlmRole } from '../../core/llm.ts';
import { methods as methodRegistry } from './method-registry.ts';

/** A method as the runner holds it: the config's identity plus the built behaviour. */
export interface ConfiguredMethod {
  /** The method's id in the experiment (the `method` column of every results table). */
  id: string;
  /** Registry name (`bm25`, `adaptmr`, …). */
  kind: string;
  index: IndexSpec;
  k: number;
  impl: Method;
}

export function configuredRoles(config: ExperimentConfig): LlmRole[] {
  const roles = config.llm?.roles ?? {};
  return LLM_ROLES.filter((r) => roles[r] !== undefined);
}

/** `configHash` is the run's identity hash (load-config.ts); its prefix namespaces methods' server-side state. */
export async function createMethods(
  config: ExperimentConfig,
  path: string,
  configHash: string,
): Promise<ConfiguredMethod[]> {
  const where = (i: number) => `${path}: methods.${i} (${config.methods[i]!.id})`;
  // Validate all options first so every error is reported before anything heavy is created (each named method's
  // module is imported here, in config order, so the first bad entry is the one reported).
  for (const [i, m] of config.methods.entries()) {
    await methodRegistry.load(m.method, where(i));
    methodRegistry.parseOptions(m.method, m.options, where(i));
  }
  const runKey = configHash.slice(0, 12);
  const llmRoles = configuredRoles(config);
  // `qa.ks`: every method retrieves once, at the largest cutoff, and is read at each (question.ts).
  const cutoffK = config.qa?.ks ? Math.max(...config.qa.ks) : undefined;
  const built = await Promise.all(
    config.methods.map(async (m, i): Promise<ConfiguredMethod> => {
      const k = cutoffK ?? m.k;
      const impl = await methodRegistry.create(
        m.method,
        m.options,
        {
          id: m.id,
          index: m.index,
          k,
          seed: config.seed,
          runKey,
          llmRoles,
          ...(m.replicate !== undefined ? { replicate: m.replicate } : {}),
        },
        where(i),
      );
      return { id: m.id, kind: m.method, index: m.index, k, impl };
    }),
  );
  built.forEach((m, i) => checkCapabilities(m.impl.capabilities, config, llmRoles, where(i)));
  return built;
}

export function checkCapabilities(
  c: MethodCapabilities,
  config: ExperimentConfig,
  roles: readonly LlmRole[],
  where: string,
): void {
  const missing = (c.llmRoles ?? []).filter((r) => !roles.includes(r));
  if (missing.length > 0) {
    throw new InputError(
      `needs an LLM for the role${missing.length > 1 ? 's' : ''} ${missing.map((r) => `"${r}"`).join(', ')}: add llm.roles.${missing[0]} (model and endpoint) to the experiment`,
      where,
    );
  }
  if (c.output === 'text' && !config.qa) {
    throw new InputError(
      'returns memories without source unit ids, so it has no retrieval metrics; add a qa: block (and llm.roles.reader) to evaluate it by its answers',
      where,
    );
  }
  if (c.answers && !config.qa) {
    throw new InputError('answers by itself; add a qa: block to judge its answers', where);
  }
}
