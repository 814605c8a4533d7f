// The array splitter must find exactly the elements JSON.parse sees, whatever the chunking, escapes and scripts.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { splitJsonArray, splitJsonArrayFile } from './json-array-split.ts';

async function* chunked(bytes: Uint8Array, cuts: number[]): AsyncGenerator<Uint8Array> {
  let from = 0;
  for (const c of [...new Set(cuts.map((x) => x % (bytes.length + 1)))].sort((a, b) => a - b)) {
    yield bytes.subarray(from, c);
    from = c;
  }
  yield bytes.subarray(from);
}

async function split(text: string, cuts: number[] = []): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const el of splitJsonArray(chunked(Buffer.from(text, 'utf8'), cuts), 'test'))
    out.push(JSON.parse(Buffer.from(el).toString('utf8')));
  return out;
}

describe('splitJsonArray', () => {
  it('splits any JSON array into its elements under any chunking', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.jsonValue()),
        fc.array(fc.nat(), { maxLength: 8 }),
        fc.boolean(),
        async (items, cuts, pretty) => {
          const text = JSON.stringify(items, null, pretty ? 2 : undefined);
          expect(await split(text, cuts)).toEqual(JSON.parse(text));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('handles escapes, brackets inside strings and Chinese text across chunk boundaries', async () => {
    const items = [{ a: 'x\\"]}{[', b: ['\\', '"'] }, '我现在住在哪里？', 12.5, true, null, [[]], { c: '\\\\' }];
    const text = JSON.stringify(items);
    for (let cut = 0; cut <= text.length; cut++) expect(await split(text, [cut, cut + 1])).toEqual(items);
  });

  it('rejects what is not one array, naming the source', async () => {
    await expect(split('{"a": 1}')).rejects.toThrow(/test: expected a JSON array/);
    await expect(split('[{"a": 1}, {"b": ')).rejects.toThrow(/test: the top-level JSON array is truncated/);
    await expect(split('[1] x')).rejects.toThrow(/unexpected data after/);
    await expect(split('')).rejects.toThrow(/empty file/);
  });

  it('reads gzipped files and gives each element its own buffer', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'split-'));
    const file = join(dir, 'a.json.gz');
    const items = Array.from({ length: 50 }, (_, i) => ({ id: `q${i}`, text: 'é'.repeat(i * 1000) }));
    writeFileSync(file, gzipSync(JSON.stringify(items)));
    const got: unknown[] = [];
    const buffers = new Set<ArrayBufferLike>();
    for await (const el of splitJsonArrayFile(file)) {
      buffers.add(el.buffer);
      expect(el.byteOffset).toBe(0);
      got.push(JSON.parse(Buffer.from(el).toString('utf8')));
    }
    expect(got).toEqual(items);
    expect(buffers.size).toBe(items.length);
  });
});
