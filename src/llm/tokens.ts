/**
 * Token counting for when an endpoint reports no usage, and for the reader's context-size figures.
 *
 * Uses js-tiktoken's `o200k_base` (the GPT-4o / GPT-4.1 / o-series encoding; the official LongMemEval reader also
 * counts with `tiktoken.get_encoding('o200k_base')`, `src/generation/run_generation.py`). For non-OpenAI models
 * (Llama, Qwen, Mistral…) the count is an approximation of their own tokenizer's, typically within ~10–20 %.
 * The encoder is built lazily once per process (loading the ranks takes ~100 ms).
 *
 * Counting is exact and cheaper than encoding: tiktoken splits a text with the encoding's pre-tokenisation pattern
 * (`pat_str`) and byte-pair-encodes each piece on its own (js-tiktoken 1.0 `Tiktoken.encode`, as the Rust/Python
 * tiktoken), so a text's count is the sum of its pieces' counts, and a piece's count is memoised — a haystack
 * repeats the same words, and BPE of every word occurrence was the full-context baseline's whole per-question cost
 * (LongMemEval S: ~400 ms a haystack, scripts/bench-latency.ts). A piece is counted by encoding it alone, which is its
 * count in context only when the pattern splits it alone into exactly itself; that is checked once per piece, and a
 * text with a piece that would not be (none known) is encoded whole instead.
 */
import { createRequire } from 'node:module';
import type { Tiktoken } from 'js-tiktoken/lite';
import type o200kBase from 'js-tiktoken/ranks/o200k_base';

let encoder: Tiktoken | undefined;
/** The encoding's pre-tokenisation pattern, as `Tiktoken.encode` compiles it. */
let pieces: RegExp | undefined;

function enc(): Tiktoken {
  // Required on the first count, so processes that never count tokens do not load the ranks module.
  if (!encoder) {
    const require = createRequire(import.meta.url);
    const { Tiktoken: Encoder } = require('js-tiktoken/lite') as typeof import('js-tiktoken/lite');
    const ranks = require('js-tiktoken/ranks/o200k_base') as typeof o200kBase;
    encoder = new Encoder(ranks);
    pieces = new RegExp(ranks.pat_str, 'gu');
  }
  return encoder;
}

/** Tokens of each piece seen (see header); -1 marks a piece the pattern would split differently on its own. */
const pieceTokens = new Map<string, number>();
const PIECE_MEMO_MAX = 200_000;

function tokensOfPiece(piece: string): number {
  let n = pieceTokens.get(piece);
  if (n === undefined) {
    const alone = piece.match(pieces!);
    n = alone?.length === 1 && alone[0] === piece ? enc().encode(piece, [], []).length : -1;
    if (pieceTokens.size >= PIECE_MEMO_MAX) pieceTokens.clear();
    pieceTokens.set(piece, n);
  }
  return n;
}

/** Tokens in a text (o200k_base), exactly `encode(text).length` (see header). Special-token text is counted as
 * ordinary text, never interpreted. A long text is counted line by line (`chunkTokens`). */
export function countTokens(text: string): number {
  if (text === '') return 0;
  if (text.length < CHUNKED_FROM) return countPieces(text);
  let n = 0;
  let start = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i + 1 < text.length; i = text.indexOf('\n', i + 1)) {
    if (!startsPiece(text.charCodeAt(i + 1))) continue;
    n += chunkTokens(text.slice(start, i + 1));
    start = i + 1;
  }
  return n + chunkTokens(text.slice(start));
}

/**
 * Counting by chunks, exact: a newline followed by an ASCII letter or digit always ends a piece of the o200k_base
 * pattern (no alternative matches a line break followed by a letter or digit: the letter pieces' optional lead
 * excludes \r and \n, and the pieces that take line breaks — punctuation, whitespace — take no letter or digit), and
 * the pattern looks no further than the piece it matches, so a text's count is the sum of its chunks' counts. The
 * prompts of one question repeat the same lines (each method's context, the reader prompt quoting it, a context
 * budget counting it first), and a line's count is memoised: the cost estimate counts each once.
 */
const CHUNKED_FROM = 512;
const chunkMemo = new Map<string, number>();
const CHUNK_MEMO_MAX = 100_000;

function startsPiece(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

function chunkTokens(chunk: string): number {
  let n = chunkMemo.get(chunk);
  if (n === undefined) {
    n = countPieces(chunk);
    if (chunkMemo.size >= CHUNK_MEMO_MAX) chunkMemo.clear();
    chunkMemo.set(chunk, n);
  }
  return n;
}

function countPieces(text: string): number {
  const e = enc();
  let n = 0;
  for (const m of text.matchAll(pieces!)) {
    const t = tokensOfPiece(m[0]);
    if (t < 0) return e.encode(text, [], []).length;
    n += t;
  }
  return n;
}

/** Token ids of a text, for truncation to a budget. */
export function encodeTokens(text: string): number[] {
  return enc().encode(text, [], []);
}

export function decodeTokens(tokens: number[]): string {
  return enc().decode(tokens);
}

/**
 * Prompt tokens of a chat request, following OpenAI's published accounting for chat models: 3 tokens of framing per
 * message, 1 for the role name, and 3 priming the reply.
 */
export function countChatTokens(messages: readonly { role: string; content: string }[]): number {
  let n = 3;
  for (const m of messages) n += 3 + countTokens(m.role) + countTokens(m.content);
  return n;
}
