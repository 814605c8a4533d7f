/**
 * What LoCoMo-Plus's leniency probes are made against: there is no reference answer, and its judge asks whether a
 * reply is linked to the cue (cognitive.ts). So the specific-wrong probe is another item's cue dialogue that shares no
 * content word with this one (a specific memory, the wrong one) — a value edited in this cue would still be linked to
 * it — and the vague probe is the rules' topical non-answer. Made only where the results file stores the cue
 * (`questions.judge_evidence`, schema version 6).
 */
import type { ProbeMaking } from '../../src/core/benchmark.ts';

export const locomoPlusProbes: ProbeMaking = { goldOf: (q) => q.judgeEvidence ?? '', specific: 'neighbour' };
