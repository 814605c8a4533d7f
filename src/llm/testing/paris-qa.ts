/**
 * The fake reader and judges the QA end-to-end tests share (with the loopback server, fake-openai-server.ts): the
 * reader names Paris when a chosen part of its prompt has even length, else says it does not know, and both the
 * LongMemEval judge ("Answer yes or no only") and the Mem0 judge (CORRECT / WRONG) accept exactly the answers
 * naming Paris — so a run's accuracy is neither 0 nor 1.
 */
import type { ChatRequestBody } from './fake-openai-server.ts';

/** The question line of LongMemEval's reader prompt and of the LoCoMo reader: "Question: <text>" then a newline. */
export function questionOf(prompt: string): string {
  return /Question: (.*)\n/u.exec(prompt)?.[1] ?? '';
}

/** A `chat` handler; `parityOf` picks the part of the reader's prompt whose length decides its answer. */
export function parisQaChat(parityOf: (prompt: string) => string = questionOf): (body: ChatRequestBody) => string {
  return (body) => {
    const prompt = body.messages.map((m) => m.content).join('\n');
    if (/Answer yes or no only/iu.test(prompt)) return /Paris/u.test(prompt) ? 'yes' : 'no';
    if (/CORRECT/u.test(prompt) && /WRONG/u.test(prompt))
      return /Paris/u.test(prompt) ? '{"label": "CORRECT"}' : '{"label": "WRONG"}';
    return parityOf(prompt).length % 2 === 0 ? 'It was in Paris.' : 'I do not know.';
  };
}
