/**
 * Plain-text rendering of a case study: the question, one block per method (what the method produced), then the
 * gold in its own marked section at the end, so the method blocks can be read without seeing the answer.
 */
import type { ExplainResult } from './explain.ts';

const RULE = '─'.repeat(100);

function probs(p: Record<string, number> | null): string {
  if (!p) return '–';
  return Object.entries(p)
    .sort((a, b) => b[1] - a[1])
    .map(([t, v]) => `${t} ${v.toFixed(3)}`)
    .join(', ');
}

export function formatExplain(r: ExplainResult, opts: { context?: boolean } = {}): string {
  const out: string[] = [];
  out.push(`experiment ${r.experiment} · dataset ${r.dataset} · question ${r.question.id}`);
  out.push(`asked at ${r.question.askedAt}`);
  out.push(`Q: ${r.question.text}`);
  for (const m of r.methods) {
    out.push(
      '',
      RULE,
      `METHOD ${m.method}${m.degraded ? ` (${m.degraded})` : ''}${m.gotOracleType ? '   [oracle: received the gold type — gold-type routing]' : ''}`,
      RULE,
    );
    if (m.error) {
      out.push(`error: ${m.error}`);
      continue;
    }
    out.push(`predicted type: ${m.predictedType ?? '–'}    probabilities: ${probs(m.typeProbs)}`);
    out.push(
      `route: ${m.route ?? '–'}    no memory: ${m.noMemory ? 'yes' : 'no'}    latency: ${m.latencyMs.toFixed(0)} ms`,
    );
    out.push(`ranked units (${m.units.length}):`);
    for (const u of m.units) {
      out.push(`  ${String(u.rank).padStart(2)}. ${u.id}  ${u.date.slice(0, 16)}  ${u.score.toFixed(4)}  ${u.preview}`);
    }
    out.push(`notes: ${m.notes === null || m.notes === undefined ? '–' : JSON.stringify(m.notes)}`);
    if (opts.context === false) {
      out.push(`context: not shown (--no-context; ${(m.context ?? '').length} characters)`);
    } else {
      out.push('context (exactly what the reader gets):');
      out.push(...(m.context ?? '').split('\n').map((l) => `  │ ${l}`));
    }
  }
  const g = r.gold;
  out.push('', '═'.repeat(100), 'GOLD (never given to a method; the oracle router got only the type)', '═'.repeat(100));
  out.push(`type: ${g.type} (native ${g.nativeType})    abstention: ${g.isAbstention ? 'yes' : 'no'}`);
  out.push(`answer: ${g.answer}${g.adversarialAnswer ? `    adversarial answer: ${g.adversarialAnswer}` : ''}`);
  out.push(`evidence sessions: ${g.evidenceSessionIds.join(', ') || '–'}`);
  out.push(`evidence turns: ${g.evidenceTurnIds.join(', ') || '–'}`);
  out.push('evidence session ranks per method:');
  for (const [method, ranks] of Object.entries(g.evidenceRanks)) {
    const list = g.evidenceSessionIds.map((s) => `${s}@${ranks[s] ?? '–'}`).join(' ');
    out.push(`  ${method}: ${list || '–'}`);
  }
  out.push('retrieval scores, recall_any and ndcg_any (as the run stores them; * = counted; --json has every metric):');
  const shown = g.scores.filter((s) => s.metric === 'recall_any' || s.metric === 'ndcg_any');
  const keys = [...new Set(shown.map((s) => `${s.level.slice(0, 4)} ${s.metric.replace('_any', '')}@${s.k}`))];
  const methods = [...new Set(g.scores.map((s) => s.method))];
  out.push(`  ${'method'.padEnd(28)} ${keys.join('  ')}`);
  for (const m of methods) {
    const cells = keys.map((key) => {
      const s = shown.find(
        (x) => x.method === m && `${x.level.slice(0, 4)} ${x.metric.replace('_any', '')}@${x.k}` === key,
      );
      return s ? `${s.value.toFixed(2)}${s.counted ? '*' : ' '}`.padStart(key.length) : ''.padStart(key.length);
    });
    out.push(`  ${m.padEnd(28)} ${cells.join('  ')}`);
  }
  return out.join('\n');
}
