/** Re-exports of the strategies (plan §2.3) and their registry. */
export type { Strategy, RenderExtras } from '../core/interfaces.ts';
export { strategies } from './registry.ts';
export { createFactual, FactualOptionsSchema, entityBoost, rerankByEntities } from './factual.ts';
export { createTemporal, TemporalOptionsSchema } from './temporal.ts';
export { createUpdate, UpdateOptionsSchema, leaderClusters } from './update.ts';
export { createMultiHop, MultiHopOptionsSchema } from './multi-hop.ts';
export {
  createAbstention,
  createAbstentionJudge,
  decideAbstention,
  noMemoryRetrieval,
  AbstentionOptionsSchema,
  type AbstentionDecision,
  type AbstentionJudge,
} from './abstention.ts';
export { createUnified } from './unified.ts';
export { findTimeWindow, inWindow, type TimeWindow } from './time-window.ts';
export { splitEvents } from './events.ts';
export { extractEntities } from './text.ts';
export { renderContext, NO_MEMORY_LINE, dayOf } from './render.ts';
export { PLAN_THRESHOLDS, readThresholdsFile, ThresholdsFileSchema, type ThresholdsFile, type CalibrationEntry } from './thresholds.ts';
