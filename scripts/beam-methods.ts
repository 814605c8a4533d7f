/**
 * The BEAM 500K benchmark experiments shared by bench-datasets.ts and bench-shards.ts: the tier, its experiment file
 * text, and the method lists (BM25, AdaptMR single-route rules, and every offline method of the registry).
 */
import { join } from 'node:path';

export const DATASET = 'beam-500k';
const THRESHOLDS = join(import.meta.dirname, '..', 'calibration', 'abstention-beam-100k-turn.json');

export function experiment(name: string, methods: string, limit?: number): string {
  return `name: ${name}
datasets:
  - name: ${DATASET}${limit ? `\n    limit: ${limit}` : ''}
embedder: { name: wink-sif }
methods:
${methods}
metrics: { ks: [1, 5, 10] }
`;
}

const unit = (id: string, method: string, options = '{}', k = 10) =>
  `  - { id: ${id}, method: ${method}, index: { granularity: turn }, k: ${k}, options: ${options} }`;
const abstention = `{ thresholdsFile: ${THRESHOLDS} }`;

export const BM25 = unit('bm25', 'bm25');
export const ADAPTMR = unit(
  'adaptmr-single-rules',
  'adaptmr',
  `{ classifier: { name: rules }, router: { kind: single }, strategies: { abstention: ${abstention} } }`,
);
/** Every method of the registry that runs offline (the LLM baselines in their marked offline mode; no memory servers). */
export const ALL = [
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
  unit('strategy-abstention', 'strategy', `{ name: abstention, options: ${abstention} }`),
  ADAPTMR,
  unit(
    'adaptmr-fusion-rules',
    'adaptmr',
    `{ classifier: { name: rules }, router: { kind: fusion }, strategies: { abstention: ${abstention} } }`,
  ),
  unit('adaptmr-oracle', 'adaptmr', `{ router: { kind: oracle }, strategies: { abstention: ${abstention} } }`),
].join('\n');
