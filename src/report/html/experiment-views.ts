/**
 * The plan experiments' own sections for the HTML report: the same sections `adaptmr report` prints
 * (src/report/plan), run with their charts captured as specs rather than written (render-chart.ts
 * `captureCharts`), so the page shows each experiment's tables and charts exactly as the terminal report computes
 * them — nothing is recomputed differently for the page. A section that gives only text (no tables) keeps it, shown
 * as the terminal prints it.
 */
import type { ResultStore } from '../../store/index.ts';
import { planSections } from '../plan/index.ts';
import type { SectionTable } from '../plan/section.ts';
import { captureCharts, type CapturedChart } from '../render-chart.ts';

export interface ExperimentView {
  /** The plan experiment (`oracle-upper-bound`, …). */
  experiment: string;
  title: string;
  notes: string[];
  tables: SectionTable[];
  charts: CapturedChart[];
  /** The terminal section's text (shown folded, and alone for sections without tables). */
  text: string;
}

export async function loadExperimentViews(store: ResultStore): Promise<ExperimentView[]> {
  const views: ExperimentView[] = [];
  // One capture per section, so each view keeps its own charts.
  const { result: sections, charts } = await captureCharts(() => planSections(store, 'charts'));
  let next = 0;
  for (const s of sections) {
    const mine = charts.slice(next, next + s.charts.length);
    next += s.charts.length;
    views.push({
      experiment: s.experiment,
      title: s.title ?? s.text.split('\n')[0] ?? s.experiment,
      notes: s.notes ?? [],
      tables: s.tables ?? [],
      charts: mine,
      text: s.text,
    });
  }
  return views;
}
