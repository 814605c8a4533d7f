// Invalid UTF-8 in a dataset is an error naming the file, the byte and (streamed) the element — never U+FFFD.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { firstInvalidUtf8 } from '../core/utf8.ts';
import { headFields } from './json-head.ts';
import { parseJsonBytes } from './json-decode.ts';
import { streamJsonArray } from './json-stream.ts';

const dir = mkdtempSync(join(tmpdir(), 'adaptmr-utf8-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `{"question_id": "q<i>", "text": "…"}` elements; element `bad` gets a lone 0xFF in its text. */
function arrayWithBadElement(n: number, bad: number): Buffer {
  const parts: Buffer[] = [Buffer.from('[')];
  for (let i = 0; i < n; i++) {
    if (i > 0) parts.push(Buffer.from(','));
    parts.push(Buffer.from(`{"question_id": "q${i}", "text": "中文 `));
    if (i === bad) parts.push(Buffer.from([0xff]));
    parts.push(Buffer.from(' ok"}'));
  }
  parts.push(Buffer.from(']'));
  return Buffer.concat(parts);
}

async function drain(file: string, wholeBelowBytes: number): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const v of streamJsonArray(file, { wholeBelowBytes })) out.push(v);
  return out;
}

describe('strict UTF-8 in dataset files', () => {
  it('a streamed array file names the element holding the bad byte', async () => {
    const file = join(dir, 'streamed.json');
    writeFileSync(file, arrayWithBadElement(5, 3));
    await expect(drain(file, 0)).rejects.toThrow(
      /streamed\.json: element 3: not valid UTF-8 \(byte \d+ of the element\)$/u,
    );
  });

  it('a file read whole names the byte offset', async () => {
    const file = join(dir, 'whole.json');
    const bytes = arrayWithBadElement(3, 1);
    writeFileSync(file, bytes);
    await expect(drain(file, Number.MAX_SAFE_INTEGER)).rejects.toThrow(
      `whole.json: not valid UTF-8 (byte ${bytes.indexOf(0xff)})`,
    );
  });

  it('parseJsonBytes throws instead of substituting U+FFFD, in ids too', () => {
    expect(() =>
      parseJsonBytes(Buffer.concat([Buffer.from('{"question_id": "q'), Buffer.from([0xc3, 0x28]), Buffer.from('"}')])),
    ).toThrow(/invalid UTF-8 at byte 18/u);
  });

  it('the head reader gives up on a bad id (the full parse then reports it)', () => {
    const bytes = Buffer.concat([
      Buffer.from('{"question_id": "q'),
      Buffer.from([0xe0, 0x80, 0x80]),
      Buffer.from('", "question_type": "x", "rest": 1}'),
    ]);
    expect(headFields(bytes, ['question_id', 'question_type'])).toBeUndefined();
  });

  it('firstInvalidUtf8 agrees with a fatal TextDecoder on any bytes', () => {
    const fatal = new TextDecoder('utf-8', { fatal: true });
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 24 }), (bytes) => {
        const at = firstInvalidUtf8(bytes);
        let valid = true;
        try {
          fatal.decode(bytes);
        } catch {
          valid = false;
        }
        expect(at === bytes.length).toBe(valid);
        if (!valid) expect(() => fatal.decode(bytes.subarray(0, at))).not.toThrow();
      }),
      { numRuns: 2000 },
    );
  });
});
