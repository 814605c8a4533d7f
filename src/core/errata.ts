/**
 * An answer-key erratum: one question's corrected answer (and evidence), from a benchmark's errata overlay
 * (`BenchmarkDataset.answerErrata`, src/core/benchmark.ts), applied with `gold: { answers: errata }`; the judging code
 * (src/run/judging/judging.ts) scores an answer against both keys.
 */

/** Error types that change what a correct answer is (`WRONG_CITATION` only fixes the evidence). */
export const SCORE_CORRUPTING = [
  'HALLUCINATION',
  'TEMPORAL_ERROR',
  'ATTRIBUTION_ERROR',
  'AMBIGUOUS',
  'INCOMPLETE',
] as const;

export type ErratumType = (typeof SCORE_CORRUPTING)[number] | 'WRONG_CITATION';

export interface Erratum {
  /** This project's question id. */
  questionId: string;
  /** The overlay's own id of the correction (an audit id, an issue). */
  auditId: string;
  question: string;
  originalAnswer: string;
  correctedAnswer: string;
  errorType: ErratumType;
  /** Whether the error changes the answer key (every type but WRONG_CITATION). */
  scoreCorrupting: boolean;
  correctEvidence: string[];
  /** Where the overlay comes from, when its benchmark has more than one source of errata. */
  source?: string;
}
