/**
 * The LoCoMo LLM judge as used by Mem0's evaluation harness, verbatim (lines joined with '\n', so trailing spaces
 * stay visible).
 *
 * Source: mem0ai/mem0, `evaluation/metrics/llm_judge.py`, `ACCURACY_PROMPT`, at commit
 * 2352a44193bd0e36cd544fc5664cbee14e020bc2. (Another stored revision, 6723043509933fa48d8a6755efd7d155e20dee4f, differs
 * only in "Now it’s time" with a typographic apostrophe.) Mem0 sends it as one user message with
 * `response_format={"type": "json_object"}`, temperature 0.0, model gpt-4o-mini, reads
 * `json.loads(extract_json(content))["label"]` and scores `1 if label == "CORRECT" else 0`; category 5 is skipped.
 * Placeholders are Python `str.format` named fields.
 */

export const MEM0_JUDGE_PROMPT = [
  '',
  'Your task is to label an answer to a question as ’CORRECT’ or ’WRONG’. You will be given the following data:',
  '    (1) a question (posed by one user to another user), ',
  '    (2) a ’gold’ (ground truth) answer, ',
  '    (3) a generated answer',
  'which you will score as CORRECT/WRONG.',
  '',
  'The point of the question is to ask about something one user should know about the other user based on their prior conversations.',
  'The gold answer will usually be a concise and short answer that includes the referenced topic, for example:',
  'Question: Do you remember what I got the last time I went to Hawaii?',
  'Gold answer: A shell necklace',
  'The generated answer might be much longer, but you should be generous with your grading - as long as it touches on the same topic as the gold answer, it should be counted as CORRECT. ',
  '',
  'For time related questions, the gold answer will be a specific date, month, year, etc. The generated answer might be much longer or use relative time references (like "last Tuesday" or "next month"), but you should be generous with your grading - as long as it refers to the same date or time period as the gold answer, it should be counted as CORRECT. Even if the format differs (e.g., "May 7th" vs "7 May"), consider it CORRECT if it\'s the same date.',
  '',
  "Now it's time for the real question:",
  'Question: {question}',
  'Gold answer: {gold_answer}',
  'Generated answer: {generated_answer}',
  '',
  'First, provide a short (one sentence) explanation of your reasoning, then finish with CORRECT or WRONG. ',
  'Do NOT include both CORRECT and WRONG in your response, or it will break the evaluation script.',
  '',
  'Just return the label CORRECT or WRONG in a json format with the key as "label".',
  '',
].join('\n');

export const MEM0_JUDGE_TEMPERATURE = 0;
