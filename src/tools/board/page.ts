/**
 * The board's static page: one HTML file, no script, the report's escaping (src/report/html/page.ts `esc`) for
 * every string a bundle brings (method ids, dataset names, run ids are other people's text), and a
 * Content-Security-Policy that fetches nothing and runs nothing (`default-src 'none'`, no script-src). Per dataset
 * the main table — comparable rows only, each headline metric named with its basis — then every group apart with
 * its reason. Each row: method, its flags, per-type means with 95% CIs, n, its mark, a link to its manifest.
 */
import { basename, dirname, join, relative } from 'node:path';
import { ADAPT_TYPES } from '../../core/types.ts';
import { esc } from '../../report/html/page.ts';
import type { BoardEntry } from './entries.ts';
import type { Group } from './groups.ts';

export const BOARD_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";
const COLUMNS = [...ADAPT_TYPES, 'all'];
const pct = (x: number): string => (x * 100).toFixed(1);

function cell(e: BoardEntry, type: string): string {
  const c = e.cells.get(type);
  return c ? `<td>${pct(c.mean)} <small>[${pct(c.low)}, ${pct(c.high)}]</small></td>` : '<td class="na">–</td>';
}

function row(e: BoardEntry, page: string): string {
  const href = relative(dirname(page), join(e.bundle, 'manifest.json')).split('\\').join('/');
  const flags = e.flags.length > 0 ? ` <small>(${esc(e.flags.join(', '))})</small>` : '';
  return `<tr><th>${esc(e.method)}${flags} <small>${esc(basename(e.bundle))}</small></th>${COLUMNS.map((t) => cell(e, t)).join('')}<td>${e.cells.get('all')?.n ?? ''}</td>
<td class="${e.mark}" title="${esc(e.why)}">${e.mark}</td><td><a href="${esc(href)}">${esc(e.runId)}</a></td></tr>`;
}

function table(g: Group, page: string): string {
  const h = g.entries[0]!.headline;
  const key = g.entries[0]!.key;
  const sorted = [...g.entries].sort((a, b) => (b.cells.get('all')?.mean ?? -1) - (a.cells.get('all')?.mean ?? -1));
  const facts = `${key.questions} questions, sample ${JSON.stringify(key.sample)}, k ${key.k.join(', ')}, reader ${key.reader ?? 'none'}, judges ${key.judges.join(', ') || 'none'}, dataset-content ${key.content_sha256.slice(0, 16)}…`;
  return `<section${g.apart ? ' class="apart"' : ''}><h3>${esc(g.dataset)} — ${esc(h.name)}</h3>
${g.apart ? `<p class="why">Shown apart: ${esc(g.apart)}</p>` : ''}<p class="basis">Metric basis: ${esc(h.basis)}. ${esc(facts)}</p>
<table><thead><tr><th>method</th>${COLUMNS.map((c) => `<th>${esc(c)}</th>`).join('')}<th>n</th><th>check</th><th>manifest</th></tr></thead>
<tbody>${sorted.map((e) => row(e, page)).join('\n')}</tbody></table></section>`;
}

export function boardPage(groups: readonly Group[], page: string, generated: string): string {
  const main = groups.filter((g) => !g.apart);
  const apart = groups.filter((g) => g.apart);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${esc(BOARD_CSP)}">
<title>AdaptMR Bench board</title>
<style>body{font:14px system-ui,sans-serif;margin:2em;max-width:80em}table{border-collapse:collapse;margin:.5em 0 1.5em}
td,th{border-bottom:1px solid #ddd;padding:.25em .6em;text-align:right}th:first-child{text-align:left}
.verified{color:#176117}.unsigned{color:#8a6100}.failed{color:#a31515;font-weight:bold}.apart{opacity:.85}.why{color:#a31515}
small{color:#666}.basis{color:#444}</style></head><body>
<h1>AdaptMR Bench board</h1>
<p>Means in percent with 95% bootstrap CIs. Rows share a table only when their questions, gold and histories are
byte-identical (dataset-content hash), and sample, k, reader and judge panel are the same. Marks: <b>verified</b> —
signed and every number recomputed by <code>adaptmr verify</code>; <b>unsigned</b> — every number recomputed, no
signature; <b>failed</b> — a check failed (hover for which). Generated ${esc(generated)}.</p>
<h2>Comparable results</h2>
${main.map((g) => table(g, page)).join('\n')}
${apart.length > 0 ? `<h2>Not comparable with the tables above</h2>\n${apart.map((g) => table(g, page)).join('\n')}` : ''}
</body></html>
`;
}
