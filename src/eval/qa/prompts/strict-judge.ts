/**
 * The `strict` judge prompt: this project's own variant, defined here (not an upstream prompt). It keeps the
 * reply format of the LoCoMo judge as Mem0 runs it (a JSON `{"label": "CORRECT" | "WRONG"}`, parsed by
 * src/eval/qa/verdict.ts; mem0ai/mem0@2352a44193bd0e36cd544fc5664cbee14e020bc2 evaluation/metrics/llm_judge.py) and
 * replaces its instruction to be "generous … as long as it touches on the same topic" with the rule of LongMemEval's
 * official judge that a response holding only part of the required information is wrong
 * (xiaowu0162/LongMemEval@f466efe0ea8859251760733cd4c7ad98302b9ddf src/evaluation/evaluate_qa.py, get_anscheck_prompt),
 * plus two rules aimed at the leniency the LoCoMo audit measured (dial481/locomo-audit@9493fb4b4af4256ed17a18e8fd0b3cfdeec29539
 * ap-baseline/: Mem0's prompt accepted 62.8% of vague on-topic non-answers): an answer that only names the topic, or
 * hedges between several values, is wrong; a date must name the same day, month or year the gold answer names
 * (format may differ). Temperature 0, as both sources. Placeholders are named `{question}`, `{gold_answer}`,
 * `{generated_answer}` (formatNamed, one pass).
 */

export const STRICT_JUDGE_PROMPT = [
  'Your task is to label an answer to a question as CORRECT or WRONG. You will be given a question, a gold (ground truth) answer and a generated answer.',
  '',
  'Label the generated answer CORRECT only if it states the specific information the gold answer gives: the same person, object, place, number, date or event. Wording, format and length may differ (e.g., "May 7th" and "7 May" are the same date), and extra correct detail is allowed.',
  '',
  'Label it WRONG if any of these holds:',
  '- it only talks about the topic of the question without giving the specific answer (e.g., "She mentioned something about her trip");',
  '- it gives a different specific value than the gold answer, or several candidate values without committing to the right one;',
  '- it contains only part of the information the gold answer requires;',
  '- for time questions, it names a different day, month or year than the gold answer, or a relative time ("recently", "a while ago") where the gold answer names a date.',
  '',
  'Question: {question}',
  'Gold answer: {gold_answer}',
  'Generated answer: {generated_answer}',
  '',
  'Return only a JSON object with the key "label" and the value "CORRECT" or "WRONG".',
].join('\n');

export const STRICT_JUDGE_TEMPERATURE = 0;
