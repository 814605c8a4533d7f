/**
 * The scale benchmark experiments shared by bench-datasets.ts and bench-shards.ts: the dataset they run (`--dataset`,
 * a large named dataset; package.json names the one measured in docs/datasets.md §9), its experiment file text, and
 * the method lists (BM25, AdaptMR single-route rules, and every offline method of the registry), whose abstention
 * thresholds come from `--thresholds` (a file calibrated on another dataset).
 */
import { resolve } from 'node:path';

export interface ScaleSetup {
  dataset: string;
  /** The abstention thresholds file (absolute). */
  thresholds: string;
}

/** `--dataset` and `--thresholds` of a scale script's arguments; both are required. */
export function scaleSetup(args: readonly string[], usage: string): ScaleSetup {
  const flag = (name: string): string | undefined => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const dataset = flag('--dataset');
  const thresholds = flag('--thresholds');
  if (!dataset || !thresholds) {
    console.error(`usage: ${usage} --dataset <name> --thresholds <abstention thresholds file>`);
    process.exit(2);
  }
  return { dataset, thresholds: resolve(thresholds) };
}

export function experiment(setup: ScaleSetup, name: string, methods: string, limit?: number): string {
  return `name: ${name}
datasets:
  - name: ${setup.dataset}${limit ? `\n    limit: ${limit}` : ''}
embedder: { name: wink-sif }
methods:
${methods}
metrics: { ks: [1, 5, 10] }
`;
}

const unit = (id: string, method: string, options = '{}', k = 10) =>
  `  - { id: ${id}, method: ${method}, index: { granularity: turn }, k: ${k}, options: ${options} }`;

export const BM25 = unit('bm25', 'bm25');

/** AdaptMR, rules classifier, single route, the five strategies. */
export function adaptmr(setup: ScaleSetup): string {
  return unit(
    'adaptmr-single-rules',
    'adaptmr',
    `{ classifier: { name: rules }, router: { kind: single }, strategies: { abstention: ${abstention(setup)} } }`,
  );
}

const abstention = (setup: ScaleSetup): string => `{ thresholdsFile: ${setup.thresholds} }`;

/** Every method of the registry that runs offline (the LLM baselines in their marked offline mode; no memory servers). */
export function allOffline(setup: ScaleSetup): string {
  const a = abstention(setup);
  return [
    BM25,
    unit('unified-embedding', 'unified-embedding'),
    `  - { id: full-context, method: full-context, index: { granularity: turn }, options: { maxContextTokens: 126500 } }`,
    unit('longmemeval-rag', 'longmemeval-rag'),
    unit('a-mem', 'a-mem'),
    unit('rae', 'rae'),
    unit('generative-agents', 'generative-agents'),
    unit('reasoningbank', 'reasoningbank'),
    unit('rago', 'rago'),
    ...['factual', 'temporal', 'update', 'multi-hop'].map((s) => unit(`strategy-${s}`, 'strategy', `{ name: ${s} }`)),
    unit('strategy-abstention', 'strategy', `{ name: abstention, options: ${a} }`),
    adaptmr(setup),
    unit(
      'adaptmr-fusion-rules',
      'adaptmr',
      `{ classifier: { name: rules }, router: { kind: fusion }, strategies: { abstention: ${a} } }`,
    ),
    unit('adaptmr-oracle', 'adaptmr', `{ router: { kind: oracle }, strategies: { abstention: ${a} } }`),
  ].join('\n');
}
