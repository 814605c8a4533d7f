/** Re-exports of the routing layer (plan §2.4): routers, fusion, the AdaptMR method, threshold calibration. */
export { fuse, normalise, type FusionMethod, type FusionOptions, type WeightedList } from './fusion.ts';
export { planRoute, randomType, routableProbs, RouterConfigSchema, type RouterConfig, type RoutePlan, type AbstentionMode } from './router.ts';
export {
  adaptmrEntry,
  AdaptmrOptionsSchema,
  createAdaptmrMethod,
  createAdaptmrFromParts,
  buildStrategies,
  type AdaptmrMethod,
  type AdaptmrOptions,
  type AdaptmrParts,
} from './adaptmr-method.ts';
export {
  calibrate,
  calibrationQuestionIds,
  calibrationSplit,
  mergeThresholds,
  pickThresholds,
  quantile,
  CALIBRATION_RULE,
  type CalibrateInput,
} from './calibrate.ts';
export { calibrateCommand } from './commands.ts';
