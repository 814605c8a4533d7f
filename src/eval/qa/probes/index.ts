/** Leniency probes: known-wrong answers made offline by rules (rules.ts); re-exports only. */
export {
  PROBE_KINDS,
  probesFor,
  specificWrong,
  vagueTopical,
  type Probe,
  type ProbeKind,
  type ProbeQuestion,
} from './rules.ts';
export { contentTokens, normalised, overlaps } from './text.ts';
