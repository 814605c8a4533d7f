/**
 * The report page's own script (plain ES2017, runs in the browser, no dependencies beyond the inlined vega-embed):
 * embeds every chart, keeps the metric picker, the score and comparison tables and the charts' params in step, and
 * drives the per-question drill-down (filters by dataset, type, method and text; a click opens the question with
 * every method's route, retrieved units, answer, verdict, tokens and latency). `window.adaptmrReport` exposes the
 * chart count and render state for the browser test. Kept as a string so the page needs no build step.
 */
export const CLIENT_SCRIPT = String.raw`
(function () {
  'use strict';
  var payload = JSON.parse(document.getElementById('report-data').textContent);
  var data = payload.data;
  var state = { rendered: 0, failed: [], expected: Object.keys(payload.charts).length, views: {} };
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
  function kKey(k) { return k === null || k === undefined ? '-' : String(k); }
  function uniq(xs) { return xs.filter(function (x, i) { return xs.indexOf(x) === i; }); }
  var TYPES = ['factual', 'temporal', 'update', 'multi-hop', 'abstention', 'all'];
  var UB = ' (upper bound)';
  function label(series, upper) { return upper && series.indexOf(UB) < 0 ? series + UB : series; }

  // Charts.
  Object.keys(payload.charts).forEach(function (id) {
    // No "View Source" (vega-embed writes the spec, data strings included, unescaped into a new window) nor editor;
    // ast: expressions run in vega's interpreter, so the page's CSP needs no 'unsafe-eval'.
    vegaEmbed('#chart-' + id, payload.charts[id], { renderer: 'svg', ast: true, actions: { export: true, source: false, compiled: false, editor: false } })
      .then(function (result) { state.views[id] = result.view; state.rendered++; })
      .catch(function (err) { state.failed.push(id); console.error('chart ' + id + ' failed: ' + err); });
  });

  // The metric picker drives the score table, the comparison table and every chart with picker params.
  var picker = document.getElementById('pick-metric');
  function current() { var p = picker.value.split('|'); return { metric: p[0], level: p[1], k: p[2] }; }
  function renderScores() {
    var sel = current();
    var rows = data.scores.filter(function (r) { return r.metric === sel.metric && r.level === sel.level && kKey(r.k) === sel.k; });
    var types = TYPES.filter(function (t) { return rows.some(function (r) { return r.type === t; }); });
    var keys = uniq(rows.map(function (r) { return r.dataset + '\t' + label(r.series, r.upperBound); }));
    var table = h('table', { class: 'grid' }, [h('thead', {}, [h('tr', {}, ['dataset', 'method'].concat(types).map(function (t) { return h('th', { text: t }); }))])]);
    var body = h('tbody');
    keys.forEach(function (key) {
      var parts = key.split('\t');
      var cells = types.map(function (t) {
        var r = rows.filter(function (x) { return x.dataset + '\t' + label(x.series, x.upperBound) === key && x.type === t; })[0];
        if (!r) return h('td', { text: '—' });
        var ci = r.ciLow !== null && r.ciLow !== undefined ? ' [' + pct(r.ciLow) + ', ' + pct(r.ciHigh) + ']' : '';
        return h('td', { class: 'num' }, [pct(r.mean) + ci, h('span', { class: 'n', text: ' (' + r.n + ')' })]);
      });
      body.appendChild(h('tr', {}, [h('td', { text: parts[0] }), h('td', { text: parts[1] })].concat(cells)));
    });
    table.appendChild(body);
    var box = document.getElementById('score-table');
    box.textContent = '';
    box.appendChild(keys.length ? table : h('p', { text: 'No counted scores for this metric.' }));
  }
  function renderComparisons() {
    var box = document.getElementById('comparison-table');
    if (!box) return;
    var sel = current();
    var rows = data.comparisons.filter(function (r) { return r.metric === sel.metric && r.level === sel.level && kKey(r.k) === sel.k; });
    var cols = ['dataset', 'adapt_type', 'method_a', 'method_b', 'n_pairs', 'mean_diff', 'ci', 'p_value', 'p_holm', 'test', 'family'];
    var table = h('table', { class: 'grid' }, [h('thead', {}, [h('tr', {}, cols.map(function (c) { return h('th', { text: c === 'ci' ? '95% CI' : c }); }))])]);
    var body = h('tbody');
    rows.forEach(function (r) {
      var sig = typeof r.p_holm === 'number' && r.p_holm < 0.05;
      body.appendChild(h('tr', { class: sig ? 'sig' : '' }, cols.map(function (c) {
        if (c === 'ci') return h('td', { class: 'num', text: '[' + num(r.ci_low, 3) + ', ' + num(r.ci_high, 3) + ']' });
        if (c === 'mean_diff') return h('td', { class: 'num', text: (r.mean_diff > 0 ? '+' : '') + num(r.mean_diff, 3) });
        if (c === 'p_value' || c === 'p_holm') return h('td', { class: 'num', text: num(r[c], 4) + (c === 'p_holm' && sig ? ' *' : '') });
        return h('td', { text: r[c] === null || r[c] === undefined ? '—' : String(r[c]) });
      })));
    });
    table.appendChild(body);
    box.textContent = '';
    box.appendChild(rows.length ? table : h('p', { text: 'No comparisons for this metric.' }));
  }
  function onPick() {
    var sel = current();
    renderScores();
    renderComparisons();
    Object.keys(state.views).forEach(function (id) {
      if (payload.picked.indexOf(id) < 0) return;
      state.views[id].signal('metric', sel.metric).signal('level', sel.level).signal('kSel', sel.k).runAsync();
    });
  }
  picker.addEventListener('change', onPick);
  renderScores();
  renderComparisons();

  // Drill-down.
  var f = { dataset: document.getElementById('f-dataset'), type: document.getElementById('f-type'), method: document.getElementById('f-method'), text: document.getElementById('f-text') };
  function fill(select, values) { values.forEach(function (v) { select.appendChild(h('option', { value: v, text: v })); }); }
  fill(f.dataset, uniq(data.questions.map(function (q) { return q.dataset; })).sort());
  fill(f.type, TYPES.filter(function (t) { return data.questions.some(function (q) { return q.type === t; }); }));
  var allSeries = [];
  data.questions.forEach(function (q) { q.methods.forEach(function (m) { var l = label(m.series, m.upperBound); if (allSeries.indexOf(l) < 0) allSeries.push(l); }); });
  fill(f.method, allSeries.sort());
  var LIMIT = 300;
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
  function openQuestion(q) {
    var panel = document.getElementById('drill-detail');
    panel.textContent = '';
    panel.appendChild(h('button', { class: 'close', onclick: function () { panel.hidden = true; } , text: 'close' }));
    panel.appendChild(h('h3', { text: q.dataset + ' / ' + q.id }));
    panel.appendChild(h('p', { class: 'question', text: q.text }));
    panel.appendChild(h('dl', {}, [
      h('dt', { text: 'asked at' }), h('dd', { text: q.askedAt }),
      h('dt', { text: 'gold type' }), h('dd', { text: q.type + ' (native: ' + q.nativeType + ')' + (q.isAbstention ? ', abstention' : '') }),
      h('dt', { text: 'gold answer' }), h('dd', { text: q.answer }),
      h('dt', { text: 'evidence sessions' }), h('dd', { text: q.evidenceSessions.join(', ') || '—' })]));
    var evidence = q.evidenceSessions;
    q.methods.filter(function (m) { return !f.method.value || label(m.series, m.upperBound) === f.method.value; }).forEach(function (m) {
      var verdict = m.verdicts.length ? m.verdicts.map(function (v) { return v ? 'correct' : 'wrong'; }).join(', ') : '—';
      var units = h('table', { class: 'grid units' }, [h('thead', {}, [h('tr', {}, ['#', 'unit', 'session', 'score', 'evidence'].map(function (c) { return h('th', { text: c }); }))])]);
      var ub = h('tbody');
      m.units.forEach(function (u, i) {
        var ev = evidence.indexOf(u[1]) >= 0;
        ub.appendChild(h('tr', { class: ev ? 'ev' : '' }, [h('td', { text: String(i + 1) }), h('td', { text: u[0] }), h('td', { text: u[1] }), h('td', { class: 'num', text: num(u[2], 4) }), h('td', { text: ev ? 'yes' : '' })]));
      });
      units.appendChild(ub);
      panel.appendChild(h('div', { class: 'method' + (m.upperBound ? ' upper' : '') }, [
        h('h4', { text: label(m.series, m.upperBound) + (m.degraded ? ' — degraded: ' + m.degraded : '') }),
        h('p', { class: 'facts', text: 'predicted type: ' + (m.predictedType || '—') + ' · route: ' + (m.route || '—') +
          ' · latency ' + num(m.latencyMs, 1) + ' ms · LLM tokens ' + m.tokens + ' (' + m.calls + ' calls)' +
          (m.noMemory ? ' · no relevant memory' : '') + (m.hit !== null ? ' · recall_any hit: ' + m.hit : '') }),
        m.error ? h('p', { class: 'error', text: 'error: ' + m.error }) : null,
        h('p', { text: 'answer: ' + (m.answer === null ? '— (no reader)' : m.answer) + ' · verdict: ' + verdict }),
        m.units.length ? units : h('p', { text: 'no units returned' }),
        m.k !== null && m.units.length >= data.unitsShown ? h('p', { class: 'n', text: 'first ' + data.unitsShown + ' of k = ' + m.k }) : null]));
    });
    panel.hidden = false;
    panel.scrollIntoView({ block: 'start' });
  }
  [f.dataset, f.type, f.method].forEach(function (s) { s.addEventListener('change', renderList); });
  f.text.addEventListener('input', renderList);
  renderList();
})();
`;
