/**
 * What each plan-experiment section of `adaptmr report` returns: its text and the charts it rendered, and — for the
 * HTML report — the same content as data: its title, the notes printed around its tables, and the tables
 * themselves (head and rows as printed), so the page shows real tables rather than terminal text.
 */
import type Table from 'cli-table3';
import type { PLAN_EXPERIMENTS } from '../../core/stats-config.ts';
import type { ChartFiles } from '../render-chart.ts';

export interface SectionTable {
  title: string;
  head: string[];
  rows: string[][];
}

export interface PlanSection {
  experiment: (typeof PLAN_EXPERIMENTS)[number];
  text: string;
  charts: ChartFiles[];
  /** The section's heading line (without the run's headline); absent for sections that give only text. */
  title?: string;
  /** Explanatory lines printed with the tables (how chosen, what was resampled, warm-up). */
  notes?: string[];
  tables?: SectionTable[];
}

/** A cli-table3 table as data: its head and rows, cells as printed. */
export function tableData(title: string, table: Table.Table): SectionTable {
  const head = ((table.options as { head?: unknown[] }).head ?? []).map(String);
  const rows = [...(table as unknown as unknown[][])].map((r) => r.map((c) => String(c ?? '')));
  return { title, head, rows };
}
