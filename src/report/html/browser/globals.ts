/** The globals the page script meets in the browser: its render state, and vega-embed's inlined bundle. */
import type { ChartSpec, ReportState, VegaView } from './payload.ts';

declare global {
  interface Window {
    adaptmrReport: ReportState;
  }
  /** From the vega-embed bundle inlined before this script. */
  function vegaEmbed(el: HTMLElement, spec: ChartSpec, opts: Record<string, unknown>): Promise<{ view: VegaView }>;
}
