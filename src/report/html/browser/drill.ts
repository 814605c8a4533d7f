/**
 * The per-question drill-down: filters by dataset, type, method and text list the matching questions (the first
 * LIMIT); a click opens the question with every method's route, ranked units with date and first lines, evidence
 * highlighted, answer, verdict, tokens and latency — or only the one or two methods picked, side by side.
 */
import { byId, h, label, num, swatch, TYPES, uniq } from './dom.ts';
import type { DrillMethod, DrillQuestion, PagePayload } from './payload.ts';

const LIMIT = 300;

interface Filters {
  dataset: HTMLSelectElement;
  type: HTMLSelectElement;
  method: HTMLSelectElement;
  methodB: HTMLSelectElement;
  text: HTMLInputElement;
}

const seriesOf = (m: DrillMethod): string => label(m.series, m.upperBound);

/** Fills the filters' options, wires them, and lists the questions. */
export function wireDrillDown(data: PagePayload['data']): void {
  const f: Filters = {
    dataset: byId<HTMLSelectElement>('f-dataset') as HTMLSelectElement,
    type: byId<HTMLSelectElement>('f-type') as HTMLSelectElement,
    method: byId<HTMLSelectElement>('f-method') as HTMLSelectElement,
    methodB: byId<HTMLSelectElement>('f-method-b') as HTMLSelectElement,
    text: byId<HTMLInputElement>('f-text') as HTMLInputElement,
  };
  fillFilters(data, f);
  let open: DrillQuestion | null = null;
  const show = (q: DrillQuestion): void => {
    open = q;
    openQuestion(data, f, q, () => {
      open = null;
    });
  };
  const renderList = (): void => listQuestions(data, f, show);
  for (const s of [f.dataset, f.type, f.method]) s.addEventListener('change', renderList);
  for (const s of [f.method, f.methodB])
    s.addEventListener('change', () => {
      if (open) show(open);
    });
  f.text.addEventListener('input', renderList);
  renderList();
}

function fillFilters(data: PagePayload['data'], f: Filters): void {
  const fill = (select: HTMLSelectElement, values: string[]): void => {
    for (const v of values) select.appendChild(h('option', { value: v, text: v }));
  };
  fill(f.dataset, uniq(data.questions.map((q) => q.dataset)).sort());
  fill(
    f.type,
    TYPES.slice(1).filter((t) => data.questions.some((q) => q.type === t)),
  );
  const allSeries: string[] = [];
  for (const q of data.questions)
    for (const m of q.methods) {
      const l = seriesOf(m);
      if (allSeries.indexOf(l) < 0) allSeries.push(l);
    }
  allSeries.sort();
  fill(f.method, allSeries);
  fill(f.methodB, allSeries);
}

function matches(f: Filters, q: DrillQuestion): boolean {
  if (f.dataset.value && q.dataset !== f.dataset.value) return false;
  if (f.type.value && q.type !== f.type.value) return false;
  if (f.method.value && !q.methods.some((m) => seriesOf(m) === f.method.value)) return false;
  const t = f.text.value.trim().toLowerCase();
  return !t || `${q.id} ${q.text}`.toLowerCase().indexOf(t) >= 0;
}

function listQuestions(data: PagePayload['data'], f: Filters, show: (q: DrillQuestion) => void): void {
  const rows = data.questions.filter((q) => matches(f, q));
  const body = byId('drill-rows') as HTMLElement;
  body.textContent = '';
  for (const q of rows.slice(0, LIMIT)) {
    const hits = q.methods.filter((m) => m.hit === 1).length;
    body.appendChild(
      h('tr', { class: 'q', 'data-qid': q.id, onclick: () => show(q) }, [
        h('td', { text: q.dataset }),
        h('td', { text: q.id }),
        h('td', { text: q.type }),
        h('td', { text: q.nativeType }),
        h('td', { text: q.text }),
        h('td', { class: 'num', text: `${hits}/${q.methods.length}` }),
      ]),
    );
  }
  const more = rows.length > LIMIT ? ` (first ${LIMIT} listed; narrow the filters)` : '';
  (byId('drill-count') as HTMLElement).textContent = `${rows.length} questions${more}`;
}

/** The ranked units a method returned, evidence turns and sessions highlighted. */
function unitTable(data: PagePayload['data'], q: DrillQuestion, m: DrillMethod): HTMLElement {
  const texts = data.unitTexts[`${q.dataset}\t${q.id}`] || {};
  const head = ['#', 'unit', 'date', 'first lines', 'score', 'evidence'].map((c) => h('th', { text: c }));
  const units = h('table', { class: 'grid units' }, [h('thead', {}, [h('tr', {}, head)])]);
  const ub = h('tbody');
  m.units.forEach((u, i) => {
    const t = texts[u[0]];
    const evTurn = q.evidenceTurns.indexOf(u[0]) >= 0;
    const evSession = q.evidenceSessions.indexOf(u[1]) >= 0;
    ub.appendChild(
      h('tr', { class: evTurn ? 'evt' : evSession ? 'ev' : '' }, [
        h('td', { text: String(i + 1) }),
        h('td', { class: 'mono', text: u[0] }),
        h('td', { class: 'date', text: t ? String(t[0]).slice(0, 16).replace('T', ' ') : '—' }),
        h('td', { class: 'text', text: t ? t[1] : '—' }),
        h('td', { class: 'num', text: num(u[2], 3) }),
        h('td', { text: evTurn ? 'evidence turn' : evSession ? 'evidence session' : '' }),
      ]),
    );
  });
  units.appendChild(ub);
  return units;
}

/** One method's card in the opened question. */
function methodCard(data: PagePayload['data'], q: DrillQuestion, m: DrillMethod): HTMLElement {
  const verdict = m.verdicts.length ? m.verdicts.map((v) => (v ? 'correct' : 'wrong')).join(', ') : '—';
  const name = seriesOf(m);
  const facts =
    `predicted type: ${m.predictedType || '—'} · route: ${m.route || '—'} · latency ${num(m.latencyMs, 1)} ms` +
    ` · LLM tokens ${m.tokens} (${m.calls} calls)${m.noMemory ? ' · no relevant memory' : ''}` +
    (m.hit !== null ? ` · recall_any hit: ${m.hit}` : '');
  return h('div', { class: `method${m.upperBound ? ' upper' : ''}` }, [
    h('h4', {}, [swatch(data.colors, name), name + (m.degraded ? ` — degraded: ${m.degraded}` : '')]),
    h('p', { class: 'facts', text: facts }),
    m.error ? h('p', { class: 'error', text: `error: ${m.error}` }) : null,
    h('p', { text: `answer: ${m.answer === null ? '— (no reader)' : m.answer} · verdict: ${verdict}` }),
    m.units.length ? h('div', { class: 'scroll' }, [unitTable(data, q, m)]) : h('p', { text: 'no units returned' }),
    m.k !== null && m.units.length >= data.unitsShown
      ? h('p', { class: 'n', text: `first ${data.unitsShown} of k = ${m.k}` })
      : null,
  ]);
}

/** Opens question `q` in the detail panel: its facts, then the picked methods' cards (method A first). */
function openQuestion(data: PagePayload['data'], f: Filters, q: DrillQuestion, onClose: () => void): void {
  const panel = byId('drill-detail') as HTMLElement;
  panel.textContent = '';
  const close = (): void => {
    panel.hidden = true;
    onClose();
  };
  panel.appendChild(h('button', { class: 'close', onclick: close, text: 'close' }));
  panel.appendChild(h('h3', { text: `${q.dataset} / ${q.id}` }));
  panel.appendChild(h('p', { class: 'question', text: q.text }));
  const goldType = `${q.type} (native: ${q.nativeType})${q.isAbstention ? ', abstention' : ''}`;
  panel.appendChild(
    h('dl', {}, [
      h('dt', { text: 'asked at' }),
      h('dd', { text: q.askedAt }),
      h('dt', { text: 'gold type' }),
      h('dd', { text: goldType }),
      h('dt', { text: 'gold answer' }),
      h('dd', { text: q.answer }),
      h('dt', { text: 'evidence sessions' }),
      h('dd', { text: q.evidenceSessions.join(', ') || '—' }),
      h('dt', { text: 'evidence turns' }),
      h('dd', { text: q.evidenceTurns.join(', ') || '—' }),
    ]),
  );
  const a = f.method.value;
  const b = f.methodB.value;
  const chosen = q.methods.filter((m) => (!a && !b) || seriesOf(m) === a || seriesOf(m) === b);
  if (a && b) chosen.sort((x, y) => (seriesOf(x) === a ? 0 : 1) - (seriesOf(y) === a ? 0 : 1));
  panel.appendChild(
    h(
      'div',
      { class: 'pair' },
      chosen.map((m) => methodCard(data, q, m)),
    ),
  );
  panel.hidden = false;
  panel.scrollIntoView({ block: 'start' });
}
