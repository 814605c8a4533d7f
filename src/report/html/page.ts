/**
 * The HTML of the report page: one file with every style, script and datum inline. vega, vega-lite and vega-embed
 * are read from node_modules (their UMD builds) and inlined, the data travels as JSON in a
 * `<script type="application/json">`, and a Content-Security-Policy with `default-src 'none'` makes the browser
 * refuse any fetch, so the page provably works offline from file://; it lets only the page's own scripts run
 * (`contentSecurityPolicy`). Server-rendered: provenance, methods and
 * efficiency tables; client-rendered (client-script.ts): tables that follow the metric picker, charts, drill-down.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { TopLevelSpec } from 'vega-lite';
import { TYPE_COLUMNS } from '../per-type-table.ts';
import { markedLabel } from '../palette.ts';
import { CLIENT_SCRIPT } from './client-script.ts';
import { holmText, mdeText, verdictEstimate } from '../verdict-table.ts';
import type { ReportData } from './load-data.ts';

const require = createRequire(import.meta.url);

/** A file of an installed package, found from its resolved entry (the packages' `exports` hide their build/). */
function packageFile(name: string, file: string): string {
  let dir = dirname(require.resolve(name));
  while (!dir.endsWith(`node_modules/${name}`) && dirname(dir) !== dir) dir = dirname(dir);
  return readFileSync(join(dir, file), 'utf8');
}

export function vegaBundles(): string[] {
  return [packageFile('vega', 'build/vega.min.js'), packageFile('vega-lite', 'build/vega-lite.min.js'), packageFile('vega-embed', 'build/vega-embed.min.js')];
}

const esc = (s: unknown): string =>
  String(s ?? '').replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
/** A script's text as it is inlined (a `</script` inside it escaped). */
const scriptText = (js: string): string => js.replaceAll('</script', '<\\/script');
const inlineScript = (js: string): string => `<script>${scriptText(js)}</script>`;

/**
 * The page's Content-Security-Policy: nothing is fetched (`default-src 'none'`), and the only scripts that run are
 * the page's own inline scripts, each allowed by its sha256 — no `'unsafe-inline'`, so markup that reaches the DOM
 * or a window the page opens (a dataset named `<img onerror=…>`) cannot run, and no `'unsafe-eval'`: vega evaluates
 * its expressions with its interpreter (`ast: true`, client-script.ts) rather than generated code.
 */
export function contentSecurityPolicy(scripts: readonly string[]): string {
  const hashes = scripts.map((js) => `'sha256-${createHash('sha256').update(scriptText(js), 'utf8').digest('base64')}'`);
  return `default-src 'none'; script-src ${hashes.join(' ')}; style-src 'unsafe-inline'; img-src data: blob:; base-uri 'none'; form-action 'none'`;
}
const td = (v: unknown, cls = ''): string => `<td${cls ? ` class="${cls}"` : ''}>${esc(v)}</td>`;

export interface PageInput {
  data: ReportData;
  /** Chart id → spec; ids in `picked` follow the metric picker. */
  charts: Record<string, TopLevelSpec>;
  picked: string[];
  /** Picker options `metric|level|k` with labels, and the initial one. */
  combos: { value: string; label: string }[];
  initial: string;
}

function provenance(d: ReportData): string {
  const runs = d.runs.map((r) => {
    const cfg = r.config as { embedder?: unknown; llm?: { roles?: Record<string, { model?: string }> }; datasets?: unknown } | null;
    const models = [
      `embedder: ${JSON.stringify(cfg?.embedder ?? null)}`,
      ...Object.entries(cfg?.llm?.roles ?? {}).map(([role, v]) => `${role}: ${v?.model ?? '?'}`),
    ];
    return `<div class="run"><h3>${esc(r.name)} <span class="muted">${esc(r.runId)} · ${esc(r.status)}</span></h3>
<table class="kv">
<tr><th>config hash</th>${td(r.configHash, 'mono')}</tr>
<tr><th>git commit</th>${td(`${r.gitCommit ?? 'not a git checkout'}${r.gitDirty ? ' (dirty)' : ''}`, 'mono')}</tr>
<tr><th>seed</th>${td(r.seed)}</tr><tr><th>started / ended</th>${td(`${r.startedAt} → ${r.endedAt ?? '(not ended)'}`)}</tr>
<tr><th>models</th>${td(models.join(' · '), 'mono')}</tr>
</table>
<details><summary>resolved config</summary><pre>${esc(JSON.stringify(r.config, null, 2))}</pre></details>
<details><summary>dataset hashes</summary><pre>${esc(JSON.stringify(r.datasetHashes, null, 2))}</pre></details>
${r.inputFiles ? `<details><summary>model and calibration files (sha256)</summary><pre>${esc(JSON.stringify(r.inputFiles, null, 2))}</pre></details>` : ''}
<details><summary>package versions</summary><pre>${esc(Object.entries(r.packageVersions ?? {}).map(([k, v]) => `${k} ${v}`).join('\n'))}</pre></details>
</div>`;
  });
  const methods = d.methods.map((m) => `<tr class="${m.upperBound ? 'upper' : ''}">${td(m.runId, 'mono')}${td(markedLabel(m.series, m.upperBound))}${td(m.kind)}${td(m.granularity)}${td(m.k, 'num')}${td(m.output)}${td(m.upperBound ? 'yes' : '')}${td(m.degraded ?? '')}</tr>`);
  return `<section id="provenance"><h2>Run provenance</h2>
<p>File <code>${esc(d.file)}</code> · schema version ${esc(d.schemaVersion)}${d.experiment ? ` · experiment <b>${esc(d.experiment)}</b>` : ''} · ${d.runs.length} run(s) · report generated ${esc(d.generatedAt)}</p>
${runs.join('\n')}
<h3>Methods</h3><table class="grid"><thead><tr><th>run</th><th>method</th><th>kind</th><th>granularity</th><th>k</th><th>output</th><th>upper bound</th><th>degraded</th></tr></thead>
<tbody>${methods.join('')}</tbody></table></section>`;
}

/** The stored verdicts, as the terminal report prints them (src/report/verdict-table.ts); nothing decided here. */
function verdictsSection(d: ReportData): string {
  const mark = (id: string | null): string => (id === null ? '—' : d.methodMarks[id] ? `${id} (${d.methodMarks[id]})` : id);
  const rows = d.verdicts.map((v) => `<tr class="verdict">${td(v.experiment)}${td(v.dataset)}${td(v.claim, 'mono')}${td(mark(v.methodA))}${td(mark(v.methodB))}${td(v.adaptType)}${td(v.metric === null ? '' : `${v.metric}${v.k === null ? '' : `@${v.k}`} ${v.level ?? ''}`)}${td(v.n, 'num')}${td(verdictEstimate(v), 'num')}${td(holmText(v), 'num')}${td(mdeText(v), 'num')}${td(v.verdict)}${td(v.reason)}</tr>`);
  return `<section id="verdicts"><h2>Verdicts</h2>
<p class="muted">One row per claim of the plan's experiments, as stored in the results file. Estimate in points (A − B; the overhead claim: a ratio); p_holm within the declared family of m claims; MDE = the smallest difference detectable with 80% power at that n (α = 0.05 / m). Stand-ins are marked (offline).</p>
<table class="grid"><thead><tr><th>experiment</th><th>dataset</th><th>claim</th><th>A</th><th>B</th><th>type</th><th>headline</th><th>n</th><th>estimate [95% CI]</th><th>p_holm (m)</th><th>MDE</th><th>verdict</th><th>reason</th></tr></thead>
<tbody>${rows.join('')}</tbody></table></section>`;
}

function efficiencyTable(d: ReportData): string {
  const rows = d.efficiency.map((e) => `<tr>${td(e.dataset)}${td(markedLabel(e.series, e.upperBound))}${td(e.stage)}${td(e.calls, 'num')}${td(e.errors || '', 'num')}${td(e.p50Ms.toFixed(1), 'num')}${td(e.p95Ms.toFixed(1), 'num')}${td(e.stage === 'retrieval' ? '' : (e.promptTokens + e.completionTokens).toFixed(0), 'num')}${td(e.stage === 'retrieval' ? '' : `$${e.costUsd.toFixed(4)}`, 'num')}</tr>`);
  return `<table class="grid"><thead><tr><th>dataset</th><th>method</th><th>stage</th><th>calls</th><th>errors</th><th>p50 ms</th><th>p95 ms</th><th>tokens / question</th><th>cost</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function costPerCorrectTable(d: ReportData): string {
  if (d.costPerCorrect.length === 0 || !d.efficiency.some((e) => e.stage !== 'retrieval')) return '';
  const pct = (x: number | null) => (x === null ? '' : `${(x * 100).toFixed(0)}%`);
  const rows = d.costPerCorrect.map((r) => `<tr>${td(r.dataset)}${td(r.series)}${td(r.n, 'num')}${td(r.correct.toFixed(1), 'num')}${td(r.accuracy.toFixed(3), 'num')}${td(`$${r.costUsd.toFixed(4)}`, 'num')}${td(r.perCorrectUsd === null ? 'n/a' : `$${r.perCorrectUsd.toFixed(4)}`, 'num')}${td(pct(r.cachedShare), 'num')}${td(pct(r.batchShare), 'num')}</tr>`);
  return `<h3>Cost per correct answer</h3><p>The method's LLM cost (retrieval steps and reader; the judge excluded) ÷ counted questions judged correct; prompt-cached = share of prompt tokens the provider served from its prompt cache; batch = share of calls through the Batch API.</p>
<table class="grid"><thead><tr><th>dataset</th><th>method</th><th>n</th><th>correct</th><th>accuracy</th><th>method cost</th><th>$ / correct</th><th>prompt-cached</th><th>batch</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

const chartBox = (id: string): string => `<div class="chart" id="chart-${id}" data-chart="${id}"></div>`;

const STYLE = `
body{font:14px/1.45 system-ui,-apple-system,"DejaVu Sans",sans-serif;margin:0;color:#1b1b1b;background:#fafafa}
header{background:#1f3a5f;color:#fff;padding:14px 24px}header h1{margin:0;font-size:20px}
nav{position:sticky;top:0;background:#fff;border-bottom:1px solid #ddd;padding:6px 24px;z-index:2}nav a{margin-right:14px}
main{padding:0 24px 40px}section{background:#fff;border:1px solid #e3e3e3;border-radius:6px;margin:16px 0;padding:8px 16px 16px}
table.grid{border-collapse:collapse;margin:8px 0;font-size:13px}table.grid th,table.grid td{border:1px solid #ddd;padding:3px 7px;text-align:left;vertical-align:top}
table.grid th{background:#f1f3f5}td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}.n,.muted{color:#777;font-size:12px}
table.kv th{text-align:left;padding-right:12px;color:#555;font-weight:600}.mono{font-family:"DejaVu Sans Mono",monospace;font-size:12px}
tr.upper td,div.method.upper{background:repeating-linear-gradient(45deg,#fff,#fff 6px,#f3f3f3 6px,#f3f3f3 12px)}
tr.sig td{font-weight:600}tr.q{cursor:pointer}tr.q:hover{background:#eef4ff}tr.ev td{background:#e7f6ec}
.chart{margin:10px 0;overflow-x:auto}.filters label{margin-right:12px}pre{max-height:320px;overflow:auto;background:#f6f8fa;padding:8px}
#drill-detail{border:2px solid #1f3a5f;border-radius:6px;padding:8px 16px;margin-top:12px;background:#fff}
div.method{border-top:1px solid #ddd;padding:6px 0}.question{font-size:16px;font-weight:600}.error{color:#BE0032}button.close{float:right}
`;

export function renderPage(p: PageInput): string {
  const d = p.data;
  const has = (id: string): boolean => id in p.charts;
  const sections: string[] = [provenance(d)];
  if (d.verdicts.length > 0) sections.push(verdictsSection(d));
  sections.push(`<section id="scores"><h2>Scores by AdaptMR type${d.hasCi ? ' (mean [95% CI] (n))' : ' (mean (n); this file has no CIs)'}</h2>
<p class="filters"><label>metric <select id="pick-metric">${p.combos.map((c) => `<option value="${esc(c.value)}"${c.value === p.initial ? ' selected' : ''}>${esc(c.label)}</option>`).join('')}</select></label>
<span class="muted">Outlined, hatched entries are upper bounds (oracle: they saw the gold type).</span></p>
<div id="score-table"></div>${has('scores') ? chartBox('scores') : ''}</section>`);
  if (d.comparisons.length > 0) {
    sections.push(`<section id="comparisons"><h2>Paired comparisons</h2><p class="muted">Follows the metric picker above; rows in bold survive Holm's correction (p_holm &lt; 0.05).</p>
<div id="comparison-table"></div>${chartBox('comparisons')}</section>`);
  }
  if (d.efficiency.length > 0) {
    sections.push(`<section id="efficiency"><h2>Efficiency</h2>${efficiencyTable(d)}${costPerCorrectTable(d)}${has('latency') ? chartBox('latency') : ''}${has('tokens') ? chartBox('tokens') : ''}</section>`);
  }
  if (has('routes')) sections.push(`<section id="routing"><h2>Routing</h2><p class="muted">Share of questions each method sent to each strategy.</p>${chartBox('routes')}</section>`);
  sections.push(`<section id="drill"><h2>Questions</h2>
<p class="filters"><label>dataset <select id="f-dataset"><option value="">all</option></select></label>
<label>type <select id="f-type"><option value="">all</option></select></label>
<label>method <select id="f-method"><option value="">all</option></select></label>
<label>text <input id="f-text" type="search" placeholder="id or words"></label> <span id="drill-count" class="muted"></span></p>
<div id="drill-detail" hidden></div>
<table class="grid"><thead><tr><th>dataset</th><th>question</th><th>type</th><th>native</th><th>text</th><th>hits</th></tr></thead><tbody id="drill-rows"></tbody></table>
<p class="muted">hits = methods whose top-k retrieval contains an evidence session (recall_any at the file's largest session k).</p></section>`);
  const nav = [['provenance', 'Provenance'], ['verdicts', 'Verdicts'], ['scores', 'Scores'], ['comparisons', 'Comparisons'], ['efficiency', 'Efficiency'], ['routing', 'Routing'], ['drill', 'Questions']]
    .filter(([id]) => sections.some((s) => s.includes(`<section id="${id}"`))).map(([id, t]) => `<a href="#${id}">${t}</a>`).join('');
  const payload = JSON.stringify({ data: d, charts: p.charts, picked: p.picked, types: TYPE_COLUMNS }).replaceAll('<', '\\u003c');
  const title = `AdaptMR report — ${d.experiment ?? d.runs.map((r) => r.name).join(', ')}`;
  const scripts = [...vegaBundles(), CLIENT_SCRIPT];
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${esc(contentSecurityPolicy(scripts))}">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>${esc(title)}</title><style>${STYLE}</style></head>
<body><header><h1>${esc(title)}</h1></header><nav>${nav}</nav><main>
${sections.join('\n')}
</main>
<script id="report-data" type="application/json">${payload}</script>
${scripts.map(inlineScript).join('\n')}
</body></html>
`;
}
