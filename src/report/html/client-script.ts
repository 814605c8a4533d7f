/**
 * The report page's own script (plain ES2017, runs in the browser, no dependencies beyond the inlined vega-embed):
 * embeds every chart fitted to its container (chart-fit.ts: columns and panel widths from the container's width,
 * shrunk again while the drawn SVG is wider; refitted on resize), keeps the metric picker, the score and
 * comparison tables and the charts' `pick` param in step, filters the verdict rows, and drives the per-question
 * drill-down (filters by dataset, type, method and text; a click opens the question with every method's route,
 * ranked units with date and first lines, evidence highlighted, answer, verdict, tokens and latency; two methods
 * picked side by side). `window.adaptmrReport` exposes the chart count and render state for the browser test and
 * the screenshot script (`settled` once every chart is drawn and fitted). Kept as a string so the page needs no
 * build step; every text from the data goes into the DOM as text nodes, never as markup.
 */
export const CLIENT_SCRIPT = String.raw`
(function (start) {
  // The page's data is gzip-compressed and base64-encoded (page.ts), so a page with thousands of drill-down rows
  // stays small; the browser's own DecompressionStream inflates it before anything is drawn.
  var el = document.getElementById('report-data');
  if (el.getAttribute('data-encoding') !== 'gzip-base64') { start(JSON.parse(el.textContent)); return; }
  window.adaptmrReport = { rendered: 0, failed: [], expected: 0, views: {}, settled: false, refits: 0, loading: true };
  var bin = atob(el.textContent.trim());
  var bytes = new Uint8Array(bin.length);
  for (var i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'))).text().then(function (text) {
    start(JSON.parse(text));
  }, function (err) { window.adaptmrReport.failed.push('report data: ' + err); });
})(function (payload) {
  'use strict';
  var data = payload.data;
  var ids = Object.keys(payload.charts);
  var state = { rendered: 0, failed: [], expected: ids.length, views: {}, settled: ids.length === 0, refits: 0 };
  window.adaptmrReport = state;

  function h(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === 'text') node.textContent = attrs[k];
      else if (k === 'onclick') node.addEventListener('click', attrs[k]);
      else node.setAttribute(k, attrs[k]);
    });
    (children || []).forEach(function (c) { if (c !== null && c !== undefined) node.appendChild(typeof c === 'string' ? document.createTextNode(c) : c); });
    return node;
  }
  function pct(x) { return x === null || x === undefined || isNaN(x) ? '—' : (x * 100).toFixed(1) + '%'; }
  function num(x, d) { return x === null || x === undefined || isNaN(x) ? '—' : Number(x).toFixed(d); }
  function pts(x) { return x === null || x === undefined || isNaN(x) ? '—' : (x >= 0 ? '+' : '−') + Math.abs(x * 100).toFixed(1); }
  function pText(p) { return typeof p !== 'number' || isNaN(p) ? 'n/a' : p < 0.001 ? '< 0.001' : p.toFixed(3); }
  function kKey(k) { return k === null || k === undefined ? '-' : String(k); }
  function combo(r) { return r.metric + '|' + r.level + '|' + kKey(r.k); }
  function comboLabel(r) { return r.metric + (r.k === null || r.k === undefined ? '' : '@' + r.k) + ' (' + r.level + ' level)'; }
  function uniq(xs) { return xs.filter(function (x, i) { return xs.indexOf(x) === i; }); }
  var TYPES = ['all', 'factual', 'temporal', 'update', 'multi-hop', 'abstention'];
  var UB = ' (gold-type routing)';
  function label(series, upper) { return upper && series.indexOf(UB) < 0 ? series + UB : series; }
  function swatch(series) { var c = data.colors[series]; return c ? h('span', { class: 'swatch', style: 'background:' + c }) : null; }

  // Charts, fitted to their containers.
  var picker = document.getElementById('pick-metric');
  var typePick = document.getElementById('c-type');
  function clone(o) { return JSON.parse(JSON.stringify(o)); }
  function fitted(id, width, shrink) {
    var s = clone(payload.charts[id]);
    (s.params || []).forEach(function (p) {
      if (p.name === 'pick' && picker) p.value = picker.value;
      if (p.name === 'typeSel' && typePick) p.value = typePick.value;
    });
    var f = s.usermeta && s.usermeta.fit;
    if (!f || !s.spec) return s;
    var w = Math.max(200, width - shrink);
    var cols = Math.max(1, Math.min(f.panels, Math.floor(w / (f.minWidth + f.reserve))));
    s.columns = cols;
    s.spec.width = Math.max(120, Math.floor(w / cols) - f.reserve);
    return s;
  }
  var pending = 0;
  function done() { if (pending === 0 && state.rendered + state.failed.length === state.expected) state.settled = true; }
  // The width a chart may take: its section's content box (the chart box itself shrinks to its content once drawn).
  function avail(box) {
    var p = box.parentElement;
    var st = getComputedStyle(p);
    return p.clientWidth - parseFloat(st.paddingLeft) - parseFloat(st.paddingRight);
  }
  function embed(id, shrink, first) {
    var box = document.getElementById('chart-' + id);
    pending++;
    // No "View Source" (vega-embed writes the spec, data strings included, unescaped into a new window) nor editor;
    // ast: expressions run in vega's interpreter, so the page's CSP needs no 'unsafe-eval'.
    return vegaEmbed(box, fitted(id, avail(box), shrink), { renderer: 'svg', ast: true, actions: { export: true, source: false, compiled: false, editor: false } })
      .then(function (result) {
        if (state.views[id] && state.views[id] !== result.view) state.views[id].finalize();
        state.views[id] = result.view;
        // The drawn width (the SVG's own, before CSS scales it) plus the room vega-embed keeps for its menu.
        var svg = box.querySelector('svg');
        var wrap = box.querySelector('.vega-embed');
        var pad = wrap ? parseFloat(getComputedStyle(wrap).paddingRight) || 0 : 0;
        var natural = svg ? Number(svg.getAttribute('width')) || svg.getBoundingClientRect().width : 0;
        var over = natural + pad - avail(box);
        var fits = payload.charts[id].usermeta && payload.charts[id].usermeta.fit;
        pending--;
        // Still wider than its box: narrower panels by the excess; a chart without fit data is scaled down by CSS.
        if (over > 1 && fits && shrink < avail(box) && state.refits < 200) {
          state.refits++;
          return embed(id, shrink + over + 12, first);
        }
        if (first) state.rendered++;
        done();
      })
      .catch(function (err) { pending--; if (first) state.failed.push(id); console.error('chart ' + id + ' failed: ' + err); done(); });
  }
  ids.forEach(function (id) { embed(id, 0, true); });
  var lastWidth = window.innerWidth;
  var resizeTimer = null;
  window.addEventListener('resize', function () {
    if (Math.abs(window.innerWidth - lastWidth) < 20) return;
    lastWidth = window.innerWidth;
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(function () { state.settled = false; ids.forEach(function (id) { if (state.views[id]) embed(id, 0, false); }); done(); }, 150);
  });

  // Verdict filters.
  var vf = { dataset: document.getElementById('v-dataset'), type: document.getElementById('v-type'), verdict: document.getElementById('v-verdict') };
  function filterVerdicts() {
    var rows = Array.prototype.slice.call(document.querySelectorAll('#experiment tr.verdict'));
    var shown = 0;
    rows.forEach(function (r) {
      var ok = (!vf.dataset || !vf.dataset.value || r.getAttribute('data-dataset') === vf.dataset.value)
        && (!vf.type || !vf.type.value || r.getAttribute('data-type') === vf.type.value)
        && (!vf.verdict || !vf.verdict.value || r.getAttribute('data-verdict') === vf.verdict.value);
      r.style.display = ok ? '' : 'none';
      if (ok) shown++;
    });
    var count = document.getElementById('v-count');
    if (count) count.textContent = shown + ' of ' + rows.length + ' claims shown';
  }
  [vf.dataset, vf.type, vf.verdict].forEach(function (s) { if (s) s.addEventListener('change', filterVerdicts); });
  filterVerdicts();

  // The metric picker: 'headline' (each dataset at its own) or metric|level|k.
  function isHeadline(r) { var hl = data.headlines[r.dataset]; return !!hl && combo(hl) === combo(r); }
  function pickedRow(r) { return picker.value === 'headline' ? isHeadline(r) : combo(r) === picker.value; }
  function renderScores() {
    var rows = data.scores.filter(pickedRow);
    var types = TYPES.slice(1).concat(['all']).filter(function (t) { return rows.some(function (r) { return r.type === t; }); });
    var keys = uniq(rows.map(function (r) { return r.dataset + '\t' + label(r.series, r.upperBound); }));
    var table = h('table', { class: 'grid' }, [h('thead', {}, [h('tr', {}, ['dataset', 'method', 'metric'].concat(types).map(function (t) { return h('th', { text: t }); }))])]);
    var body = h('tbody');
    keys.forEach(function (key) {
      var parts = key.split('\t');
      var mine = rows.filter(function (x) { return x.dataset + '\t' + label(x.series, x.upperBound) === key; });
      var first = mine[0];
      var derived = first && first.level === 'session' && first.granularity === 'turn';
      var cells = types.map(function (t) {
        var r = mine.filter(function (x) { return x.type === t; })[0];
        if (!r) return h('td', { text: '—' });
        var ci = r.ciLow !== null && r.ciLow !== undefined ? ' [' + pct(r.ciLow) + ', ' + pct(r.ciHigh) + ']' : '';
        return h('td', { class: 'num' }, [pct(r.mean) + ci, h('span', { class: 'n', text: ' (' + r.n + ')' })]);
      });
      body.appendChild(h('tr', { class: first && first.upperBound ? 'upper' : '' }, [h('td', { text: parts[0] }), h('td', {}, [swatch(parts[1]), parts[1]]),
        h('td', { class: 'n', text: comboLabel(first) + (derived ? ' — session of top turns' : '') })].concat(cells)));
    });
    table.appendChild(body);
    var box = document.getElementById('score-table');
    box.textContent = '';
    box.appendChild(keys.length ? table : h('p', { text: 'No counted scores for this metric.' }));
  }
  function pairOf(r) {
    var mark = function (id) { return data.methodMarks[id] ? id + ' (' + data.methodMarks[id] + ')' : id; };
    var a = String(r.method_a), b = String(r.method_b), ra = String(r.run || ''), rb = String(r.run_b || ra);
    if (a === b && ra !== rb) return (data.runLabels[ra] || ra) + ' − ' + (data.runLabels[rb] || rb);
    return mark(a) + ' − ' + mark(b);
  }
  function renderComparisons() {
    var box = document.getElementById('comparison-table');
    if (!box) return;
    var ds = document.getElementById('c-dataset');
    var rows = data.comparisons.filter(function (r) { return pickedRow(r) && (!ds.value || r.dataset === ds.value); });
    var types = TYPES.filter(function (t) { return rows.some(function (r) { return r.adapt_type === t; }); });
    var groups = uniq(rows.map(function (r) { return r.dataset + '\t' + pairOf(r); }));
    var table = h('table', { class: 'grid' }, [h('thead', {}, [h('tr', {}, ['dataset', 'A − B'].concat(types).map(function (c) { return h('th', { text: c }); }))])]);
    var body = h('tbody');
    groups.forEach(function (g) {
      var mine = rows.filter(function (r) { return r.dataset + '\t' + pairOf(r) === g; });
      body.appendChild(h('tr', {}, [h('td', { text: g.split('\t')[0] }), h('td', { text: g.split('\t')[1] })].concat(types.map(function (t) {
        var r = mine.filter(function (x) { return x.adapt_type === t; })[0];
        if (!r) return h('td', { text: '—' });
        var sig = typeof r.p_holm === 'number' && r.p_holm < 0.05;
        return h('td', { class: 'num' + (sig ? ' sig' : ''), style: sig ? 'font-weight:600' : '' }, [pts(r.mean_diff) + ' [' + pts(r.ci_low) + ', ' + pts(r.ci_high) + ']',
          h('br'), h('span', { class: 'n', text: 'p_holm ' + pText(r.p_holm) + (r.family_size ? ' (m ' + r.family_size + ')' : '') + ' · n ' + r.n_pairs })]);
      }))));
    });
    table.appendChild(body);
    box.textContent = '';
    box.appendChild(groups.length ? table : h('p', { text: 'No comparisons for this metric.' }));
  }
  function onPick() {
    renderScores();
    renderComparisons();
    Object.keys(state.views).forEach(function (id) {
      if (payload.picked.indexOf(id) < 0) return;
      state.views[id].signal('pick', picker.value).runAsync();
    });
  }
  picker.addEventListener('change', onPick);
  if (typePick) typePick.addEventListener('change', function () { if (state.views.comparisons) state.views.comparisons.signal('typeSel', typePick.value).runAsync(); });
  var cds = document.getElementById('c-dataset');
  if (cds) cds.addEventListener('change', renderComparisons);
  renderScores();
  renderComparisons();

  // Drill-down.
  var f = { dataset: document.getElementById('f-dataset'), type: document.getElementById('f-type'), method: document.getElementById('f-method'), methodB: document.getElementById('f-method-b'), text: document.getElementById('f-text') };
  function fill(select, values) { values.forEach(function (v) { select.appendChild(h('option', { value: v, text: v })); }); }
  fill(f.dataset, uniq(data.questions.map(function (q) { return q.dataset; })).sort());
  fill(f.type, TYPES.slice(1).filter(function (t) { return data.questions.some(function (q) { return q.type === t; }); }));
  var allSeries = [];
  data.questions.forEach(function (q) { q.methods.forEach(function (m) { var l = label(m.series, m.upperBound); if (allSeries.indexOf(l) < 0) allSeries.push(l); }); });
  allSeries.sort();
  fill(f.method, allSeries);
  fill(f.methodB, allSeries);
  var LIMIT = 300;
  var open = null;
  function matches(q) {
    if (f.dataset.value && q.dataset !== f.dataset.value) return false;
    if (f.type.value && q.type !== f.type.value) return false;
    if (f.method.value && !q.methods.some(function (m) { return label(m.series, m.upperBound) === f.method.value; })) return false;
    var t = f.text.value.trim().toLowerCase();
    return !t || (q.id + ' ' + q.text).toLowerCase().indexOf(t) >= 0;
  }
  function renderList() {
    var rows = data.questions.filter(matches);
    var body = document.getElementById('drill-rows');
    body.textContent = '';
    rows.slice(0, LIMIT).forEach(function (q) {
      var hits = q.methods.filter(function (m) { return m.hit === 1; }).length;
      body.appendChild(h('tr', { class: 'q', 'data-qid': q.id, onclick: function () { openQuestion(q); } }, [
        h('td', { text: q.dataset }), h('td', { text: q.id }), h('td', { text: q.type }), h('td', { text: q.nativeType }),
        h('td', { text: q.text }), h('td', { class: 'num', text: hits + '/' + q.methods.length })]));
    });
    document.getElementById('drill-count').textContent = rows.length + ' questions' + (rows.length > LIMIT ? ' (first ' + LIMIT + ' listed; narrow the filters)' : '');
  }
  function methodCard(q, m) {
    var texts = data.unitTexts[q.dataset + '\t' + q.id] || {};
    var verdict = m.verdicts.length ? m.verdicts.map(function (v) { return v ? 'correct' : 'wrong'; }).join(', ') : '—';
    var units = h('table', { class: 'grid units' }, [h('thead', {}, [h('tr', {}, ['#', 'unit', 'date', 'first lines', 'score', 'evidence'].map(function (c) { return h('th', { text: c }); }))])]);
    var ub = h('tbody');
    m.units.forEach(function (u, i) {
      var t = texts[u[0]];
      var evTurn = q.evidenceTurns.indexOf(u[0]) >= 0;
      var evSession = q.evidenceSessions.indexOf(u[1]) >= 0;
      ub.appendChild(h('tr', { class: evTurn ? 'evt' : evSession ? 'ev' : '' }, [h('td', { text: String(i + 1) }), h('td', { class: 'mono', text: u[0] }),
        h('td', { class: 'date', text: t ? String(t[0]).slice(0, 16).replace('T', ' ') : '—' }), h('td', { class: 'text', text: t ? t[1] : '—' }),
        h('td', { class: 'num', text: num(u[2], 3) }), h('td', { text: evTurn ? 'evidence turn' : evSession ? 'evidence session' : '' })]));
    });
    units.appendChild(ub);
    var name = label(m.series, m.upperBound);
    return h('div', { class: 'method' + (m.upperBound ? ' upper' : '') }, [
      h('h4', {}, [swatch(name), name + (m.degraded ? ' — degraded: ' + m.degraded : '')]),
      h('p', { class: 'facts', text: 'predicted type: ' + (m.predictedType || '—') + ' · route: ' + (m.route || '—') +
        ' · latency ' + num(m.latencyMs, 1) + ' ms · LLM tokens ' + m.tokens + ' (' + m.calls + ' calls)' +
        (m.noMemory ? ' · no relevant memory' : '') + (m.hit !== null ? ' · recall_any hit: ' + m.hit : '') }),
      m.error ? h('p', { class: 'error', text: 'error: ' + m.error }) : null,
      h('p', { text: 'answer: ' + (m.answer === null ? '— (no reader)' : m.answer) + ' · verdict: ' + verdict }),
      m.units.length ? h('div', { class: 'scroll' }, [units]) : h('p', { text: 'no units returned' }),
      m.k !== null && m.units.length >= data.unitsShown ? h('p', { class: 'n', text: 'first ' + data.unitsShown + ' of k = ' + m.k }) : null]);
  }
  function openQuestion(q) {
    open = q;
    var panel = document.getElementById('drill-detail');
    panel.textContent = '';
    panel.appendChild(h('button', { class: 'close', onclick: function () { panel.hidden = true; open = null; }, text: 'close' }));
    panel.appendChild(h('h3', { text: q.dataset + ' / ' + q.id }));
    panel.appendChild(h('p', { class: 'question', text: q.text }));
    panel.appendChild(h('dl', {}, [
      h('dt', { text: 'asked at' }), h('dd', { text: q.askedAt }),
      h('dt', { text: 'gold type' }), h('dd', { text: q.type + ' (native: ' + q.nativeType + ')' + (q.isAbstention ? ', abstention' : '') }),
      h('dt', { text: 'gold answer' }), h('dd', { text: q.answer }),
      h('dt', { text: 'evidence sessions' }), h('dd', { text: q.evidenceSessions.join(', ') || '—' }),
      h('dt', { text: 'evidence turns' }), h('dd', { text: q.evidenceTurns.join(', ') || '—' })]));
    var a = f.method.value, b = f.methodB.value;
    var chosen = q.methods.filter(function (m) { var l = label(m.series, m.upperBound); return (!a && !b) || l === a || l === b; });
    if (a && b) chosen.sort(function (x, y) { return (label(x.series, x.upperBound) === a ? 0 : 1) - (label(y.series, y.upperBound) === a ? 0 : 1); });
    panel.appendChild(h('div', { class: 'pair' }, chosen.map(function (m) { return methodCard(q, m); })));
    panel.hidden = false;
    panel.scrollIntoView({ block: 'start' });
  }
  [f.dataset, f.type, f.method].forEach(function (s) { s.addEventListener('change', renderList); });
  [f.method, f.methodB].forEach(function (s) { s.addEventListener('change', function () { if (open) openQuestion(open); }); });
  f.text.addEventListener('input', renderList);
  renderList();
});
`;
