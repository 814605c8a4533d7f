/**
 * LoCoMo-Plus's protocol (xjtuleeyf/Locomo-Plus@059f4e3 `evaluation_framework/task_eval/`): there is no reference
 * answer. The reader gets upstream's model input (`utils.py` `_build_model_input`: `CONV_START_PROMPT` — formatted
 * with upstream's default names "A" and "B", as `call_llm` does — then `INSTRUCTION_COGNITIVE`, then the dialogue as
 * `Speaker said, "text"` lines whose last line is the trigger), temperature 0.3, at most 1024 tokens (the
 * `evaluate_qa.py` defaults); here the dialogue is the method's retrieved turns in time order instead of the whole
 * stitched conversation. The judge is the "Cognitive" template of `prompt.py` (the cue as `Speaker：text` lines as
 * evidence, the reader's reply as prediction), temperature 0, at most 512 tokens (`llm_as_judge.py`), scored
 * correct = 1, partial = 0.5, wrong = 0 (`LABEL_TO_SCORE`). The label is read from the reply's JSON `label`; a reply
 * without one scores 0 (upstream then searches the raw text for "correct", which also matches "incorrect").
 */
import type { CallRecord } from '../../src/core/interfaces.ts';
import type { LlmClient } from '../../src/core/llm.ts';
import type { Query, Retrieval, Session } from '../../src/core/types.ts';
import { parseJsonReply } from '../../src/llm/json-reply.ts';
import type { JudgeOptions, JudgeResult } from '../../src/core/judge.ts';
import { allInOrder } from '../../src/eval/qa/concurrent.ts';
import { UnreadableVerdictError } from '../../src/eval/qa/verdict.ts';

export const CONV_START_PROMPT =
  'Below is a conversation between two people: A and B. ' +
  'The conversation takes place over multiple days, ' +
  'and the date of each conversation is written at the beginning of the conversation.\n\n';

export const INSTRUCTION_COGNITIVE =
  'Your task: This is a memory-aware dialogue setting. ' +
  'You are continuing or reflecting on a prior conversation. ' +
  'Show that you are aware of the relevant memory or context from the evidence when you respond; ' +
  'your answer should naturally connect to or acknowledge that context.\n\n';

export const COGNITIVE_JUDGE_TEMPLATE = `
You are a Memory Awareness Judge.
Your task: Judge whether the Model Prediction considers or is linked to the Evidence. If there is a clear connection, the answer is correct (score 1); if not, it is wrong (no score).

Labels:
- "correct": The prediction explicitly or implicitly reflects/uses the evidence (memory or constraint). Give 1 point.
- "wrong": The prediction does not show such a link to the evidence. No point.

Memory/Evidence:
{evidence}

Model Prediction:
{pred}

Return your judgment strictly in JSON format:
{{"label": "correct"|"wrong", "reason": "<Does the prediction relate to the evidence?>"}}
`;

export const LOCOMO_PLUS_READER = { temperature: 0.3, maxTokens: 1024 } as const;
export const LOCOMO_PLUS_JUDGE = { temperature: 0, maxTokens: 512 } as const;
export const LABEL_TO_SCORE: Readonly<Record<string, number>> = { correct: 1, partial: 0.5, wrong: 0 };

/** The speaker of the trigger: LoCoMo's `speaker_a`, who speaks the user-role turns of the haystack. */
export function triggerSpeaker(haystack: readonly Session[]): string {
  for (const s of haystack) for (const t of s.turns) if (t.role === 'user' && t.speaker) return t.speaker;
  return 'A';
}

export function locomoPlusReaderPrompt(
  query: Query,
  retrieval: Pick<Retrieval, 'units'>,
  haystack: readonly Session[],
): string {
  const turns = new Map(haystack.flatMap((s) => s.turns.map((t) => [t.id, t] as const)));
  const lines = retrieval.units
    .flatMap((u) => u.unit.turnIds.map((id) => turns.get(id)).filter((t) => t !== undefined))
    .sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0))
    .map((t) => `${t.speaker ?? (t.role === 'user' ? 'A' : 'B')} said, "${t.text.trim()}"`);
  lines.push(`${triggerSpeaker(haystack)} said, "${query.text.trim()}"`);
  return CONV_START_PROMPT + INSTRUCTION_COGNITIVE + lines.join('\n');
}

export async function readLocomoPlus(
  query: Query,
  retrieval: Pick<Retrieval, 'units'>,
  haystack: readonly Session[],
  llm: LlmClient,
  calls: CallRecord[],
): Promise<string> {
  const r = await llm.chat(
    {
      messages: [{ role: 'user', content: locomoPlusReaderPrompt(query, retrieval, haystack) }],
      temperature: LOCOMO_PLUS_READER.temperature,
      maxTokens: LOCOMO_PLUS_READER.maxTokens,
    },
    { stage: 'reader', calls },
  );
  return r.text;
}

/** Python `str.format` of the template: `{evidence}`, `{pred}`, and `{{`/`}}` as literal braces, in one pass. */
export function cognitiveJudgePrompt(evidence: string, pred: string): string {
  return COGNITIVE_JUDGE_TEMPLATE.replace(/\{\{|\}\}|\{evidence\}|\{pred\}/g, (m) =>
    m === '{{' ? '{' : m === '}}' ? '}' : m === '{evidence}' ? evidence : pred,
  );
}

/** Points of a judge reply: its JSON `label` (case and spaces ignored) mapped by `LABEL_TO_SCORE`; 0 without one. */
export function parseCognitiveScore(reply: string): number {
  const p = parseJsonReply(reply);
  if (!p.ok || p.value === null || typeof p.value !== 'object' || Array.isArray(p.value)) return 0;
  const label = (p.value as Record<string, unknown>).label;
  return typeof label === 'string' ? (LABEL_TO_SCORE[label.trim().toLowerCase()] ?? 0) : 0;
}

/** The score of a reply whose label is one of LABEL_TO_SCORE's, else UnreadableVerdictError (never a silent 0). */
export function readCognitiveScore(reply: string): number {
  const p = parseJsonReply(reply);
  const label =
    p.ok && p.value !== null && typeof p.value === 'object' ? (p.value as { label?: unknown }).label : undefined;
  const score = typeof label === 'string' ? LABEL_TO_SCORE[label.trim().toLowerCase()] : undefined;
  if (score === undefined)
    throw new UnreadableVerdictError(reply, 'JSON with "label": "correct", "partial" or "wrong"');
  return score;
}

export async function judgeLocomoPlus(
  input: { evidence: string; prediction: string },
  llm: LlmClient,
  options: JudgeOptions,
): Promise<JudgeResult> {
  const replies = await allInOrder(
    Array.from(
      { length: options.repeats ?? 1 },
      (_, repeat) => () =>
        llm.chat(
          {
            messages: [{ role: 'user', content: cognitiveJudgePrompt(input.evidence, input.prediction) }],
            temperature: LOCOMO_PLUS_JUDGE.temperature,
            maxTokens: LOCOMO_PLUS_JUDGE.maxTokens,
            repeat,
          },
          { stage: options.stage ?? 'judge', calls: options.calls },
        ),
    ),
  );
  const scores = replies.map((r) => readCognitiveScore(r.text));
  return { correct: scores.map((s) => s === 1), raw: replies.map((r) => r.text), scores };
}
