/**
 * Judge panels: one answer judged by any judge of the panel with any of the three prompts (src/core/qa-config.ts
 * `JUDGE_PROMPTS`), and what a stored run's config says about its panel (which judge is primary, which gold version
 * is the headline). Prompt on a dataset of the other protocol:
 * - `longmemeval` on LoCoMo: category 2 (temporal) gets LongMemEval's temporal prompt (off-by-one days tolerated),
 *   category 5 (adversarial, unanswerable) the abstention prompt, the others the default prompt;
 * - `locomo` and `strict` on LongMemEval: the question, gold answer (or rubric / explanation) and answer as they are.
 */
import { DEFAULT_JUDGE_ID, type JudgePromptKind, type JudgeSpec, type QaConfig } from '../../core/qa-config.ts';
import type { LlmClient } from '../../core/llm.ts';
import { LONGMEMEVAL_TYPES } from './aggregate.ts';
import { formatNamed, formatPositional } from './prompts/format.ts';
import { LME_JUDGE_ABSTENTION, LME_JUDGE_DEFAULT, LME_JUDGE_TEMPORAL } from './prompts/longmemeval-judge.ts';
import { STRICT_JUDGE_PROMPT, STRICT_JUDGE_TEMPERATURE } from './prompts/strict-judge.ts';
import { judgeLocomo, LOCOMO_JUDGE_SCHEMA } from './judge-locomo.ts';
import { judgeRepeatedly, type JudgeOptions, type JudgeResult } from './judge.ts';
import { judgeWithLongMemEvalPrompt, longMemEvalJudgePrompt } from './judge-longmemeval.ts';
import { isAdversarial, isJudged } from './exclusions.ts';
import { readLocomoVerdict } from './verdict.ts';

export type QaProtocol = 'longmemeval' | 'locomo';

export interface AnswerToJudge {
  protocol: QaProtocol;
  questionId: string;
  /** LongMemEval `question_type`, or LoCoMo's category number as a string. */
  nativeType: string;
  question: string;
  gold: string;
  hypothesis: string;
}

/** A judge of a panel with its prompt resolved for one protocol. */
export interface PanelJudge {
  id: string;
  model: string;
  /** Undefined: the dataset's official prompt. */
  prompt?: JudgePromptKind | undefined;
}

/** The dataset's official judge prompt. */
export function officialJudgePrompt(protocol: QaProtocol): JudgePromptKind {
  return protocol === 'longmemeval' ? 'longmemeval' : 'locomo';
}

/** The prompt kind a judge uses on a protocol. */
export function promptFor(judge: PanelJudge, protocol: QaProtocol): JudgePromptKind {
  return judge.prompt ?? officialJudgePrompt(protocol);
}

function lmePromptForLocomo(a: AnswerToJudge): string {
  const template = isAdversarial('locomo', a.nativeType)
    ? LME_JUDGE_ABSTENTION
    : a.nativeType === '2'
      ? LME_JUDGE_TEMPORAL
      : LME_JUDGE_DEFAULT;
  return formatPositional(template, a.question, a.gold, a.hypothesis);
}

/** Judges one answer with one prompt kind (`repeats` calls, each its own cache entry). */
export async function judgeAnswer(
  a: AnswerToJudge,
  prompt: JudgePromptKind,
  llm: LlmClient,
  options: JudgeOptions,
): Promise<JudgeResult> {
  switch (prompt) {
    case 'longmemeval':
      return judgeWithLongMemEvalPrompt(
        a.protocol === 'longmemeval'
          ? longMemEvalJudgePrompt({
              questionId: a.questionId,
              nativeType: a.nativeType,
              question: a.question,
              answer: a.gold,
              hypothesis: a.hypothesis,
            })
          : lmePromptForLocomo(a),
        llm,
        options,
      );
    case 'locomo':
      return judgeLocomo({ question: a.question, answer: a.gold, hypothesis: a.hypothesis }, llm, options);
    case 'strict':
      return judgeRepeatedly(
        llm,
        {
          messages: [
            {
              role: 'user',
              content: formatNamed(STRICT_JUDGE_PROMPT, {
                question: a.question,
                gold_answer: a.gold,
                generated_answer: a.hypothesis,
              }),
            },
          ],
          temperature: STRICT_JUDGE_TEMPERATURE,
          jsonSchema: { name: 'strict_verdict', schema: { ...LOCOMO_JUDGE_SCHEMA } },
        },
        (r) => readLocomoVerdict(r.text, r.json),
        options,
      );
  }
}

export { isJudged };

/** The panel a `qa:` block describes: `qa.judges`, else the judge role as one judge with id `judge`. */
export function panelOf(qa: Pick<QaConfig, 'judges'> | undefined, judgeRoleModel: string | undefined): PanelJudge[] {
  if (qa?.judges)
    return qa.judges.map((j: JudgeSpec) => ({ id: j.id, model: j.model, ...(j.prompt ? { prompt: j.prompt } : {}) }));
  return judgeRoleModel !== undefined ? [{ id: DEFAULT_JUDGE_ID, model: judgeRoleModel }] : [];
}

interface StoredRunConfig {
  qa?: { judges?: { id: string }[] };
  datasets?: { name?: string; gold?: { answers?: string } }[];
}

function parseStored(configJson: string): StoredRunConfig {
  try {
    const v: unknown = JSON.parse(configJson);
    return v !== null && typeof v === 'object' ? (v as StoredRunConfig) : {};
  } catch {
    return {};
  }
}

/** The primary judge of a stored run (the one its `accuracy` scores carry). */
export function primaryJudgeOf(configJson: string): string {
  return parseStored(configJson).qa?.judges?.[0]?.id ?? DEFAULT_JUDGE_ID;
}

/** The headline gold version per dataset of a stored run (`errata` only where its dataset entry says so). */
export function headlineGoldOf(configJson: string): (dataset: string) => string {
  const errata = new Set(
    (parseStored(configJson).datasets ?? [])
      .filter((d) => d.gold?.answers === 'errata' && d.name !== undefined)
      .map((d) => d.name!),
  );
  return (dataset) => (errata.has(dataset) ? 'errata' : 'original');
}

const LONGMEMEVAL_NATIVE: ReadonlySet<string> = new Set(LONGMEMEVAL_TYPES);

/** The protocol whose native types every question of a dataset carries, or null (as the report decides it). */
export function protocolOfNativeTypes(natives: Iterable<string>): QaProtocol | null {
  const set = new Set(natives);
  if (set.size === 0) return null;
  if ([...set].every((t) => LONGMEMEVAL_NATIVE.has(t))) return 'longmemeval';
  if ([...set].every((t) => /^[1-5]$/u.test(t))) return 'locomo';
  return null;
}
