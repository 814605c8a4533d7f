/**
 * Reads only the first top-level fields of a JSON object file (plain or `.gz`) and stops: the catalog pass over a
 * folder of LongMemEval questions needs `question_id` and `question_type`, which come before the haystack in both
 * published key orders, so it can skip gunzipping and parsing the ~500 KB haystack of every file.
 */
import { createReadStream } from 'node:fs';
import { createGunzip } from 'node:zlib';
import type { Readable } from 'node:stream';
import { parser } from 'stream-json';

type Token = { name: string; value?: unknown };

const VALUE_TOKENS: Record<string, (t: Token) => unknown> = {
  stringValue: (t) => t.value,
  numberValue: (t) => Number(t.value),
  trueValue: () => true,
  falseValue: () => false,
  nullValue: () => null,
};

/**
 * The scalar values of `keys` at the top level of the object in `file`, or undefined when the file is not an
 * object, a key's value is not a scalar, or a key is missing (callers then parse the whole file, which also
 * reports malformed input properly).
 */
export async function readJsonHead(file: string, keys: readonly string[]): Promise<Record<string, unknown> | undefined> {
  const source: Readable = createReadStream(file, { highWaterMark: 16 * 1024 });
  const raw: Readable = file.endsWith('.gz') ? source.pipe(createGunzip()) : source;
  const tokens = raw.pipe(parser.asStream({ packKeys: true, packStrings: true, packNumbers: true, streamKeys: false, streamStrings: false, streamNumbers: false }));
  const found: Record<string, unknown> = {};
  let depth = 0;
  let pendingKey: string | undefined;
  try {
    for await (const t of tokens as AsyncIterable<Token>) {
      if (t.name === 'startObject' || t.name === 'startArray') {
        if (depth === 0 && t.name === 'startArray') return undefined;
        if (depth === 1 && pendingKey !== undefined) return undefined; // a wanted key holds a container
        depth++;
        pendingKey = undefined;
      } else if (t.name === 'endObject' || t.name === 'endArray') {
        depth--;
        if (depth === 0) return undefined; // object ended before every key was seen
      } else if (depth === 1 && t.name === 'keyValue') {
        pendingKey = keys.includes(String(t.value)) ? String(t.value) : undefined;
      } else if (depth === 1 && pendingKey !== undefined && VALUE_TOKENS[t.name]) {
        found[pendingKey] = VALUE_TOKENS[t.name]!(t);
        pendingKey = undefined;
        if (keys.every((k) => k in found)) return found;
      }
    }
    return undefined;
  } catch {
    return undefined; // malformed: let the full parse raise the InputError that names the problem
  } finally {
    source.destroy();
    raw.destroy();
    tokens.destroy();
  }
}
