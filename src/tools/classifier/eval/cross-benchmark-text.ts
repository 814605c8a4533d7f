/** The terminal table of a cross-benchmark evaluation (cross-benchmark.ts); `--json` prints the object itself. */

const pct = (x: unknown) => (typeof x === 'number' && Number.isFinite(x) ? `${(100 * x).toFixed(1)}%` : 'n/a');

interface Row {
  benchmark: string;
  n: number;
  accuracy: number;
  macro_f1: number;
  accuracy_without_abstention: number;
  abstention_share_of_errors: number;
  languages: { language: string; n: number; accuracy: number }[];
  fallback: { threshold: number; fallback_share: number } | null;
}

export function crossBenchmarkText(r: Record<string, unknown>): string {
  const rows = (r.benchmarks ?? []) as Row[];
  const lines = [
    `${String(r.protocol)} — recipe ${String((r.recipe as { name?: string } | undefined)?.name ?? '')}`,
    'held out | n | accuracy | macro-F1 | w/o abstention | abstention share of errors | per language | fallback (threshold, share)',
  ];
  for (const b of rows)
    lines.push(
      [
        b.benchmark,
        b.n,
        pct(b.accuracy),
        pct(b.macro_f1),
        pct(b.accuracy_without_abstention),
        pct(b.abstention_share_of_errors),
        b.languages.map((l) => `${l.language} ${pct(l.accuracy)} (${l.n})`).join(', '),
        b.fallback ? `${b.fallback.threshold}, ${pct(b.fallback.fallback_share)}` : '—',
      ].join(' | '),
    );
  if (r.overall) lines.push(`overall ${pct((r.overall as Row).accuracy)} (n ${(r.overall as Row).n})`);
  lines.push(
    `mean accuracy ${pct(r.mean_accuracy)}, worst ${pct(r.min_accuracy)}, mean macro-F1 ${pct(r.mean_macro_f1)}`,
  );
  const curve = (r.learning_curve ?? []) as { fraction: number; n_train_mean: number; mean_accuracy: number }[];
  if (curve.length > 0)
    lines.push(
      `learning curve (mean accuracy vs training items): ${curve.map((c) => `${Math.round(c.n_train_mean)} → ${pct(c.mean_accuracy)}`).join(', ')}`,
    );
  return lines.join('\n');
}
