/**
 * `adaptmr report <file> --html <page>`: reads the results file read-only and writes one self-contained HTML page
 * (page.ts). Which sections and charts appear depends only on what the file holds.
 */
import { writeFileAtomic } from '../../core/atomic-write.ts';
import { redactDeep } from '../../core/secrets.ts';
import { ensureWritableDir } from '../../core/writable-dir.ts';
import { dirname } from 'node:path';
import type { TopLevelSpec } from 'vega-lite';
import { typeDotSpec } from './type-dot-spec.ts';
import { openResultStore } from '../../store/index.ts';
import { REPORT_DEFAULTS } from '../report.ts';
import type { VerdictRow } from '../../store/index.ts';
import {
  HEADLINE,
  comboLabel,
  comboOf,
  comparisonsSpec,
  hasTokens,
  latencyVsScoreSpec,
  routesSpec,
  tokensByStageSpec,
  verdictForestSpec,
} from './chart-specs.ts';
import { loadReportData, type ReportData } from './load-data.ts';
import { experimentTitle, renderPage, verdictGroups } from './page.ts';

export interface HtmlReportSummary {
  path: string;
  charts: string[];
  questions: number;
  bytes: number;
}

/** Picker options: "each dataset at its headline" first when the file declares headlines, then every cell it has. */
export function combos(data: Pick<ReportData, 'scores' | 'headlines'>): {
  options: { value: string; label: string }[];
  initial: string;
} {
  const seen = new Map<string, string>();
  for (const r of data.scores)
    seen.set(comboOf(r), r.k === null ? `${r.metric} (${r.level} level)` : `${r.metric}@${r.k} (${r.level} level)`);
  const options = [...seen]
    .map(([value, label]) => ({ value, label }))
    .sort((a, b) => a.label.localeCompare(b.label, 'en', { numeric: true }));
  const headlines = Object.entries(data.headlines).filter(([d, h]) =>
    data.scores.some((r) => r.dataset === d && comboOf(r) === comboOf(h)),
  );
  if (headlines.length > 0) {
    const label = `headline of each dataset (${headlines.map(([d, h]) => `${d}: ${comboLabel(h)}`).join('; ')})`;
    return { options: [{ value: HEADLINE, label }, ...options], initial: HEADLINE };
  }
  const preferred = REPORT_DEFAULTS.ks.map((k) => `${REPORT_DEFAULTS.metric}|${REPORT_DEFAULTS.level}|${k}`);
  const initial =
    preferred.find((p) => seen.has(p)) ??
    [...seen.keys()].find((v) => v.startsWith('accuracy|')) ??
    options[0]?.value ??
    'none|none|-';
  return { options, initial };
}

/** Rows beyond which the overview chart shows only the overall (type `all`) claims: per-type rows are in the table. */
const FOREST_ROWS = 48;

/** The verdicts an experiment's overview chart shows: every row when few, else the overall rows (or all without). */
function overallVerdicts(rows: readonly VerdictRow[]): VerdictRow[] {
  const all = rows.filter((v) => v.adaptType === 'all');
  return rows.length <= FOREST_ROWS || all.length === 0 ? [...rows] : all;
}

export function pageCharts(
  data: ReportData,
  initial: string,
): { charts: Record<string, TopLevelSpec>; picked: string[] } {
  const charts: Record<string, TopLevelSpec> = {};
  for (const [i, g] of verdictGroups(data.verdicts).entries()) {
    const rows = overallVerdicts(g.rows);
    if (rows.some((v) => v.estimate !== null)) {
      charts[`verdicts-${i}`] = verdictForestSpec(
        rows,
        data.methodMarks,
        `${experimentTitle(g.experiment)}: ${rows.every((v) => v.adaptType === 'all') ? 'overall ' : ''}verdicts at a glance`,
      );
    }
  }
  for (const [i, e] of data.experiments.entries())
    for (const [j, c] of e.charts.entries()) charts[`exp-${i}-${j}`] = c.spec;
  if (data.scores.length > 0) charts.scores = typeDotSpec(data, initial);
  // Per native type at each dataset's headline: the picker does not drive it (not in `picked`).
  if ((data.nativeScores?.length ?? 0) > 0) charts.native = typeDotSpec(data, HEADLINE, data.nativeScores);
  if (data.comparisons.length > 0) charts.comparisons = comparisonsSpec(data, initial);
  if (data.scores.length > 0 && data.efficiency.some((e) => e.stage === 'retrieval'))
    charts.latency = latencyVsScoreSpec(data, initial);
  if (hasTokens(data.efficiency)) charts.tokens = tokensByStageSpec(data.efficiency);
  if (data.routes.length > 0) charts.routes = routesSpec(data.routes);
  return { charts, picked: ['scores', 'comparisons', 'latency'].filter((id) => id in charts) };
}

export async function writeHtmlReport(
  file: string,
  htmlPath: string,
  opts: { dataDir?: string | undefined } = {},
): Promise<HtmlReportSummary> {
  const store = await openResultStore(file, { readOnly: true });
  // Checked before the data are read and the page rendered.
  ensureWritableDir(dirname(htmlPath), 'folder of the --html page', 'choose another --html path');
  let data: ReportData;
  try {
    // A file written before URL credentials were redacted (or by another tool) may still hold them: the page
    // shows every string redacted, the resolved config and the JSON payload included.
    data = redactDeep(await loadReportData(store, file, { dataDir: opts.dataDir }));
  } finally {
    await store.close();
  }
  const { options, initial } = combos(data);
  const { charts, picked } = pageCharts(data, initial);
  const html = renderPage({ data, charts, picked, combos: options, initial });
  // The previous page stays whole until the new one is on disk (atomic-write.ts).
  writeFileAtomic(htmlPath, html);
  return {
    path: htmlPath,
    charts: Object.keys(charts),
    questions: data.questions.length,
    bytes: Buffer.byteLength(html),
  };
}
