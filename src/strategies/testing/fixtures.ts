/**
 * Test fixtures for the strategies: the plan's own eight-memory example (plan §1.2, in English), a guarded
 * view of an index that throws on any property outside the MemoryIndex contract, a frozen Query with no extra
 * fields (the "no gold access" checks), and a fake-OpenAI chat handler answering each strategy prompt.
 */
import type { Ctx, MemoryIndex } from '../../core/interfaces.ts';
import type { Query, Session } from '../../core/types.ts';
import type { ChatRequestBody, FakeReply } from '../../llm/testing/fake-openai-server.ts';

function session(id: string, at: string, user: string, assistant = 'Noted.'): Session {
  return {
    id,
    at,
    turns: [
      { id: `${id}#1`, sessionId: id, index: 0, role: 'user', text: user, at },
      { id: `${id}#2`, sessionId: id, index: 1, role: 'assistant', text: assistant, at },
    ],
  };
}

/** Plan §1.2, M1–M8 (2023), plus a near-duplicate pair for the update strategy. */
export const PLAN_HAYSTACK: Session[] = [
  session('M1', '2023-01-05T10:00:00Z', 'I live in Chaoyang District in Beijing.'),
  session('M2', '2023-02-10T10:00:00Z', 'I have recently been looking for a job in Hangzhou.'),
  session('M3', '2023-03-15T10:00:00Z', 'I have a cat named Snowball.'),
  session('M4', '2023-04-20T10:00:00Z', 'I moved to Xihu District in Hangzhou.'),
  session(
    'M5',
    '2023-05-01T10:00:00Z',
    'Recommend a Japanese restaurant in Hangzhou.',
    'Try Tsurumi, a Japanese restaurant.',
  ),
  session('M6', '2023-06-08T10:00:00Z', 'I started running recently, five kilometers every day.'),
  session(
    'M7',
    '2023-07-12T10:00:00Z',
    'Recommend a Sichuan restaurant in Hangzhou.',
    'Try Shuxiangqing, a Sichuan restaurant.',
  ),
  session('M8', '2023-08-03T10:00:00Z', 'I ran ten kilometers today, much better than last month.'),
];

/** Asked after M8. */
export const ASKED_AT = '2023-08-20T12:00:00Z';

export function frozenQuery(text: string, askedAt = ASKED_AT, id = 'q1'): Query {
  return Object.freeze({ id, text, askedAt });
}

const INDEX_KEYS = new Set([
  'spec',
  'units',
  'embedder',
  'unit',
  'keyword',
  'keywordScores',
  'semantic',
  'semanticScores',
  'vectors',
]);
/** Promise resolution and inspection probe these; they are not data access. */
const HARMLESS = new Set([
  'then',
  'toJSON',
  'constructor',
  'asymmetricMatch',
  '$$typeof',
  'nodeType',
  'tagName',
  '@@__IMMUTABLE_ITERABLE__@@',
  '@@__IMMUTABLE_RECORD__@@',
]);

/** Wraps an index so that reading anything outside the MemoryIndex contract throws (gold or internals). */
export function guardedIndex(index: MemoryIndex): MemoryIndex {
  return new Proxy(index, {
    get(target, prop, receiver) {
      if (typeof prop === 'symbol' || HARMLESS.has(prop)) return Reflect.get(target, prop, receiver);
      if (!INDEX_KEYS.has(prop)) throw new Error(`strategy read MemoryIndex.${prop}, which is not in the contract`);
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
    has(_target, prop) {
      throw new Error(`strategy probed MemoryIndex for ${String(prop)}`);
    },
  });
}

export function offlineCtx(seed = 7): Ctx {
  return { seed, calls: [] };
}

/** Answers every strategy prompt of src/strategies by its wording, deterministically. */
export function strategyChat(body: ChatRequestBody): FakeReply {
  const prompt = body.messages.map((m) => m.content).join('\n');
  if (prompt.startsWith('Extract the key entities')) return { text: JSON.stringify({ entities: ['cat', 'name'] }) };
  if (prompt.startsWith('If the question below compares')) {
    return {
      text: /first|before|after/i.test(prompt)
        ? JSON.stringify({ events: ['started running', 'moved to Hangzhou'] })
        : JSON.stringify({ events: [] }),
    };
  }
  if (prompt.startsWith('Break the question'))
    return {
      text: JSON.stringify({
        subQuestions: ['Which restaurants did I ask about?', 'What cuisine is each restaurant?'],
      }),
    };
  if (prompt.startsWith('Answer the question briefly')) return { text: 'Japanese and Sichuan restaurants' };
  if (prompt.startsWith('Do the following two memories')) return { text: 'YES' };
  if (prompt.startsWith('Do the memories below')) return { text: 'NO' };
  return { text: 'unknown' };
}
