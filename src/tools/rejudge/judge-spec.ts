/**
 * `--judge <id>:<model>[:<prompt>]`, parsed strictly: the id up to the first colon, the prompt the last segment when
 * it names one of JUDGE_PROMPTS (a model name may hold colons, as Ollama's `llama3:8b`), the model what lies between —
 * never empty, never with an empty part. A last segment that is nearly a prompt name (`strcit`, `Strict`) is refused
 * with "did you mean" rather than read as part of the model with the default prompt.
 */
import { InputError } from '../../core/errors.ts';
import { JUDGE_PROMPTS, JudgeIdSchema, type JudgePromptKind } from '../../core/qa-config.ts';
import { levenshtein } from '../../core/registry.ts';
import type { PanelJudge } from '../../eval/qa/panel.ts';

const FORM = `<id>:<model>[:<prompt>] (prompts: ${JUDGE_PROMPTS.join(', ')})`;
const EXAMPLE_MODEL = 'gpt-4o-2024-08-06';

/** The known prompt a segment nearly spells (another casing, or up to two edits), if any. */
function nearPrompt(segment: string): JudgePromptKind | undefined {
  const lower = segment.toLowerCase();
  return JUDGE_PROMPTS.find((p) => p === lower || (segment.length >= 4 && levenshtein(lower, p) <= 2));
}

export function parseJudgeSpec(spec: string): PanelJudge {
  const refuse = (why: string, meant: string): never => {
    throw new InputError(`"${spec}" is not ${FORM}: ${why}; did you mean "${meant}"?`, '--judge');
  };
  const parts = spec.split(':');
  const id = parts[0] ?? '';
  if (parts.length < 2 || id === '') refuse('no judge id before the first colon', `judge:${spec.replace(/^:/, '')}`);
  const idCheck = JudgeIdSchema.safeParse(id);
  if (!idCheck.success)
    throw new InputError(`judge id "${id}": ${idCheck.error.issues[0]?.message ?? 'invalid'}`, '--judge');
  let rest = parts.slice(1);
  let prompt: JudgePromptKind | undefined;
  const last = rest.at(-1)!;
  if (rest.length >= 2 && (JUDGE_PROMPTS as readonly string[]).includes(last)) {
    prompt = last as JudgePromptKind;
    rest = rest.slice(0, -1);
  } else if (rest.length >= 2) {
    const near = nearPrompt(last);
    if (near) refuse(`"${last}" is not a judge prompt`, `${id}:${rest.slice(0, -1).join(':')}:${near}`);
    if (last === '') refuse('the prompt after the last colon is empty', `${id}:${rest.slice(0, -1).join(':')}`);
  }
  const model = rest.join(':');
  const suffix = prompt ? `:${prompt}` : '';
  if (model === '') refuse('the model is empty', `${id}:${EXAMPLE_MODEL}${suffix}`);
  if (rest.some((p) => p === ''))
    refuse(`the model "${model}" has an empty part`, `${id}:${rest.filter(Boolean).join(':')}${suffix}`);
  return { id, model, ...(prompt ? { prompt } : {}) };
}
