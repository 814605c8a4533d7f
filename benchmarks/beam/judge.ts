/**
 * BEAM's answer scoring (mohammadtavakoli78/BEAM@b2a3ee8 `src/evaluation/run_evaluation.py`, `compute_metrics.py`):
 * the rubric is the gold. Every ability: one judge call per rubric item with `unified_llm_judge_base_prompt`
^ * (judge-prompt.ts) as one user message at temperature 0 (upstream's judge is gpt-4.1-mini at temperature 0),
 * a JSON reply `{"score": 1.0 | 0.5 | 0.0, "reason": …}`, the question's score = the mean over its items
 * (`llm_judge_score`). Event ordering also gets upstream's order score: the response split into lines, each line
 * aligned to the first unmatched rubric item an LLM calls the same event (`align_with_llm`: `llm_equivalence`, one
 * call per pair, "yes" anywhere in the lower-cased reply), then precision/recall/F1 and Kendall τ-b over the
 * union (kendall.ts), final score τ_norm × F1.
 *
 * Deviations, each because upstream's behaviour cannot be what it means: `<question>` is filled (upstream leaves the
 * placeholder in, so the prompt's "responsive to the QUESTION" rule has no question to check); a 0.5 counts as 0.5
 * (upstream's `int(response['score'])` truncates it to 0 for every ability but event ordering); a reply with no JSON
 * score is an error row (UnreadableVerdictError; upstream raises); blank lines of the response are not aligned (upstream asks
 * the LLM about each, which can only say no).
 */
import type { LlmClient } from '../../src/core/llm.ts';
import { parseJsonReply } from '../../src/llm/json-reply.ts';
import type { JudgeOptions, JudgeResult } from '../../src/core/judge.ts';
import { UnreadableVerdictError } from '../../src/eval/qa/verdict.ts';
import { eventOrderingScore } from './kendall.ts';
import { BEAM_EQUIVALENCE_SYSTEM, BEAM_JUDGE_PROMPT, beamEquivalenceUser } from './judge-prompt.ts';
import { allInOrder } from '../../src/eval/qa/concurrent.ts';

export const BEAM_JUDGE_TEMPERATURE = 0;

export interface BeamJudgeInput {
  /** BEAM ability (the native type). */
  ability: string;
  question: string;
  rubric: readonly string[];
  response: string;
}

export function beamJudgePrompt(question: string, rubricItem: string, response: string): string {
  // Each placeholder of the template filled once; a value that itself contains `<llm_response>` stays as written.
  const values: Record<string, string> = {
    '<question>': question,
    '<rubric_item>': rubricItem,
    '<llm_response>': response,
  };
  return BEAM_JUDGE_PROMPT.replace(/<question>|<rubric_item>|<llm_response>/g, (m) => values[m]!);
}

function readBeamScore(reply: string): number {
  const score = parseBeamScore(reply);
  if (score === undefined) throw new UnreadableVerdictError(reply, 'JSON with "score": 1, 0.5 or 0');
  return score;
}

/** The score of one judge reply: 1, 0.5 or 0 from its JSON `score`; undefined when it holds none of them. */
export function parseBeamScore(reply: string): number | undefined {
  const parsed = parseJsonReply(reply);
  if (!parsed.ok || parsed.value === null || typeof parsed.value !== 'object' || Array.isArray(parsed.value))
    return undefined;
  const raw = (parsed.value as Record<string, unknown>).score;
  const score = typeof raw === 'string' ? Number(raw.trim()) : raw;
  return score === 0 || score === 0.5 || score === 1 ? score : undefined;
}

export interface BeamScores {
  judge: JudgeResult;
  /** Event ordering only: `event_order` (τ_norm × F1) and `kendall_tau_b` (when defined). */
  metrics: Record<string, number>;
}

async function sameEvent(llm: LlmClient, first: string, second: string, options: JudgeOptions): Promise<boolean> {
  const r = await llm.chat(
    {
      messages: [
        { role: 'system', content: BEAM_EQUIVALENCE_SYSTEM },
        { role: 'user', content: beamEquivalenceUser(first, second) },
      ],
      temperature: BEAM_JUDGE_TEMPERATURE,
    },
    { stage: 'judge.align', calls: options.calls },
  );
  return r.text.toLowerCase().includes('yes');
}

/** `align_with_llm`: each response item replaced by the first unused reference item judged the same event. */
export async function alignWithLlm(
  reference: readonly string[],
  system: readonly string[],
  llm: LlmClient,
  options: JudgeOptions,
): Promise<string[]> {
  const used = new Set<number>();
  const out: string[] = [];
  for (const s of system) {
    let matched: number | undefined;
    for (let i = 0; i < reference.length; i++) {
      if (used.has(i)) continue;
      if (await sameEvent(llm, reference[i]!, s, options)) {
        matched = i;
        break;
      }
    }
    if (matched === undefined) out.push(s);
    else {
      out.push(reference[matched]!);
      used.add(matched);
    }
  }
  return out;
}

export async function judgeBeam(input: BeamJudgeInput, llm: LlmClient, options: JudgeOptions): Promise<BeamScores> {
  const correct: boolean[] = [];
  const scores: number[] = [];
  const raw: string[] = [];
  // Every repeat × rubric item at once (independent requests), read back in order.
  const replies = await allInOrder(
    Array.from({ length: options.repeats ?? 1 }, (_, repeat) =>
      input.rubric.map(
        (item) => () =>
          llm.chat(
            {
              messages: [{ role: 'user', content: beamJudgePrompt(input.question, item, input.response) }],
              temperature: BEAM_JUDGE_TEMPERATURE,
              repeat,
            },
            { stage: options.stage ?? 'judge', calls: options.calls },
          ),
      ),
    ).flat(),
  );
  for (let repeat = 0; repeat < (options.repeats ?? 1); repeat++) {
    const mine = replies.slice(repeat * input.rubric.length, (repeat + 1) * input.rubric.length);
    raw.push(...mine.map((r) => r.text));
    // A reply with no score is no verdict: an error row, never a silent 0 (verdict.ts).
    const sum = mine.reduce((s, r) => s + readBeamScore(r.text), 0);
    const score = input.rubric.length > 0 ? sum / input.rubric.length : 0;
    scores.push(score);
    correct.push(score === 1);
  }
  const metrics: Record<string, number> = {};
  if (input.ability === 'event_ordering') {
    const system = input.response.split('\n').filter((l) => l.trim() !== '');
    const canon = await alignWithLlm(input.rubric, system, llm, options);
    const order = eventOrderingScore(input.rubric, canon);
    metrics.event_order = order.finalScore;
    if (!Number.isNaN(order.tauB)) metrics.kendall_tau_b = order.tauB;
  }
  return { judge: { correct, raw, scores }, metrics };
}
