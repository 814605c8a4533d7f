// The one-line messages of bad input: file-system errors on a path, numeric flags, quoted server replies.
import { mkdirSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseIntFlag, parseNumberFlag, UsageError } from './cli-options.ts';
import { InputError, oneLine, ServiceCallError, userFacingMessage } from './errors.ts';
import { LlmCallError } from '../llm/errors.ts';

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error('did not throw');
}

describe('userFacingMessage', () => {
  it('names the path and reason of a file-system error, and leaves bugs alone', () => {
    const file = `/tmp/adaptmr-errors-test-${process.pid}`;
    writeFileSync(file, 'x');
    const err = thrown(() => mkdirSync(`${file}/sub`, { recursive: true }));
    expect(userFacingMessage(err)).toMatch(new RegExp(`^${file}(/sub)?: cannot mkdir: .*\\((ENOTDIR|EEXIST)\\)$`, 'u'));
    expect(userFacingMessage(new InputError('bad', 'x.yaml'))).toBe('x.yaml: bad');
    expect(userFacingMessage(new TypeError('undefined is not a function'))).toBeUndefined();
  });

  it('prints a failed service call (an LLM call after its retries, a download) as its message', () => {
    expect(userFacingMessage(new ServiceCallError('https://x/y: cannot download: fetch failed'))).toBe(
      'https://x/y: cannot download: fetch failed',
    );
    const llm = new LlmCallError(
      'reader call (reader, m) still failing after 5 attempt(s): Connection error.',
      'reader',
      'm',
      5,
      true,
    );
    expect(userFacingMessage(llm)).toBe(llm.message);
  });
});

describe('numeric flags', () => {
  it('accept integers in range and refuse everything else with the value typed', () => {
    expect(parseIntFlag('--concurrency', '4', 1)).toBe(4);
    expect(parseIntFlag('--workers', 0, 0)).toBe(0);
    for (const bad of ['0', 'abc', '1.5', '', '1e3', '-2', ' ']) {
      expect(() => parseIntFlag('--concurrency', bad, 1)).toThrow(UsageError);
    }
    expect(() => parseIntFlag('--concurrency', 'abc', 1)).toThrow(
      '--concurrency: invalid value "abc": expected an integer ≥ 1',
    );
    expect(parseNumberFlag('--split', '0.5', 0, 1)).toBe(0.5);
    expect(() => parseNumberFlag('--split', '2', 0, 1)).toThrow(
      '--split: invalid value "2": expected a number from 0 to 1',
    );
  });
});

describe('oneLine', () => {
  it('quotes an HTML error page by its title and collapses whitespace', () => {
    expect(oneLine('502 <html><head><title>502 Bad Gateway</title></head><body>\n<h1>x</h1></body></html>')).toBe(
      '502 an HTML page ("502 Bad Gateway")',
    );
    expect(oneLine('a\n  b\tc')).toBe('a b c');
    expect(oneLine('x'.repeat(500), 10)).toHaveLength(10);
  });
});
