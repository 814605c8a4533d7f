/**
 * One Every Eval Ever 0.3.0 instance line per question and method. The schema is model-centred; a memory system is
 * carried as an agentic interaction: turn 0 the user's question, turn 1 the system's `memory.search` call (query and
 * k), turn 2 the tool's reply — the ranked memory units with their ids, session ids and scores, best first — and,
 * when a reader answered, turn 3 the answer. Every judge's verdict (judge id, model, prompt, repeats), each metric's
 * score, the question's types and its content hash go in `metadata`, whose values the schema requires to be strings
 * (JSON text here). `evaluation.score` is the headline metric (headline.ts); tokens sum the question's LLM calls,
 * cached tokens included; latency is the retrieval's.
 */
import { sha256 } from '../../core/hash.ts';
import { EEE_SCHEMA_VERSION } from './eee-schema.ts';
import { type EvalKey, evaluationId, modelId, resultId } from './ids.ts';
import type { Cell } from './headline.ts';
import type { QuestionFact, Row } from './load-results.ts';

export interface InstanceInput {
  key: EvalKey;
  question: QuestionFact;
  retrieval: Row | undefined;
  answer: Row | undefined;
  scores: Row[];
  verdicts: Row[];
  usage: Row | undefined;
  headline: Cell;
  evaluationName: string;
  /** sha256 of the instance's content (question, gold, haystack); '' when the data was not read. */
  contentSha256: string;
}

/** EEE's sample_hash recipe: sha256 of {"raw","reference"} as sorted compact JSON (instance-level.md). */
export function sampleHash(raw: string, reference: string[]): string {
  return sha256(JSON.stringify({ raw, reference }));
}

const str = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));
const num = (v: unknown): number => Number(v ?? 0);

function rankedUnits(r: Row | undefined): { rank: number; id: string; session_id: string; score: number }[] {
  if (!r) return [];
  const ids = r.unit_ids as string[];
  const sessions = r.unit_session_ids as string[];
  const scores = r.scores as number[];
  return ids.map((id, i) => ({ rank: i + 1, id, session_id: sessions[i] ?? '', score: scores[i] ?? 0 }));
}

function messages(i: InstanceInput): Record<string, unknown>[] {
  const k = i.retrieval?.k ?? null;
  const out: Record<string, unknown>[] = [
    { turn_idx: 0, role: 'user', content: i.question.text },
    {
      turn_idx: 1,
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'search', name: 'memory.search', arguments: { query: i.question.text, k: String(k) } }],
    },
    {
      turn_idx: 2,
      role: 'tool',
      tool_call_id: ['search'],
      content: JSON.stringify({
        units: rankedUnits(i.retrieval),
        no_memory: i.retrieval?.no_memory ?? null,
        context: i.retrieval?.context ?? null,
      }),
    },
  ];
  if (i.answer) out.push({ turn_idx: 3, role: 'assistant', content: str(i.answer.answer) ?? '' });
  return out;
}

/** Score rows as compact tuples [level, metric, k, value, counted, excluded_why], in table order. */
export const scoreTuples = (rows: Row[]): unknown[][] =>
  rows.map((s) => [s.level, s.metric, s.k ?? null, s.value, s.counted, s.excluded_why ?? null]);

/** Verdict rows as [judge, gold, model, prompt, correct[], raw[]]. */
export const verdictTuples = (rows: Row[]): unknown[][] =>
  rows.map((v) => [v.judge, v.gold, v.model, v.prompt, v.correct, v.raw]);

function tokenUsage(u: Row | undefined): Record<string, number> | null {
  if (!u) return null;
  const input = num(u.prompt_tokens);
  const output = num(u.completion_tokens);
  return {
    input_tokens: input,
    output_tokens: output,
    total_tokens: input + output,
    input_tokens_cache_read: num(u.cached_tokens),
  };
}

export function instanceLine(i: InstanceInput): Record<string, unknown> {
  const q = i.question;
  const h = i.headline;
  const headlineRow = i.scores.find((s) => s.level === h.level && s.metric === h.metric && (s.k ?? null) === h.k);
  const msgs = messages(i);
  const last = msgs.length - 1;
  const score = headlineRow ? Number(headlineRow.value) : 0;
  return {
    schema_version: EEE_SCHEMA_VERSION,
    evaluation_id: evaluationId(i.key),
    model_id: modelId(i.key.method),
    evaluation_name: i.evaluationName,
    evaluation_result_id: resultId({ ...h, adaptType: 'all' }),
    sample_id: q.question_id,
    sample_hash: sampleHash(q.text, [q.answer]),
    interaction_type: 'agentic',
    input: { raw: q.text, reference: [q.answer] },
    output: null,
    messages: msgs,
    answer_attribution: [
      {
        turn_idx: last,
        source: `messages[${last}].content`,
        extracted_value: i.answer
          ? (str(i.answer.answer) ?? '')
          : JSON.stringify(rankedUnits(i.retrieval).map((u) => u.id)),
        extraction_method: i.answer ? (i.verdicts.length > 0 ? 'llm_judge' : 'custom') : 'ranked_retrieval',
        is_terminal: true,
      },
    ],
    evaluation: { score, is_correct: score === 1, num_turns: msgs.length, tool_calls_count: 1 },
    token_usage: tokenUsage(i.usage),
    performance: { latency_ms: i.retrieval ? num(i.retrieval.latency_ms) : null },
    error: str(i.retrieval?.error) ?? str(i.answer?.error),
    metadata: metadata(i),
  };
}

function metadata(i: InstanceInput): Record<string, string> {
  const q = i.question;
  const r = i.retrieval;
  return {
    run_id: i.key.runId,
    dataset: i.key.dataset,
    method: i.key.method,
    adapt_type: q.adapt_type,
    native_type: q.native_type,
    is_abstention: String(q.is_abstention),
    asked_at: q.asked_at,
    evidence_session_ids: JSON.stringify(q.evidence_session_ids),
    evidence_turn_ids: JSON.stringify(q.evidence_turn_ids),
    superseded_session_ids: JSON.stringify(q.superseded_session_ids ?? null),
    superseded_turn_ids: JSON.stringify(q.superseded_turn_ids ?? null),
    content_sha256: i.contentSha256,
    predicted_type: str(r?.predicted_type) ?? '',
    route: str(r?.route) ?? '',
    scores: JSON.stringify(scoreTuples(i.scores)),
    judges: JSON.stringify(verdictTuples(i.verdicts)),
    llm_calls: String(num(i.usage?.calls)),
  };
}
