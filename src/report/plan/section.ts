/** What each plan-experiment section of `adaptmr report` returns: its text and the charts it rendered. */
import type { PLAN_EXPERIMENTS } from '../../core/stats-config.ts';
import type { ChartFiles } from '../render-chart.ts';

export interface PlanSection {
  experiment: (typeof PLAN_EXPERIMENTS)[number];
  text: string;
  charts: ChartFiles[];
}
