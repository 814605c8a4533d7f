/**
 * Numeric command-line flags checked where yargs parses them, so `--concurrency 0`, `--workers abc` or `-k 1.5`
 * stop with one usage line naming the flag and the value before any work starts (never a p-limit TypeError deep in
 * the run). Every command declares its integer and fraction flags through these helpers: one rule for all of them.
 */
import { InputError } from './errors.ts';

/** A command-line value that is not what the flag takes; the CLI prints it as one line and exits 2. */
export class UsageError extends InputError {
  constructor(flag: string, given: unknown, expected: string) {
    super(`invalid value ${JSON.stringify(given)}: expected ${expected}`, flag);
    this.name = 'UsageError';
  }
}

const INTEGER = /^[+-]?\d+$/u;

/** Parses one integer flag value (yargs hands over a string or, for repeated flags, an array). */
export function parseIntFlag(flag: string, raw: unknown, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const text = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw.trim() : undefined;
  const n = text !== undefined && INTEGER.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    const expected = max === Number.MAX_SAFE_INTEGER ? `an integer ≥ ${min}` : `an integer from ${min} to ${max}`;
    throw new UsageError(flag, Array.isArray(raw) ? raw.join(' ') : raw, expected);
  }
  return n;
}

/** Parses one number flag value in [min, max] (fractions such as `--split 0.5`). */
export function parseNumberFlag(flag: string, raw: unknown, min: number, max: number): number {
  const text = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw.trim() : '';
  const n = text === '' ? NaN : Number(text);
  if (!Number.isFinite(n) || n < min || n > max)
    throw new UsageError(flag, Array.isArray(raw) ? raw.join(' ') : raw, `a number from ${min} to ${max}`);
  return n;
}

interface FlagText {
  describe?: string;
}

/** The yargs option object; with a default yargs types the parsed value as always present. */
interface Flag<T> {
  type: 'string';
  array?: true;
  describe?: string;
  coerce: (raw: unknown) => T;
}
type WithDefault<T> = Flag<T> & { default: T };

/** `--name`, or `-k` for a one-letter flag. */
function shownFlag(name: string): string {
  return name.length > 1 ? `--${name}` : `-${name}`;
}

function flag<T>(coerce: (raw: unknown) => T, opts: FlagText & { default?: T }, array = false): Flag<T> {
  return {
    type: 'string',
    ...(array ? { array: true as const } : {}),
    ...(opts.describe !== undefined ? { describe: opts.describe } : {}),
    ...(opts.default !== undefined ? { default: opts.default } : {}),
    coerce,
  };
}

/**
 * A yargs option for an integer flag ≥ `min` (optional unless `default` is given). Declared as a string so the
 * message quotes what was typed (yargs' own number type turns `abc` into NaN).
 */
export function intFlag(
  name: string,
  min: number,
  opts: FlagText & { default: number; max?: number },
): WithDefault<number>;
export function intFlag(name: string, min: number, opts?: FlagText & { max?: number }): Flag<number>;
export function intFlag(
  name: string,
  min: number,
  opts: FlagText & { default?: number; max?: number } = {},
): Flag<number> {
  return flag((raw) => parseIntFlag(shownFlag(name), raw, min, opts.max), opts);
}

/** Like intFlag, for a list of integers (`-k 5 10`). */
export function intListFlag(name: string, min: number, opts: FlagText & { default: number[] }): WithDefault<number[]>;
export function intListFlag(name: string, min: number, opts?: FlagText): Flag<number[]>;
export function intListFlag(name: string, min: number, opts: FlagText & { default?: number[] } = {}): Flag<number[]> {
  const shown = shownFlag(name);
  return flag((raw) => (Array.isArray(raw) ? raw : [raw]).map((v: unknown) => parseIntFlag(shown, v, min)), opts, true);
}

/** A yargs option for a number flag in [min, max]. */
export function numberFlag(
  name: string,
  min: number,
  max: number,
  opts: FlagText & { default: number },
): WithDefault<number>;
export function numberFlag(name: string, min: number, max: number, opts?: FlagText): Flag<number>;
export function numberFlag(
  name: string,
  min: number,
  max: number,
  opts: FlagText & { default?: number } = {},
): Flag<number> {
  return flag((raw) => parseNumberFlag(shownFlag(name), raw, min, max), opts);
}
