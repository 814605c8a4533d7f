/**
 * The memory stream's LLM prompts, verbatim from the Generative Agents source design ("核心Prompt模板": importance rating, reflection
 * questions, insights, condensing), and the readers of their replies: `parseInsights` (the spec's `parse_insights`:
 * "number. insight [index list]" per line → [text, indices]), the reflection questions, and the importance rating.
 * Readers also accept the full-width punctuation a Chinese reply uses (１．、［］【】，), since memories and replies may be
 * Chinese.
 */
import type { ChatMessage } from '../../src/core/llm.ts';

const IMPORTANCE_SYSTEM = `
You are an AI who rates events in terms of their perceived importance on a scale of 1 to 10.
`;

export function importanceMessages(memory: string): ChatMessage[] {
  const context = `
On the scale of 1 to 10, where 1 is purely mundane
(e.g., brushing teeth, making bed) and 10 is
extremely poignant (e.g., a break up, college
acceptance), rate the likely poignancy of the
following piece of memory.
Memory: ${memory}
Rating: <fill in with a number between 1 and 10>
Please return only the number rating as an integer (e.g. 5)
Do not explain why you gave this rating.
`;
  return [
    { role: 'system', content: IMPORTANCE_SYSTEM },
    { role: 'user', content: context },
  ];
}

const QUESTIONS_SYSTEM = `
You are an intelligent AI system designed to reflect on past experiences and generate meaningful insights. 
Your goal is to help the user gain a deeper understanding of their experiences and identify patterns or themes that may not have been immediately obvious. 
When generating questions, focus on high-level, abstract questions that will prompt the subject to think more deeply about their experiences. 
Avoid simple, surface-level questions that can easily be answered by the memories themselves. 
`;

/** `statements`: the recent memories as "index. description" lines. */
export function questionsMessages(statements: string): ChatMessage[] {
  const context = `
Given only the information above, what are 3 most salient high-level questions we can answer about the subjects in the statements? 
Be as specific as possible and refer to subjects explicitly by their name.

Statements about subjects
${statements}`;
  return [
    { role: 'system', content: QUESTIONS_SYSTEM },
    { role: 'user', content: context },
  ];
}

const INSIGHT_SYSTEM = `
You are an intelligent AI system designed to reflect on past experiences and generate meaningful insights.
Your goal is to help yourself gain a deeper understanding of your experiences and identify patterns or themes that may not have been immediately obvious.
When generating insights, focus on high-level, abstract insights that will prompt you to think more deeply about your experiences.
Cite the index of the statement as evidence, do not explicitly mention the statement or evidence. The desired format is: "
1. insight [\`index number(s) of evidence\`]
2. insight [\`index number(s) of evidence\`]
3. insight [\`index number(s) of evidence\`]
etc"

REQUIREMENTS:
- You MUST ensure to use square brackets enclosing the index numbers at the end of each insight.
- You MUST only include one insight per line.
- You MUST be as concise and specific as possible
`;

export function insightMessages(statements: string, question: string): ChatMessage[] {
  const context = `What high-level insights can you infer from the above statements? Cite the index of the statement as evidence, do not explicitly mention the statement or evidence. Be as specific and concise as possible; mention explicitly subject names for each insight. (example format: - insight [\`index of evidence\`] 

Statements about subjects
${statements}

${question}`;
  return [
    { role: 'system', content: INSIGHT_SYSTEM },
    { role: 'user', content: context },
  ];
}

const CONDENSE_SYSTEM = `
You are an AI who is an expert at condensing information into concise numbered, bullet points. 
Please condense the following insights into a maximum of 5 bullet points, each starting with a number followed by a period.
Include all the appropriate index numbers referencing the information in square brackets, listed at the end of each insight.
Do not include multiple, unrelated insights in one bullet point. Ensure each insight explicitly mentions the subject by name. 
`;

export function condenseMessages(insightList: string): ChatMessage[] {
  const context = `
Please condense the insights generated in this list:

${insightList}

`;
  return [
    { role: 'system', content: CONDENSE_SYSTEM },
    { role: 'user', content: context },
  ];
}

export type Insight = [text: string, evidence: number[]];

// "1. text [7, 52]" — also "- text [`7`]" (the insight prompt's own example format) and full-width forms.
const INSIGHT_LINE = /^\s*(?:\d+\s*[.．、)）]|[-*•])\s*(.+?)\s*[[［【]([^\]］】]*)[\]］】]\s*[.。]?\s*$/u;

/** The source design's `parse_insights`: one insight per matching line, evidence indices in order; other lines ignored. */
export function parseInsights(reply: string): Insight[] {
  const out: Insight[] = [];
  for (const line of reply.split(/\r?\n/u)) {
    const m = INSIGHT_LINE.exec(line);
    if (!m) continue;
    const raw = m[2]!.replace(/[`'"]/gu, '').trim();
    if (!/^\d+(?:\s*[,，、\s]\s*\d+)*$/u.test(raw)) continue;
    const indices = raw
      .split(/[,，、\s]+/u)
      .filter((x) => x !== '')
      .map(Number);
    out.push([m[1]!.trim(), indices]);
  }
  return out;
}

/** Renders insights back into the numbered list the condensing prompt takes (the spec's `insight_list`). */
export function formatInsights(insights: readonly Insight[]): string {
  return insights.map(([text, ev], i) => `${i + 1}. ${text} [${ev.join(', ')}]`).join('\n');
}

const QUESTION_LINE = /^\s*(?:\d+\s*[.．、)）]|[-*•])\s*(.+?)\s*$/u;

/** The reflection questions: numbered or bulleted lines (else every non-empty line), at most `max`. */
export function parseQuestions(reply: string, max = 3): string[] {
  const lines = reply
    .split(/\r?\n/u)
    .map((l) => l.trim())
    .filter((l) => l !== '');
  const numbered = lines.map((l) => QUESTION_LINE.exec(l)?.[1]).filter((q): q is string => q !== undefined && q !== '');
  return (numbered.length > 0 ? numbered : lines).slice(0, max);
}

/**
 * The importance rating as 0.1–1.0. The spec strips every non-digit (`re.sub(r'[^\d]', '', …)`), which turns "7.5" into
 * 75 and "Rating: 7/10" into 710; we read the first number instead and require 1–10, else undefined (the caller
 * falls back and counts it).
 */
export function parseImportance(reply: string): number | undefined {
  const m = /(\d+(?:\.\d+)?)/u.exec(reply);
  if (!m) return undefined;
  const v = Number(m[1]);
  return v >= 1 && v <= 10 ? v / 10 : undefined;
}
