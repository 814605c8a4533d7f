/** Re-exports of the routing layer (plan §2.4): routers, fusion, the AdaptMR method and the strategy-as-method entry. */
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
