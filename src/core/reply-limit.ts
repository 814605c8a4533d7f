/**
 * Every HTTP reply the harness reads has a size cap, enforced while the body streams in: a reply longer than the
 * cap is cut off at the cap (the connection dropped), never buffered whole — a 10 MB "answer" is not stored,
 * cached and forwarded to a paid judge, and an endless chunked body cannot grow the process until it crashes. The
 * reply's text must also be well-formed UTF-8: a byte that is not is an error naming its offset, never a U+FFFD
 * that would be scored. Callers turn `ReplyTooLargeError` into an error row naming the option that sets the cap
 * (`llm.maxReplyBytes`, the embedder's `maxReplyBytes`).
 */
import { decodeUtf8Strict, InvalidUtf8Error } from './utf8.ts';

/** 4 MiB: far above any chat or embeddings reply (a 32k-token answer with top-20 logprobs is ~2 MB of JSON). */
export const DEFAULT_MAX_REPLY_BYTES = 4 * 1024 * 1024;

/** A reply longer than its cap. Not worth a retry: the same request gets the same reply. */
export class ReplyTooLargeError extends Error {
  constructor(
    readonly limit: number,
    readonly option: string,
  ) {
    super(`reply body exceeds the ${limit}-byte cap (${option}); stopped reading it`);
    this.name = 'ReplyTooLargeError';
  }
}

/** A reply whose bytes are not UTF-8 (a broken proxy or server). Retried as a garbled body is. */
export class InvalidReplyTextError extends Error {
  constructor(readonly offset: number) {
    super(`reply body is not valid UTF-8 (byte ${offset}); refused rather than read with replacement characters`);
    this.name = 'InvalidReplyTextError';
  }
}

/** Strict UTF-8 of a reply body. */
export function replyText(bytes: Uint8Array): string {
  try {
    return decodeUtf8Strict(bytes);
  } catch (err) {
    if (err instanceof InvalidUtf8Error) throw new InvalidReplyTextError(err.offset);
    throw err;
  }
}

/**
 * Reads a body to its end, or throws ReplyTooLargeError as soon as more than `max` bytes arrived (the stream is
 * cancelled, which closes the connection). A `content-length` above the cap is refused before reading.
 */
export async function readBodyCapped(
  res: Pick<Response, 'body' | 'headers'>,
  max: number,
  option: string,
): Promise<Uint8Array> {
  const declared = Number(res.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > max) {
    await res.body?.cancel().catch(() => undefined);
    throw new ReplyTooLargeError(max, option);
  }
  if (!res.body) return new Uint8Array(0);
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > max) {
      await reader.cancel().catch(() => undefined);
      throw new ReplyTooLargeError(max, option);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/**
 * A fetch whose responses are read through the cap and checked as UTF-8 text before the caller sees them (for
 * clients that take a `fetch` option and read bodies themselves, such as the openai SDK). The returned Response
 * holds the checked bytes.
 */
export function cappedFetch(max: number, option: string, base: typeof fetch = fetch): typeof fetch {
  return async (input, init) => {
    const res = await base(input, init);
    const bytes = await readBodyCapped(res, max, option);
    replyText(bytes);
    // The bytes are already decoded: the caller must not be told to decompress or expect the wire length.
    const headers = new Headers(res.headers);
    headers.delete('content-encoding');
    headers.delete('content-length');
    return new Response(res.status === 204 || res.status === 304 ? null : bytes, {
      status: res.status,
      statusText: res.statusText,
      headers,
    });
  };
}
