/**
 * Precision / recall of the "no relevant memory" decision (`retrievals.no_memory`) against the gold abstention flag
 * (`questions.is_abstention`), per dataset × method. A question is a true positive when the method said
 * no memory and the question is an abstention question. Undefined ratios (nothing flagged, no abstention question)
 * are null, never 0, so a method that never abstains is not reported as "precision 0".
 */

export interface AbstentionDecisionRow {
  dataset: string;
  method: string;
  /** The method's decision: no relevant memory. */
  flagged: boolean;
  /** Gold: the question has no answer in the memory. */
  isAbstention: boolean;
}

export interface AbstentionScore {
  dataset: string;
  method: string;
  n: number;
  nFlagged: number;
  nAbstention: number;
  truePositives: number;
  precision: number | null;
  recall: number | null;
  f1: number | null;
}

export function abstentionScores(rows: readonly AbstentionDecisionRow[]): AbstentionScore[] {
  const acc = new Map<string, AbstentionScore>();
  for (const r of rows) {
    const key = `${r.dataset}\t${r.method}`;
    const s = acc.get(key) ?? {
      dataset: r.dataset,
      method: r.method,
      n: 0,
      nFlagged: 0,
      nAbstention: 0,
      truePositives: 0,
      precision: null,
      recall: null,
      f1: null,
    };
    s.n++;
    if (r.flagged) s.nFlagged++;
    if (r.isAbstention) s.nAbstention++;
    if (r.flagged && r.isAbstention) s.truePositives++;
    acc.set(key, s);
  }
  return [...acc.values()]
    .map((s) => {
      const precision = s.nFlagged > 0 ? s.truePositives / s.nFlagged : null;
      const recall = s.nAbstention > 0 ? s.truePositives / s.nAbstention : null;
      const f1 =
        precision !== null && recall !== null && precision + recall > 0
          ? (2 * precision * recall) / (precision + recall)
          : precision !== null && recall !== null
            ? 0
            : null;
      return { ...s, precision, recall, f1 };
    })
    .sort((a, b) => (a.dataset === b.dataset ? a.method.localeCompare(b.method) : a.dataset.localeCompare(b.dataset)));
}
