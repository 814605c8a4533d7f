/**
 * Messages longer than a server accepts (Zep Cloud caps a message's content at 2,500 characters on its free plan and
 * refuses longer ones with 400): either split into parts the server takes — each part its own message with the same
 * unit id, so provenance still maps to the unit — or refused with one line before any request (`longMessages:
 * refuse`), rather than failing batch after batch on the server. Lengths count code points, so a Chinese character
 * is one character, as a person counts it.
 */
import { SetupError } from '../../src/core/errors.ts';
import type { ServerMessage } from './api.ts';

export type LongMessages = 'split' | 'refuse';

/** Where a part may end, best first: after a sentence end (Latin or CJK) or a line break, then after a space. */
const SENTENCE_END = /[.!?。！？；;…\n]/u;
const SPACE = /\s/u;

/** `text` in parts of at most `cap` code points, cut at the last sentence end, else space, in each window. */
export function splitText(text: string, cap: number): string[] {
  const chars = [...text];
  const parts: string[] = [];
  let from = 0;
  while (chars.length - from > cap) {
    let cut = -1;
    // Not before half the window: a cut that early would make many small parts.
    for (const test of [SENTENCE_END, SPACE]) {
      for (let i = from + cap - 1; i >= from + Math.floor(cap / 2); i--) {
        if (test.test(chars[i]!)) {
          cut = i + 1;
          break;
        }
      }
      if (cut > 0) break;
    }
    if (cut < 0) cut = from + cap;
    const part = chars.slice(from, cut).join('').trim();
    if (part !== '') parts.push(part);
    from = cut;
  }
  const rest = chars.slice(from).join('').trim();
  if (rest !== '' || parts.length === 0) parts.push(rest);
  return parts;
}

/** The messages a server with a content cap accepts: long ones split (or the run stopped, `refuse`). */
export function fitMessages(
  messages: readonly ServerMessage[],
  cap: number | undefined,
  mode: LongMessages,
  label: string,
): ServerMessage[] {
  if (cap === undefined) return [...messages];
  const out: ServerMessage[] = [];
  for (const m of messages) {
    const length = [...m.text].length;
    if (length <= cap) {
      out.push(m);
      continue;
    }
    if (mode === 'refuse') {
      throw new SetupError(
        `${label}: message ${m.unitId} has ${length.toLocaleString('en-US')} characters, more than the server accepts (${cap.toLocaleString('en-US')}, maxMessageChars); ` +
          'set longMessages: split to send it in parts, or use a dataset without such messages',
      );
    }
    const parts = splitText(m.text, cap);
    parts.forEach((text, index) => out.push({ ...m, text, part: { index, of: parts.length } }));
  }
  return out;
}
