/**
 * What a bundle says about a run's models, read from its stored config (the `runs.config_json` the runner resolved):
 * the reader, the judge panel (`qa.judges`, or the single judge of `llm.roles.judge`), the embedder, the LLM
 * classifier and strategy models, the price table, and each dataset's sample. Loosely typed on purpose: a results
 * file written by an older harness keeps older shapes, and a missing field is reported as null, never guessed.
 */
export type Config = Record<string, unknown>;

export interface JudgeFact {
  id: string;
  model: string;
  prompt: string | null;
}

const obj = (v: unknown): Config => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Config) : {});
const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);

export const roleModel = (c: Config, role: string): string | null => text(obj(obj(obj(c.llm).roles)[role]).model);

/** The judge panel; empty when the run judged nothing. */
export function judgePanel(c: Config): JudgeFact[] {
  const qa = obj(c.qa);
  if (c.qa === undefined) return [];
  const judges = Array.isArray(qa.judges) ? qa.judges : [];
  if (judges.length > 0) {
    return judges.map((j) => ({ id: String(obj(j).id), model: String(obj(j).model), prompt: text(obj(j).prompt) }));
  }
  const model = roleModel(c, 'judge');
  return model ? [{ id: 'judge', model, prompt: null }] : [];
}

/** The models a run used, by role. */
export function modelsOf(c: Config): Record<string, unknown> {
  const embedder = obj(c.embedder);
  return {
    reader: roleModel(c, 'reader'),
    judges: judgePanel(c),
    classifier: roleModel(c, 'classifier'),
    strategy: roleModel(c, 'strategy'),
    embedder: text(embedder.name) === null ? null : { name: embedder.name, options: embedder.options ?? {} },
  };
}

export const pricesOf = (c: Config): unknown => obj(c.llm).prices ?? {};

/** A dataset entry of the config by its results name (the `name`, or a path's file name). */
export function datasetEntry(c: Config, dataset: string): Config {
  const list = Array.isArray(c.datasets) ? c.datasets.map(obj) : [];
  return list.find((d) => d.name === dataset) ?? list.find((d) => typeof d.path === 'string') ?? {};
}

/** A method entry of the config by id. */
export function methodEntry(c: Config, id: string): Config {
  const list = Array.isArray(c.methods) ? c.methods.map(obj) : [];
  return list.find((m) => m.id === id) ?? {};
}
