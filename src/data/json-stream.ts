/**
 * Streams the elements of a top-level JSON array from a file (plain or `.gz`) one at a time, so a multi-GB file
 * is never held as one string: the array is split into element byte ranges (json-array-split.ts)
 * and each element parsed natively (json-decode.ts). Memory holds one element at a time.
 */
import { readFile, stat } from 'node:fs/promises';
import { InputError } from '../core/errors.ts';
import { splitJsonArrayFile } from './json-array-split.ts';
import { decodeFailure, parseJsonBytes, type ParseOptions } from './json-decode.ts';
import { headFields } from './json-head.ts';
import { gunzipWhole } from './gunzip.ts';

export interface StreamArrayOptions {
  /** Keys of each element that are dropped (the catalog pass never needs the haystacks). */
  skipKeys?: readonly string[] | undefined;
  /**
   * Scalar keys at the head of each element that are enough for the caller (e.g. `question_id`, `question_type`):
   * when the element's first bytes give them all, only they are returned and the element is never parsed.
   */
  headKeys?: readonly string[] | undefined;
  /** Files smaller than this (bytes on disk) are read whole; larger ones are streamed so memory stays flat. */
  wholeBelowBytes?: number | undefined;
  /** What the caller never reads (json-decode.ts `ParseOptions`: unindexed turns' text). */
  parse?: ParseOptions | undefined;
  /**
   * Elements whose head fields (`keys`, read from their first bytes) `keep` refuses are passed over unparsed: a
   * few questions of a multi-GB file are read without parsing every haystack. An element whose head does not give
   * the keys is parsed and yielded as usual.
   */
  keepHead?: HeadSelector | undefined;
}

/** Which elements to read, judged by head fields alone (`StreamArrayOptions.keepHead`). */
export interface HeadSelector {
  keys: readonly string[];
  keep: (head: Record<string, unknown>) => boolean;
}

/** Whether `selector` refuses the element `bytes` by its head (false when the head does not give the keys). */
export function refusedByHead(bytes: Uint8Array, selector: HeadSelector): boolean {
  const head = headFields(bytes, selector.keys);
  return head !== undefined && !selector.keep(head);
}

export const WHOLE_BELOW_BYTES = 32 * 1024 * 1024;

async function readWhole(file: string, parse: ParseOptions | undefined): Promise<unknown[]> {
  let buf = await readFile(file);
  let value: unknown;
  try {
    if (file.endsWith('.gz')) buf = gunzipWhole(buf);
    value = parseJsonBytes(buf, parse);
  } catch (err) {
    throw decodeFailure(err, file);
  }
  if (!Array.isArray(value)) throw new InputError('expected a JSON array at the top level', file);
  return value as unknown[];
}

function withoutKeys(value: unknown, keys: readonly string[] | undefined): unknown {
  if (keys && value !== null && typeof value === 'object' && !Array.isArray(value)) {
    for (const k of keys) delete (value as Record<string, unknown>)[k];
  }
  return value;
}

/** Yields each element of the top-level array in `file`; a parse error becomes an InputError naming the file. */
export async function* streamJsonArray(file: string, opts: StreamArrayOptions = {}): AsyncGenerator<unknown> {
  if ((await stat(file)).size < (opts.wholeBelowBytes ?? WHOLE_BELOW_BYTES)) {
    for (const v of await readWhole(file, opts.parse)) yield withoutKeys(v, opts.skipKeys);
    return;
  }
  let index = 0;
  for await (const bytes of splitJsonArrayFile(file)) {
    if (opts.keepHead && refusedByHead(bytes, opts.keepHead)) {
      index++;
      continue;
    }
    const head = opts.headKeys ? headFields(bytes, opts.headKeys) : undefined;
    if (head) {
      yield head;
    } else {
      let value: unknown;
      try {
        value = parseJsonBytes(bytes, opts.parse);
      } catch (err) {
        throw decodeFailure(err, file, index);
      }
      yield withoutKeys(value, opts.skipKeys);
    }
    index++;
  }
}
