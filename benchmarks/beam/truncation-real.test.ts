// `beam: { truncation: upstream }` on the real 100K chats: upstream's rule with the Qwen 2.5 count cuts chat 5 after
// 232 of 238 messages and chat 17 after 278 of 286 — the message counts of upstream's own shortened files
// (mohammadtavakoli78/BEAM@b2a3ee8 chats/100K/5/chat_trunecated.json and chats/100K/17/chat_trunecated.json: ids 0–231
// and 0–277, each a prefix of chat.json) — and leaves chat 1, which upstream ships whole, whole; each cut is reported.
// The default reads every chat whole. Also the Qwen count itself: a chat-template marker is one token.
import { describe, expect, it } from 'vitest';
import { TEST_DATA_DIR } from '../../test/data-path.ts';
import type { DataIssue } from '../../src/core/dataset-records.ts';
import { parseExperiment } from '../../src/run/config/load-config.ts';
import { loadDataset } from '../../src/data/index.ts';
import { qwenTurnTokens } from './truncation.ts';

const IDS = ['100K-1:q0', '100K-5:q0', '100K-17:q0'];
const messages = (haystack: { turns: unknown[] }[]) => haystack.reduce((n, s) => n + s.turns.length, 0);

async function haystackSizes(truncation?: 'upstream' | 'full') {
  const yaml = `name: t\ndatasets:\n  - name: beam-100k\n    questionIds: [${IDS.map((i) => `"${i}"`).join(', ')}]\n${
    truncation ? `    beam: { truncation: ${truncation} }\n` : ''
  }methods:\n  - { id: bm25, method: bm25 }\n`;
  const ref = parseExperiment(yaml, 't.yaml').config.datasets[0]!;
  const { instances, issues } = await loadDataset(ref, TEST_DATA_DIR);
  return {
    sizes: Object.fromEntries(instances.map((i) => [i.query.id, messages(i.haystack)])),
    cuts: issues.filter((i: DataIssue) => i.problem.startsWith('beam.truncation')).map((i) => [i.field, i.problem]),
  };
}

describe('beam.truncation: upstream on the real 100K chats', () => {
  it("cuts where upstream's shortened files end, and only there", async () => {
    const { sizes, cuts } = await haystackSizes('upstream');
    expect(sizes).toEqual({ '100K-1:q0': 188, '100K-5:q0': 232, '100K-17:q0': 278 });
    expect(cuts).toEqual([
      [
        '100K/5/chat.json',
        "beam.truncation: upstream — cut to its first 232 of 238 messages by upstream's rule (126,000 Qwen 2.5 tokens)",
      ],
      [
        '100K/17/chat.json',
        "beam.truncation: upstream — cut to its first 278 of 286 messages by upstream's rule (126,000 Qwen 2.5 tokens)",
      ],
    ]);
  });

  it('reads every chat whole by default and with truncation: full', async () => {
    for (const t of [undefined, 'full'] as const) {
      const { sizes, cuts } = await haystackSizes(t);
      expect(sizes).toEqual({ '100K-1:q0': 188, '100K-5:q0': 238, '100K-17:q0': 286 });
      expect(cuts).toEqual([]);
    }
  });

  it('refuses an unknown truncation and a key of another benchmark, naming the field', () => {
    const bad = (extra: string) => () =>
      parseExperiment(
        `name: t\ndatasets:\n  - name: beam-100k\n    ${extra}\nmethods:\n  - { id: bm25, method: bm25 }\n`,
        't.yaml',
      );
    expect(bad('beam: { truncation: shorter }')).toThrow(/datasets\.0\.beam\.truncation/u);
    expect(bad('locomo: { truncation: upstream }')).toThrow(/datasets\.0: Unrecognized key: "locomo"/u);
  });

  it('counts each chat-template marker as one Qwen token, English and Chinese text alike', () => {
    const turn = (user: string) => [
      { role: 'user', content: user },
      { role: 'assistant', content: '' },
    ];
    const empty = qwenTurnTokens(turn(''));
    expect(qwenTurnTokens(turn('Hello'))).toBe(empty + 1);
    expect(qwenTurnTokens(turn('<|im_end|>'))).toBe(empty + 1);
    expect(qwenTurnTokens(turn('我'))).toBe(empty + 1);
  });
});
