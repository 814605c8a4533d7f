/**
 * The HTML of the report page: one file with every style, script and datum inline. vega, vega-lite and vega-embed
 * are read from node_modules (their UMD builds) and inlined, the data travels as JSON in a
 * `<script type="application/json">`, and a Content-Security-Policy with `default-src 'none'` makes the browser
 * refuse any fetch, so the page provably works offline from file://; it lets only the page's own scripts run
 * (`contentSecurityPolicy`). Server-rendered: provenance, methods and
 * efficiency tables; client-rendered (the browser script, browser/): tables that follow the metric picker, charts, drill-down.
 */
import { unlockedOf } from '../unlocked-note.ts';
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { TopLevelSpec } from 'vega-lite';
import { TYPE_COLUMNS } from '../per-type-table.ts';
import { markedLabel } from '../palette.ts';
import { browserScript } from './browser-script.ts';
import type { PagePayload } from './browser/payload.ts';
import { holmText, mdeText, verdictEstimate } from '../verdict-table.ts';
import { claimLabel } from '../claim-label.ts';
import type { SectionTable } from '../plan/section.ts';
import type { VerdictRow } from '../../store/index.ts';
import type { ReportData } from './load-data.ts';
import { nativeSection } from './native-section.ts';

const require = createRequire(import.meta.url);

/** A file of an installed package, found from its resolved entry (the packages' `exports` hide their build/). */
function packageFile(name: string, file: string): string {
  let dir = dirname(require.resolve(name));
  while (!dir.endsWith(`node_modules/${name}`) && dirname(dir) !== dir) dir = dirname(dir);
  return readFileSync(join(dir, file), 'utf8');
}

export function vegaBundles(): string[] {
  return [
    packageFile('vega', 'build/vega.min.js'),
    packageFile('vega-lite', 'build/vega-lite.min.js'),
    packageFile('vega-embed', 'build/vega-embed.min.js'),
  ];
}

export const esc = (s: unknown): string =>
  String(s ?? '')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');
/** A script's text as it is inlined (a `</script` inside it escaped). */
const scriptText = (js: string): string => js.replaceAll('</script', '<\\/script');
const inlineScript = (js: string): string => `<script>${scriptText(js)}</script>`;

/**
 * The page's Content-Security-Policy: nothing is fetched (`default-src 'none'`), and the only scripts that run are
 * the page's own inline scripts, each allowed by its sha256 — no `'unsafe-inline'`, so markup that reaches the DOM
 * or a window the page opens (a dataset named `<img onerror=…>`) cannot run, and no `'unsafe-eval'`: vega evaluates
 * its expressions with its interpreter (`ast: true`, browser/charts.ts) rather than generated code.
 */
export function contentSecurityPolicy(scripts: readonly string[]): string {
  const hashes = scripts.map(
    (js) => `'sha256-${createHash('sha256').update(scriptText(js), 'utf8').digest('base64')}'`,
  );
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
    const cfg = r.config as {
      embedder?: unknown;
      llm?: { roles?: Record<string, { model?: string }> };
      datasets?: unknown;
    } | null;
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
${unlockedOf(r.datasetHashes).length > 0 ? `<tr><th>UNLOCKED DATA</th>${td(`read files that differ from the lock file (--allow-unlocked): ${unlockedOf(r.datasetHashes).join('; ')}`)}</tr>` : ''}
</table>
<details><summary>resolved config</summary><pre>${esc(JSON.stringify(r.config, null, 2))}</pre></details>
<details><summary>dataset hashes</summary><pre>${esc(JSON.stringify(r.datasetHashes, null, 2))}</pre></details>
${r.inputFiles ? `<details><summary>model and calibration files (sha256)</summary><pre>${esc(JSON.stringify(r.inputFiles, null, 2))}</pre></details>` : ''}
<details><summary>package versions</summary><pre>${esc(
      Object.entries(r.packageVersions ?? {})
        .map(([k, v]) => `${k} ${v}`)
        .join('\n'),
    )}</pre></details>
</div>`;
  });
  const methods = d.methods.map(
    (m) =>
      `<tr class="${m.upperBound ? 'upper' : ''}">${td(m.runId, 'mono')}${td(markedLabel(m.series, m.upperBound))}${td(m.kind)}${td(m.granularity)}${td(m.k, 'num')}${td(m.output)}${td(m.upperBound ? 'yes' : '')}${td(m.degraded ?? '')}${td(m.providerCuts ?? '')}</tr>`,
  );
  return `<section id="provenance"><h2>Run provenance</h2>
<p>File <code>${esc(d.file)}</code> · schema version ${esc(d.schemaVersion)}${d.experiment ? ` · experiment <b>${esc(d.experiment)}</b>` : ''} · ${d.runs.length} run(s) · report generated ${esc(d.generatedAt)}</p>
${runs.join('\n')}
<h3>Methods</h3><table class="grid"><thead><tr><th>run</th><th>method</th><th>kind</th><th>granularity</th><th>k</th><th>output</th><th>sees gold type</th><th>degraded</th><th>provider vs k</th></tr></thead>
<tbody>${methods.join('')}</tbody></table></section>`;
}

/** Each plan experiment in words, and what its claims test (docs/statistics.md). */
const EXPERIMENTS: Record<string, { title: string; claims: string }> = {
  'existing-systems': {
    title: 'Experiment 1 — existing systems by query type',
    claims:
      'factual-high-weak-low: mean(factual) − mean(weak type) of one system (different questions: a two-sample bootstrap); reached when the CI is above 0.',
  },
  'oracle-upper-bound': {
    title: 'Experiment 2 — the oracle strategy (held-out)',
    claims:
      "oracle − reference on the report half (target: the plan's gap overall, > 0 per type); oracle − the best single strategy; and the premise: the oracle beats every single strategy. The oracle strategy (held-out) routes by the gold type, never a deployable method, and is not a bound: only the per-question ceiling is (a single strategy can beat the oracle).",
  },
  'adaptmr-vs-baselines': {
    title: 'Experiment 3 — AdaptMR vs baselines',
    claims:
      "each AdaptMR variant − unified embedding (plan: +5 points overall, +15 on temporal and update, > 0 elsewhere), − each baseline that ran (> 0; stand-ins and AdaptMR's own strategies are not baselines) and − all of them at once (intersection-union); a variant over its own first stage (BM25, hybrid). Primary Holm families per dataset: the overall claims, and all per-type claims together.",
  },
  ablations: {
    title: 'Experiment 4 — ablations',
    claims:
      "each variation − the full system (same method, paired): the claim is a drop (CI below 0); the reason says on which type the plan predicts one. Holm over the sweep's variations per dataset × type.",
  },
  efficiency: {
    title: 'Experiment 5 — efficiency',
    claims:
      "Σ latency(AdaptMR) ÷ Σ latency(reference) over the same questions: reached when the ratio's CI is below 1.3 (the plan's < 30%); judged only with ≥ 3 timing repeats and a reference of ≥ 1 ms per question.",
  },
  'beyond-benchmarks': {
    title: 'Beyond the plan — the comparison on other benchmarks',
    claims: "the plan's comparisons on the benchmarks beyond LongMemEval and LoCoMo.",
  },
  'router-transfer': {
    title: 'Beyond the plan — routing fitted on one benchmark, tested on others',
    claims: 'a router trained on one benchmark against the same router trained in-domain.',
  },
};
const PLAN_ORDER = Object.keys(EXPERIMENTS);

/** `ablations` → "Experiment 4 — ablations"; `<experiment>/<run>` keeps the run. */
export function experimentTitle(experiment: string): string {
  const [base = experiment, run] = experiment.split('/');
  const title = EXPERIMENTS[base]?.title ?? experiment;
  return run ? `${title} (run ${run})` : title;
}

/** A flagged row's marks (flags.ts): one small badge per flag, its rule in the title. */
function flagMarks(flags: string): string {
  const titles: Record<string, string> = {
    ceiling: 'the side to beat is within the cell MDE of 100%',
    floor: 'the side wanted higher is within the cell MDE of 0%',
    chance: 'a method does not score above a random top-k',
    inert: 'the ablation changed no ranking',
    tie: 'the comparator tied with others on the selection half',
  };
  return flags
    .split(',')
    .filter(Boolean)
    .map((f) => ` <span class="badge flag" title="${esc(titles[f] ?? f)}">⚑ ${esc(f)}</span>`)
    .join('');
}

/** The findings (table `findings`): what the verdicts show, per experiment and dataset — the page opens with them. */
function findingsSection(d: ReportData): string {
  if (d.findings.length === 0) return '';
  const experiments = [...new Set(d.findings.map((f) => f.experiment))];
  const blocks = experiments.map(
    (e) =>
      `<h3>${esc(experimentTitle(e))}</h3><ul>${d.findings
        .filter((f) => f.experiment === e)
        .map(
          (f) =>
            `<li><b>${esc(f.dataset)}</b>: ${esc(f.finding)}<div class="claim-id mono">${esc(f.supportingClaims)}</div></li>`,
        )
        .join('')}</ul>`,
  );
  return `<section id="findings"><h2>What the runs show</h2><p class="muted">Derived from the stored verdicts by the rules of docs/statistics.md ("Findings"); under each, the verdict rows it rests on. ⚑ marks a flagged row below (ceiling, floor, chance, inert, tie).</p>${blocks.join('\n')}</section>`;
}

/** The verdicts grouped by experiment, in the plan's order (unknown experiments after, by name). */
export function verdictGroups(rows: readonly VerdictRow[]): { experiment: string; rows: VerdictRow[] }[] {
  const order = (e: string): number => {
    const i = PLAN_ORDER.indexOf(e.split('/')[0]!);
    return i < 0 ? PLAN_ORDER.length : i;
  };
  const names = [...new Set(rows.map((v) => v.experiment))].sort(
    (a, b) => order(a) - order(b) || (a < b ? -1 : a > b ? 1 : 0),
  );
  return names.map((experiment) => ({
    experiment,
    rows: sortVerdicts(rows.filter((v) => v.experiment === experiment)),
  }));
}

const TYPE_ORDER = ['all', ...TYPE_COLUMNS.filter((t) => t !== 'all')];
/** The overall (type `all`) claims first, then the per-type ones; each by dataset, claim, sides and type. */
function sortVerdicts(rows: readonly VerdictRow[]): VerdictRow[] {
  const cmp = (a: string | null, b: string | null): number =>
    (a ?? '') < (b ?? '') ? -1 : (a ?? '') > (b ?? '') ? 1 : 0;
  const t = (x: string): number => {
    const i = TYPE_ORDER.indexOf(x);
    return i < 0 ? TYPE_ORDER.length : i;
  };
  const overall = (v: VerdictRow): number => (v.adaptType === 'all' ? 0 : 1);
  return [...rows].sort(
    (a, b) =>
      overall(a) - overall(b) ||
      cmp(a.dataset, b.dataset) ||
      cmp(a.claim, b.claim) ||
      cmp(a.methodA, b.methodA) ||
      cmp(a.methodB, b.methodB) ||
      t(a.adaptType) - t(b.adaptType),
  );
}

const VERDICT_CLASS: Record<string, string> = {
  reached: 'v-reached',
  'not established': 'v-open',
  'not met': 'v-not',
  'n/a': 'v-na',
};

/**
 * The experiment section (contract: element id `experiment`, one table row per stored verdict): per experiment, a
 * count by verdict and a table of its claims — what is compared (in words, and the claim id), type, headline, n,
 * estimate with CI, p_holm within its family of m, MDE, verdict and reason. Nothing here decides a verdict.
 */
function experimentSection(d: ReportData, charts: Record<string, TopLevelSpec>): string {
  const groups = verdictGroups(d.verdicts);
  const tables = groups.map((g, gi) => {
    const counts = Object.keys(VERDICT_CLASS)
      .map((k) => [k, g.rows.filter((v) => v.verdict === k).length] as const)
      .filter(([, n]) => n > 0);
    const firstPerType = g.rows.findIndex((v) => v.adaptType !== 'all');
    const rows = g.rows.map(
      (v, i) =>
        `<tr class="verdict ${VERDICT_CLASS[v.verdict] ?? ''}${i === firstPerType && i > 0 ? ' per-type' : ''}" data-dataset="${esc(v.dataset)}" data-type="${esc(v.adaptType)}" data-verdict="${esc(v.verdict)}" data-flags="${esc(v.flags)}">` +
        `${td(v.dataset)}<td class="what">${esc(claimLabel(v, d.methodMarks))}<div class="claim-id mono">${esc(v.claim)}</div></td>${td(v.adaptType)}` +
        `${td(v.metric === null ? '' : `${v.metric}${v.k === null ? '' : `@${v.k}`} · ${v.level ?? ''}`, 'hl')}${td(v.n, 'num')}${td(verdictEstimate(v), 'num')}` +
        `${td(holmText(v), 'num')}${td(mdeText(v), 'num')}<td class="vcell"><span class="badge">${esc(v.verdict)}</span>${flagMarks(v.flags)}</td>${td(v.reason, 'reason')}</tr>`,
    );
    const base = g.experiment.split('/')[0]!;
    return `<div class="exp-verdicts" data-experiment="${esc(g.experiment)}">${groups.length > 1 ? `<h3>${esc(experimentTitle(g.experiment))}</h3>` : ''}
<p class="muted">${esc(EXPERIMENTS[base]?.claims ?? '')}</p>
<p class="counts">${counts.map(([k, n]) => `<span class="badge ${VERDICT_CLASS[k]}">${n} ${esc(k)}</span>`).join(' ')} <span class="muted">of ${g.rows.length} claims</span></p>
${`verdicts-${gi}` in charts ? chartBox(`verdicts-${gi}`) : ''}
<table class="grid verdicts"><thead><tr><th>dataset</th><th>compared (A − B)</th><th>type</th><th>headline</th><th>n</th><th>estimate [95% CI]</th><th>p_holm (m)</th><th>MDE</th><th>verdict</th><th>reason</th></tr></thead>
<tbody>${rows.join('')}</tbody></table></div>`;
  });
  const datasets = [...new Set(d.verdicts.map((v) => v.dataset))].sort();
  const filters =
    d.verdicts.length > 12
      ? `<p class="filters"><label>dataset <select id="v-dataset"><option value="">all</option>${datasets.map((x) => `<option>${esc(x)}</option>`).join('')}</select></label>
<label>type <select id="v-type"><option value="">every type</option>${TYPE_ORDER.filter((t) =>
          d.verdicts.some((v) => v.adaptType === t),
        )
          .map((t) => `<option${t === 'all' ? ' selected' : ''}>${esc(t)}</option>`)
          .join('')}</select></label>
<label>verdict <select id="v-verdict"><option value="">any</option>${Object.keys(VERDICT_CLASS)
          .filter((k) => d.verdicts.some((v) => v.verdict === k))
          .map((k) => `<option>${esc(k)}</option>`)
          .join('')}</select></label> <span id="v-count" class="muted"></span></p>`
      : '';
  return `<section id="experiment"><h2>${esc(groups.length === 1 ? `${experimentTitle(groups[0]!.experiment)}: verdicts` : "The experiments' verdicts")}</h2>
<p class="muted">One row per claim, as stored in the results file (table <code>verdicts</code>), the overall claims first, then per type (the type filter shows the overall rows first: pick "every type" for all); the chart shows them at a glance. Estimate in points (A − B; the overhead claim: a time ratio); p_holm within the declared family of m claims; MDE = the smallest difference detectable with 80% power at that n (α = 0.05 / m) — "not established" with a large MDE means the sample could not have shown it. Stand-ins are marked (offline); gold-type routing says so; flags (ceiling, floor, chance, inert, tie) mark rows whose cells cannot show a difference.${d.chanceNote ? ` <strong>${esc(d.chanceNote)}.</strong>` : ''}</p>
${filters}${d.verdicts.length === 0 ? '<p>No verdicts stored in this file (plan experiments store them when their statistics are computed: <code>adaptmr run</code>, <code>adaptmr report</code>).</p>' : tables.join('\n')}</section>`;
}

/** A section table (head and rows as the terminal prints them) as HTML. */
function sectionTable(t: SectionTable): string {
  return `<h4>${esc(t.title)}</h4><div class="scroll"><table class="grid"><thead><tr>${t.head.map((h) => `<th>${esc(h)}</th>`).join('')}</tr></thead>
<tbody>${t.rows.map((r) => `<tr>${r.map((c, i) => td(c, i > 1 ? 'cell' : '')).join('')}</tr>`).join('')}</tbody></table></div>`;
}

/** Per experiment: its own charts, its tables, and the terminal section folded. */
function experimentDetail(d: ReportData): string {
  const groups = verdictGroups(d.verdicts);
  const parts: string[] = [];
  const experiments = [
    ...new Set([...groups.map((g) => g.experiment.split('/')[0]!), ...d.experiments.map((e) => e.experiment)]),
  ].sort(
    (a, b) =>
      (PLAN_ORDER.indexOf(a) < 0 ? 99 : PLAN_ORDER.indexOf(a)) -
      (PLAN_ORDER.indexOf(b) < 0 ? 99 : PLAN_ORDER.indexOf(b)),
  );
  for (const name of experiments) {
    const views = d.experiments.map((e, i) => ({ e, i })).filter(({ e }) => e.experiment === name);
    const own = views
      .map(
        ({
          e,
          i,
        }) => `<div class="exp-view"><h3>${esc(e.title)}</h3>${e.notes.map((n) => `<p class="muted">${esc(n)}</p>`).join('')}
${e.charts.map((_, j) => chartBox(`exp-${i}-${j}`)).join('')}
${e.tables.map(sectionTable).join('\n')}
<details><summary>the terminal report's section (text)</summary><pre>${esc(e.text)}</pre></details></div>`,
      )
      .join('\n');
    if (own)
      parts.push(
        `<div class="exp-detail" data-experiment="${esc(name)}">${experiments.length > 1 ? `<h3>${esc(experimentTitle(name))}</h3>` : ''}${own}</div>`,
      );
  }
  if (parts.length === 0) return '';
  return `<section id="experiment-detail"><h2>${experiments.length === 1 ? esc(experimentTitle(experiments[0]!)) : 'The experiments'}: charts and tables</h2>${parts.join('\n')}</section>`;
}

function efficiencyTable(d: ReportData): string {
  const rows = d.efficiency.map(
    (e) =>
      `<tr>${td(e.dataset)}${td(markedLabel(e.series, e.upperBound))}${td(e.stage)}${td(e.calls, 'num')}${td(e.errors || '', 'num')}${td(e.p50Ms.toFixed(1), 'num')}${td(e.p95Ms.toFixed(1), 'num')}${td(e.stage === 'retrieval' ? '' : (e.promptTokens + e.completionTokens).toFixed(0), 'num')}${td(e.stage === 'retrieval' ? '' : `$${e.costUsd.toFixed(4)}`, 'num')}</tr>`,
  );
  return `<table class="grid"><thead><tr><th>dataset</th><th>method</th><th>stage</th><th>calls</th><th>errors</th><th>p50 ms</th><th>p95 ms</th><th>tokens / question</th><th>cost</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function costPerCorrectTable(d: ReportData): string {
  if (d.costPerCorrect.length === 0 || !d.efficiency.some((e) => e.stage !== 'retrieval')) return '';
  const pct = (x: number | null) => (x === null ? '' : `${(x * 100).toFixed(0)}%`);
  const rows = d.costPerCorrect.map(
    (r) =>
      `<tr>${td(r.dataset)}${td(r.series)}${td(r.n, 'num')}${td(r.correct.toFixed(1), 'num')}${td(r.accuracy.toFixed(3), 'num')}${td(`$${r.costUsd.toFixed(4)}`, 'num')}${td(r.perCorrectUsd === null ? 'n/a' : `$${r.perCorrectUsd.toFixed(4)}`, 'num')}${td(pct(r.cachedShare), 'num')}${td(pct(r.batchShare), 'num')}</tr>`,
  );
  return `<h3>Cost per correct answer</h3><p>The method's LLM cost (retrieval steps and reader; the judge excluded) ÷ counted questions judged correct; prompt-cached = share of prompt tokens the provider served from its prompt cache; batch = share of calls through the Batch API.</p>
<table class="grid"><thead><tr><th>dataset</th><th>method</th><th>n</th><th>correct</th><th>accuracy</th><th>method cost</th><th>$ / correct</th><th>prompt-cached</th><th>batch</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

const chartBox = (id: string): string => `<div class="chart" id="chart-${id}" data-chart="${id}"></div>`;

const STYLE = `
body{font:14px/1.45 system-ui,-apple-system,"DejaVu Sans",sans-serif;margin:0;color:#1b1b1b;background:#fafafa}
header{background:#1f3a5f;color:#fff;padding:14px 24px}header h1{margin:0;font-size:20px}header p{margin:4px 0 0;color:#d6e0ee;font-size:13px}
nav{position:sticky;top:0;background:#fff;border-bottom:1px solid #ddd;padding:6px 24px;z-index:2}nav a{margin-right:14px}
main{padding:0 24px 40px;max-width:1920px;box-sizing:border-box}section{background:#fff;border:1px solid #e3e3e3;border-radius:6px;margin:16px 0;padding:8px 16px 16px;min-width:0}
table.grid{border-collapse:collapse;margin:8px 0;font-size:13px;max-width:100%}table.grid th,table.grid td{border:1px solid #ddd;padding:3px 7px;text-align:left;vertical-align:top}
table.grid th{background:#f1f3f5}table.grid td:first-child{white-space:nowrap}td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}td.cell{font-variant-numeric:tabular-nums}.n,.muted{color:#666;font-size:12px}
table.verdicts{width:100%}tr.per-type td{border-top:3px solid #bbb}table.verdicts td{white-space:nowrap}table.verdicts td.what{white-space:normal;min-width:12em}table.verdicts td.hl{white-space:normal;min-width:6em}table.verdicts td.vcell{white-space:normal}
table.verdicts td.reason{white-space:normal;font-size:12px;color:#333;min-width:12em;overflow-wrap:anywhere}.claim-id{color:#777;font-size:11px}
.badge{display:inline-block;padding:0 6px;border-radius:8px;font-size:12px;white-space:nowrap;background:#eee}.badge.flag{background:#fff3c4;color:#6b4e00;margin-left:2px}
.v-reached .badge,.badge.v-reached{background:#d6f0e0;color:#0b5a34}.v-not .badge,.badge.v-not{background:#f8d7dc;color:#8a0020}
.v-open .badge,.badge.v-open{background:#fdefd3;color:#7a4b00}.v-na .badge,.badge.v-na{background:#eee;color:#555}
table.kv th{text-align:left;padding-right:12px;color:#555;font-weight:600}.mono{font-family:"DejaVu Sans Mono",monospace;font-size:12px}
tr.upper td,div.method.upper{background:repeating-linear-gradient(45deg,#fff,#fff 6px,#f3f3f3 6px,#f3f3f3 12px)}
tr.sig td{font-weight:600}tr.q{cursor:pointer}tr.q:hover{background:#eef4ff}tr.ev td{background:#e7f6ec}tr.evt td{background:#c9ecd6}
.chart{margin:10px 0;max-width:100%}div.chart.vega-embed{display:block}.chart .vega-embed{max-width:100%}.chart svg{max-width:100%;height:auto}.filters label{margin-right:12px}
.scroll{overflow-x:auto;max-width:100%}pre{max-height:320px;overflow:auto;background:#f6f8fa;padding:8px;max-width:100%;box-sizing:border-box}
.exp-detail{border-top:1px solid #e3e3e3;margin-top:8px}.exp-view h4{margin:14px 0 2px;font-size:13px}.exp-view p.muted{white-space:pre-line}
#drill-detail{border:2px solid #1f3a5f;border-radius:6px;padding:8px 16px;margin-top:12px;background:#fff;scroll-margin-top:48px}
.pair{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,420px),1fr));gap:12px}
div.method{border-top:1px solid #ddd;padding:6px 0;min-width:0}.question{font-size:16px;font-weight:600}.error{color:#BE0032}button.close{float:right}
.swatch{display:inline-block;width:10px;height:10px;border-radius:2px;margin-right:5px;vertical-align:baseline}
table.units td.text{white-space:pre-line;font-size:12px;min-width:16em}table.units td.date{white-space:nowrap;font-size:12px}
`;

const COMPARISON_COLUMNS = [
  'run',
  'run_b',
  'dataset',
  'method_a',
  'method_b',
  'metric',
  'level',
  'k',
  'adapt_type',
  'n_pairs',
  'mean_diff',
  'ci_low',
  'ci_high',
  'p_holm',
  'family_size',
];

/** The score table's section: the metric picker (it drives the tables and charts below), the table, its chart. */
function scoresSection(p: PageInput): string {
  const d = p.data;
  const derived = d.scores.some((r) => r.level === 'session' && r.granularity === 'turn');
  return `<section id="scores"><h2>Scores by AdaptMR type${d.hasCi ? ' (mean [95% CI] (n))' : ' (mean (n); this file has no CIs)'}</h2>
<p class="filters"><label>metric <select id="pick-metric">${p.combos.map((c) => `<option value="${esc(c.value)}"${c.value === p.initial ? ' selected' : ''}>${esc(c.label)}</option>`).join('')}</select></label></p>
<p class="muted">The picker drives this table, the charts and the comparisons below. Outlined, hatched entries are gold-type routing (oracle: they saw the gold type; not a bound); "(offline)" marks a stand-in.${derived ? ' At session level, a method that ranks turns is scored on the sessions of its top turns ("session of top turns").' : ''}</p>
<div id="score-table" class="scroll"></div>${'scores' in p.charts ? chartBox('scores') : ''}</section>`;
}

/** The paired comparisons' section: dataset and chart-type pickers, the table the browser script fills, the chart. */
function comparisonsSection(d: ReportData): string {
  const types = TYPE_ORDER.filter((t) => d.comparisons.some((c) => c.adapt_type === t));
  return `<section id="comparisons"><h2>Paired comparisons</h2><p class="muted">A − B in points with the 95% paired bootstrap CI, and p_holm within its Holm family of m comparisons (bold: p_holm &lt; 0.05); one row per pair, one column per type. Follows the metric picker above; the chart shows one type at a time.</p>
<p class="filters"><label>dataset <select id="c-dataset"><option value="">all</option>${[
    ...new Set(d.comparisons.map((c) => String(c.dataset))),
  ]
    .sort()
    .map((x) => `<option>${esc(x)}</option>`)
    .join('')}</select></label>
<label>chart type <select id="c-type">${types.map((t) => `<option${t === 'all' ? ' selected' : ''}>${esc(t)}</option>`).join('')}</select></label></p>
<div id="comparison-table" class="scroll"></div>${chartBox('comparisons')}</section>`;
}

/** The drill-down's section: its filters and the (empty) question table the browser script fills. */
function drillSection(d: ReportData): string {
  return `<section id="drill"><h2>Questions</h2>
<p class="filters"><label>dataset <select id="f-dataset"><option value="">all</option></select></label>
<label>type <select id="f-type"><option value="">all</option></select></label>
<label>method <select id="f-method"><option value="">all</option></select></label>
<label>compare with <select id="f-method-b"><option value="">—</option></select></label>
<label>text <input id="f-text" type="search" placeholder="id or words"></label> <span id="drill-count" class="muted"></span></p>
<p class="muted">Click a question: each method's ranked units with their date and first lines (read back from the dataset by its sha256), evidence highlighted (dark: an evidence turn, light: an evidence session). Pick a method and "compare with" another to see the two side by side.${d.unitNotes.length > 0 ? ` ${esc(d.unitNotes.join('; '))}.` : ''}</p>
<div id="drill-detail" hidden></div>
<div class="scroll"><table class="grid"><thead><tr><th>dataset</th><th>question</th><th>type</th><th>native</th><th>text</th><th>hits</th></tr></thead><tbody id="drill-rows"></tbody></table></div>
<p class="muted">hits = methods whose top-k retrieval contains an evidence session (recall_any at the file's largest session k).</p></section>`;
}

/** The page's sections in order; the experiment's verdicts and charts, when the file has them, after the findings. */
function pageSections(p: PageInput): string[] {
  const d = p.data;
  const has = (id: string): boolean => id in p.charts;
  const sections: string[] = [];
  const findings = findingsSection(d);
  if (findings) sections.push(findings);
  if (d.verdicts.length > 0 || d.experiments.length > 0) {
    sections.push(experimentSection(d, p.charts));
    const detail = experimentDetail(d);
    if (detail) sections.push(detail);
  }
  sections.push(scoresSection(p));
  const native = nativeSection(d.nativeScores, has('native') ? chartBox('native') : '');
  if (native) sections.push(native);
  if (d.comparisons.length > 0) sections.push(comparisonsSection(d));
  if (d.efficiency.length > 0) {
    sections.push(
      `<section id="efficiency"><h2>Efficiency</h2><div class="scroll">${efficiencyTable(d)}</div><div class="scroll">${costPerCorrectTable(d)}</div>${has('latency') ? chartBox('latency') : ''}${has('tokens') ? chartBox('tokens') : '<p class="muted">No LLM tokens in this file: retrieval-only methods spend none.</p>'}</section>`,
    );
  }
  if (has('routes'))
    sections.push(
      `<section id="routing"><h2>Routing</h2><p class="muted">Share of questions each method sent to each strategy.</p>${chartBox('routes')}</section>`,
    );
  if (d.judgeText.length > 0)
    sections.push(
      `<section id="judges"><h2>Judge panel</h2><p class="muted">Agreement between judges, whether each comparison holds under every judge, and the leniency probes — as the terminal report prints them.</p>${d.judgeText.map((t) => `<pre>${esc(t)}</pre>`).join('')}</section>`,
    );
  sections.push(drillSection(d));
  sections.push(provenance(d));
  return sections;
}

/** Links to the sections the page has. */
function navOf(sections: readonly string[]): string {
  return [
    ['experiment', 'Verdicts'],
    ['experiment-detail', 'Experiment charts'],
    ['scores', 'Scores'],
    ['native-types', 'Native types'],
    ['comparisons', 'Comparisons'],
    ['efficiency', 'Efficiency'],
    ['routing', 'Routing'],
    ['judges', 'Judges'],
    ['drill', 'Questions'],
    ['provenance', 'Provenance'],
  ]
    .filter(([id]) => sections.some((s) => s.includes(`<section id="${id}"`)))
    .map(([id, t]) => `<a href="#${id}">${t}</a>`)
    .join('');
}

/**
 * The data the browser script reads (browser/payload.ts), as JSON safe inside a script element: the experiments'
 * tables are already in the HTML and their charts in `charts`; the comparisons keep the columns the page reads (the
 * file's have the test, bootstrap, resamples… as well).
 */
function payloadJson(p: PageInput): string {
  const d = p.data;
  const comparisons = d.comparisons.map((c) => Object.fromEntries(COMPARISON_COLUMNS.map((k) => [k, c[k] ?? null])));
  const data = { ...d, experiments: [], comparisons };
  const payload = { data, charts: p.charts, picked: p.picked, types: TYPE_COLUMNS } satisfies PagePayload;
  return JSON.stringify(payload).replaceAll('<', '\\u003c');
}

export function renderPage(p: PageInput): string {
  const d = p.data;
  const sections = pageSections(p);
  const name = d.experiment ?? d.runs.map((r) => r.name).join(', ');
  const title = `AdaptMR report — ${name}`;
  const sub = `${d.file} · ${d.runs.length} run(s) · ${d.questions.length} questions · ${new Set(d.methods.map((m) => m.method)).size} method(s)`;
  const scripts = [...vegaBundles(), browserScript()];
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${esc(contentSecurityPolicy(scripts))}">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>${esc(title)}</title><style>${STYLE}</style></head>
<body><header><h1>${esc(title)}</h1><p>${esc(sub)}</p></header><nav>${navOf(sections)}</nav><main>
${sections.join('\n')}
</main>
<script id="report-data" type="application/json" data-encoding="gzip-base64">${gzipSync(Buffer.from(payloadJson(p), 'utf8'), { level: 9 }).toString('base64')}</script>
${scripts.map(inlineScript).join('\n')}
</body></html>
`;
}
