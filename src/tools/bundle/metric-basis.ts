/**
 * A metric's full name with its basis, so two numbers on different bases are never shown as one (the field mixes
 * recall_any with recall_all and turn with session level): `recall_any@10 (session level: at least one evidence
 * session in the top 10)`. Used for the aggregate's metric names and the board's column heads.
 */
const BASIS: Record<string, string> = {
  recall_any: 'at least one evidence {unit} in the top {k}',
  recall_all: 'every evidence {unit} in the top {k}',
  ndcg_any: 'nDCG of the evidence {unit}s in the top {k}',
  precision: 'share of the top {k} that are evidence {unit}s',
  mrr: 'reciprocal rank of the first evidence {unit}',
  accuracy: "the judge's verdict on the reader's answer",
  f1: 'token F1 of the answer against the gold',
  bleu1: 'BLEU-1 of the answer against the gold',
};

export function metricLabel(metric: string, level: string, k: number | null): string {
  return `${metric}${k === null ? '' : `@${k}`} (${level} level)`;
}

export function metricBasis(metric: string, level: string, k: number | null): string {
  const template = BASIS[metric] ?? `${metric} as src/eval computes it`;
  return template.replaceAll('{unit}', level === 'qa' ? 'answer' : level).replaceAll('{k}', String(k ?? ''));
}
