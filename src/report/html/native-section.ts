/**
 * The page's "Per native type" section: for every dataset whose AdaptMR types pool several native labels (a benchmark's
 * abilities, LongMemEval's question types, LoCoMo's categories; src/report/native-types.ts), one
 * visible table per dataset — methods as rows, its native types as columns grouped under the AdaptMR type that
 * averages them — at the dataset's headline, and a dot plot of the same cells (chart `native`).
 */
import { markedLabel } from '../palette.ts';
import { nativeGrid, type NativeTypeScore } from '../native-types.ts';

const escText = (s: string): string =>
  s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

/** The section's HTML, or '' when no dataset pools native types. `chart` is the dot plot's box, if drawn. */
export function nativeSection(rows: readonly NativeTypeScore[] | undefined, chart: string): string {
  if (!rows || rows.length === 0) return '';
  const grids = nativeGrid(rows, (r) => markedLabel(r.series, r.upperBound));
  const tables = grids.map((g) => {
    const first = rows.find((r) => r.dataset === g.dataset)!;
    const at = `${first.metric}${first.k === null ? '' : `@${first.k}`} (${first.level} level)`;
    const head = g.columns.map((c) => `<th>${escText(c)}</th>`).join('');
    const body = g.rows
      .map(
        (r) =>
          `<tr><td>${escText(r.method)}</td>${r.cells.map((c) => `<td class="num">${c === null ? '—' : escText(c)}</td>`).join('')}</tr>`,
      )
      .join('');
    return `<h3>${escText(g.dataset)} · ${escText(at)}</h3><div class="scroll"><table class="grid native"><thead><tr><th>method</th>${head}</tr></thead><tbody>${body}</tbody></table></div>`;
  });
  return `<section id="native-types"><h2>Per native type (mean [95% CI] (n))</h2>
<p class="muted">Each dataset whose AdaptMR types average several of its own question types, per native type at its headline: a column is headed by the AdaptMR type it is averaged into, then the benchmark's own label (its abilities, question types or categories), so an average never hides a native type at chance. "outside" holds the native types reported apart from the five.</p>
${tables.join('\n')}${chart}</section>`;
}
