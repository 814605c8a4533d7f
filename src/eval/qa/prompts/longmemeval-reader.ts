/**
 * LongMemEval's reader prompts and history layout, verbatim.
 *
 * Source: xiaowu0162/LongMemEval, `src/generation/run_generation.py`, function `prepare_prompt`, at commit
 * 283612f4ef546716c0c5c047529d728adb3edba8 (same text in d0c699faf593726d96a6c75768e0fd2016d1feb8), branch
 * `merge_key_expansion_into_value == 'none'`. `run_generation.sh` maps reading method `direct` to `--cot false` and
 * `con` (chain-of-note, the paper's recommended reading) to `--cot true`, i.e. the step-by-step template below;
 * `con-separate` additionally writes per-session notes with a separate call (not built here).
 * Placeholders are Python `str.format` positional `{}`: history, question date, question.
 * The official reader uses temperature 0 and max_tokens 500 (direct) / 800 (step by step).
 */

export const LME_READER_DIRECT =
  'I will give you several history chats between you and a user. Please answer the question based on the relevant chat history.\n\n\nHistory Chats:\n\n{}\n\nCurrent Date: {}\nQuestion: {}\nAnswer:';

export const LME_READER_CHAIN_OF_NOTE =
  'I will give you several history chats between you and a user. Please answer the question based on the relevant chat history. Answer the question step by step: first extract all the relevant information, and then reason over the information to get the answer.\n\n\nHistory Chats:\n\n{}\n\nCurrent Date: {}\nQuestion: {}\nAnswer (step by step):';

/** One history block; placeholders: 1-based index, date, content (`'\n### Session {}:\nSession Date: {}\nSession Content:\n{}\n'`). */
export const LME_HISTORY_BLOCK = '\n### Session {}:\nSession Date: {}\nSession Content:\n{}\n';

export const LME_READER_TEMPERATURE = 0;
export const LME_READER_MAX_TOKENS_DIRECT = 500;
export const LME_READER_MAX_TOKENS_CHAIN_OF_NOTE = 800;

/**
 * Not an official string (the official harness always has some history): what the reader sees when a method
 * reports that memory holds nothing relevant. Defined once in src/core/render.ts and re-exported here.
 */
export { NO_MEMORY_LINE as NO_RELEVANT_MEMORY } from '../../../core/render.ts';
