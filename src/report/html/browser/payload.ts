/**
 * The data the report page carries for its browser script: page.ts builds a `PagePayload` (gzip, base64, in
 * `#report-data`) and main.ts reads it, so both sides are checked against this one declaration. No DOM and no
 * Node types here: the server-side program (no DOM) and the browser module (tsconfig.json here: DOM, no Node)
 * both compile it. Also the render state on `window.adaptmrReport` the browser tests and the screenshot script wait on.
 */

export interface TypeScore {
  dataset: string;
  series: string;
  upperBound: boolean;
  level: string;
  metric: string;
  k: number | null;
  /** The method's unit granularity: at session level, a turn method's number is the session of its top turns. */
  granularity: string;
  type: string;
  n: number;
  mean: number;
  ciLow: number | null;
  ciHigh: number | null;
}

/** A comparisons row: the page keeps the columns it reads (page.ts COMPARISON_COLUMNS), null where absent. */
export type Comparison = Record<string, string | number | boolean | null>;

export interface DrillMethod {
  series: string;
  upperBound: boolean;
  degraded: string | null;
  predictedType: string | null;
  route: string | null;
  units: [string, string, number][];
  k: number | null;
  noMemory: boolean;
  latencyMs: number;
  error: string | null;
  answer: string | null;
  verdicts: boolean[];
  tokens: number;
  calls: number;
  hit: number | null;
}

export interface DrillQuestion {
  dataset: string;
  id: string;
  text: string;
  askedAt: string;
  nativeType: string;
  type: string;
  isAbstention: boolean;
  answer: string;
  evidenceSessions: string[];
  evidenceTurns: string[];
  methods: DrillMethod[];
}

/** A dataset's headline (src/eval/verdicts/headline.ts, as the plan sections and verdicts use it). */
export interface DatasetHeadline {
  metric: string;
  level: string;
  k: number | null;
}

/** `dataset\tquestion` → unit id → [date, preview]. */
export type UnitTexts = Record<string, Record<string, [string, string]>>;

/** What the browser script reads of the report's data. */
export interface PageData {
  scores: TypeScore[];
  comparisons: Comparison[];
  questions: DrillQuestion[];
  headlines: Record<string, DatasetHeadline>;
  colors: Record<string, string>;
  methodMarks: Record<string, string>;
  runLabels: Record<string, string>;
  unitTexts: UnitTexts;
  unitsShown: number;
}

export interface PagePayload {
  data: PageData;
  /** Chart id → vega-lite spec; ids in `picked` follow the metric picker. */
  charts: Record<string, object>;
  picked: string[];
  types: readonly string[];
}

/** The fitting hints chart-fit.ts leaves in a spec's `usermeta.fit`. */
export interface ChartFit {
  panels: number;
  minWidth: number;
  reserve: number;
}

/** The parts of a vega-lite spec the page adjusts before embedding it. */
export interface ChartSpec {
  params?: { name: string; value?: unknown }[];
  usermeta?: { fit?: ChartFit };
  columns?: number;
  spec?: { width?: number };
}

export interface VegaView {
  finalize(): void;
  signal(name: string, value: unknown): VegaView;
  runAsync(): Promise<unknown>;
}

/** Render state: `settled` once every chart is drawn and fitted. */
export interface ReportState {
  rendered: number;
  failed: string[];
  expected: number;
  views: Record<string, VegaView>;
  settled: boolean;
  refits: number;
  loading?: boolean;
}
