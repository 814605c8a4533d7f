/** Text and JSON views of an evaluation for the CLI. */
import Table from 'cli-table3';
import { ADAPT_TYPES } from '../../../core/types.ts';
import type { EvalResult } from './evaluate.ts';

const pct = (x: number) => (Number.isFinite(x) ? `${(x * 100).toFixed(1)}%` : '–');

/** The issue's JSON shape `{ accuracy, macroF1, perType, confusion, n }`, plus context fields. */
export function evalJson(r: EvalResult): Record<string, unknown> {
  return {
    accuracy: r.metrics.accuracy,
    macroF1: r.metrics.macroF1,
    perType: r.metrics.perType,
    confusion: r.metrics.confusion,
    n: r.metrics.n,
    classifier: r.classifier,
    label: r.label,
    upperBound: r.upperBound,
    dataset: r.dataset,
    protocol: r.protocol,
    folds: r.folds,
    trainDataset: r.trainDataset,
    withoutAbstention: {
      accuracy: r.withoutAbstention.accuracy,
      macroF1: r.withoutAbstention.macroF1,
      n: r.withoutAbstention.n,
    },
    abstention: r.abstention,
    latency: r.latency,
    sources: r.sources,
    routes: r.routes,
  };
}

export function evalText(r: EvalResult): string {
  const lines: string[] = [];
  const protocol =
    r.protocol === 'kfold'
      ? `${r.folds}-fold CV`
      : r.protocol === 'cross-dataset'
        ? `trained on ${r.trainDataset}`
        : 'as-is';
  lines.push(
    `${r.label}${r.upperBound ? ' — GOLD TYPE, sees gold' : ''} · ${r.dataset} · ${protocol} · n=${r.metrics.n}`,
  );
  lines.push(`accuracy ${pct(r.metrics.accuracy)}  macro-F1 ${pct(r.metrics.macroF1)}  (bar: 85% accuracy)`);
  lines.push(
    `without abstention questions: accuracy ${pct(r.withoutAbstention.accuracy)}  macro-F1 ${pct(r.withoutAbstention.macroF1)}  n=${r.withoutAbstention.n}`,
  );
  const t = new Table({
    head: ['type', 'precision', 'recall', 'F1', 'support', 'predicted'],
    style: { head: [], border: [] },
  });
  for (const type of ADAPT_TYPES) {
    const s = r.metrics.perType[type];
    t.push([type, pct(s.precision), pct(s.recall), pct(s.f1), s.support, s.predicted]);
  }
  lines.push(t.toString());
  const c = new Table({ head: ['gold \\ predicted', ...ADAPT_TYPES], style: { head: [], border: [] } });
  for (const g of ADAPT_TYPES) c.push([g, ...ADAPT_TYPES.map((p) => r.metrics.confusion[g][p])]);
  lines.push(c.toString());
  const a = r.abstention;
  lines.push(
    `abstention: ${a.n} gold questions; ${a.flagged} labelled abstention; ${a.withSurfaceCue} have a surface cue in their text ` +
      `("did I mention…", "do you know…"); ${a.cueOnOthers} non-abstention questions have such a cue`,
  );
  lines.push(`latency per question: p50 ${r.latency.p50Ms.toFixed(3)} ms, p95 ${r.latency.p95Ms.toFixed(3)} ms`);
  if (r.routes) lines.push(`routed: ${r.routes.rules} by rules, ${r.routes.llm} to the LLM`);
  lines.push(
    `probability sources: ${Object.entries(r.sources)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
  );
  return lines.join('\n');
}
