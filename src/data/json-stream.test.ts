// streamJsonArray's keepHead: elements whose head fields the caller refuses are passed over without being parsed
// (a sample of a multi-GB LongMemEval M file), the others parsed as before.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { streamJsonArray } from './json-stream.ts';

const dir = mkdtempSync(join(tmpdir(), 'adaptmr-json-stream-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function all(file: string, opts: Parameters<typeof streamJsonArray>[1]): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const v of streamJsonArray(file, opts)) out.push(v);
  return out;
}

describe('streamJsonArray keepHead', () => {
  // The second element's head is fine but its body is not JSON: only a parse would notice.
  const file = join(dir, 'm.json');
  writeFileSync(file, '[{"question_id": "a", "x": 1}, {"question_id": "b", "x": nope}, {"x": 3, "question_id": "c"}]');
  const streamed = { wholeBelowBytes: 0 };

  it('passes over refused elements unparsed and parses the rest, including heads that do not lead with the key', async () => {
    const keepHead = { keys: ['question_id'], keep: (h: Record<string, unknown>) => h.question_id !== 'b' };
    expect(await all(file, { ...streamed, keepHead })).toEqual([
      { question_id: 'a', x: 1 },
      { x: 3, question_id: 'c' },
    ]);
  });

  it('parses every element without it (the broken one is reported, by its index)', async () => {
    await expect(all(file, streamed)).rejects.toThrow(/m\.json: element 1: not valid JSON/);
  });
});
