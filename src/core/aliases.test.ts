// Renamed options: the old key is accepted with one deprecation warning; both keys at once is an error.
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { withAliases } from './aliases.ts';
import { parseWith } from './registry.ts';

const Schema = withAliases(
  z.object({ maxContextTokens: z.number() }).strict(),
  { maxTokens: 'maxContextTokens' },
  'full-context',
);

describe('withAliases', () => {
  it('accepts the old name, warns once, and rejects both names together', () => {
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    expect(parseWith(Schema, { maxTokens: 10 })).toEqual({ maxContextTokens: 10 });
    expect(parseWith(Schema, { maxTokens: 11 })).toEqual({ maxContextTokens: 11 });
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]![0])).toMatch(/full-context: "maxTokens" is deprecated; use "maxContextTokens"/);
    expect(parseWith(Schema, { maxContextTokens: 12 })).toEqual({ maxContextTokens: 12 });
    expect(() => parseWith(Schema, { maxTokens: 1, maxContextTokens: 2 })).toThrow(
      /maxTokens: "maxTokens" is the old name/,
    );
    expect(() => parseWith(Schema, { maxTokenz: 1 })).toThrow(/maxTokenz/);
    warn.mockRestore();
  });
});
