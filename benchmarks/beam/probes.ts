/**
 * What BEAM's leniency probes are made against: the rubric (its gold, one item per line) as a plain answer — each
 * item without its "LLM response should state / contain / mention / include / list:" lead, an "avoid" item dropped
 * (it names what a right answer leaves out), the rest joined by "; ". A probe that edits one value of it (a month, a
 * number) or is another question's rubric must not get full marks on every item from BEAM's rubric judge
 * (mohammadtavakoli78/BEAM@b2a3ee8 src/evaluation/run_evaluation.py; a verdict is correct only on full marks).
 */
import type { ProbeMaking } from '../../src/core/benchmark.ts';

const LEAD = /^\s*LLM response should (state|contain|mention|include|list|avoid)\s*:\s*/iu;

/** The rubric items (one per line) as one plain answer. */
export function rubricAsAnswer(rubric: string): string {
  return rubric
    .split('\n')
    .map((item) => {
      const lead = LEAD.exec(item);
      if (lead && lead[1]!.toLowerCase() === 'avoid') return '';
      return (lead ? item.slice(lead[0].length) : item).trim();
    })
    .filter((item) => item !== '')
    .join('; ');
}

export const beamProbes: ProbeMaking = { goldOf: (q) => rubricAsAnswer(q.answer) };
