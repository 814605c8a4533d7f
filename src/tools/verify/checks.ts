/**
 * The checks `adaptmr verify` prints, one line each (`ok` or `FAIL`, the check's name, what it found), and the
 * comparison both value checks use: the first place two values differ, as a path (`evaluation_results[3].
 * score_details.score`), numbers compared exactly (Object.is: no tolerance — a recomputation either gives the
 * stored bits or it does not). JSON text inside a string (the instance lines' metadata) is compared as JSON, so the
 * path reaches the cell that differs.
 */
export interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

export class Checks {
  readonly list: Check[] = [];
  constructor(private readonly print: (line: string) => void) {}
  add(name: string, ok: boolean, detail: string): boolean {
    this.list.push({ name, ok, detail });
    this.print(`${ok ? 'ok  ' : 'FAIL'}  ${name.padEnd(22)} ${detail}`);
    return ok;
  }
  get failed(): Check | undefined {
    return this.list.find((c) => !c.ok);
  }
}

const show = (v: unknown): string => {
  const s =
    typeof v === 'string'
      ? JSON.stringify(v)
      : JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? x.toString() : x));
  return s === undefined ? 'undefined' : s.length > 80 ? `${s.slice(0, 77)}…` : s;
};

function asJson(s: string): unknown {
  if (!/^[[{]/u.test(s)) return undefined;
  try {
    return JSON.parse(s) as unknown;
  } catch {
    return undefined;
  }
}

/** The first difference of `a` (in the bundle) from `b` (recomputed), or undefined when equal. */
export function firstDifference(a: unknown, b: unknown, path = ''): string | undefined {
  if (typeof a === 'bigint' || typeof b === 'bigint')
    return String(a) === String(b) ? undefined : `${path}: ${show(a)} ≠ ${show(b)}`;
  if (typeof a === 'number' && typeof b === 'number')
    return Object.is(a, b) ? undefined : `${path}: ${show(a)} ≠ recomputed ${show(b)}`;
  if (typeof a === 'string' && typeof b === 'string') {
    if (a === b) return undefined;
    const [ja, jb] = [asJson(a), asJson(b)];
    return ja !== undefined && jb !== undefined ? firstDifference(ja, jb, path) : `${path}: ${show(a)} ≠ ${show(b)}`;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      const d = firstDifference(a[i], b[i], `${path}[${i}]`);
      if (d) return d;
    }
    return undefined;
  }
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
    for (const k of keys) {
      const d = firstDifference(
        (a as Record<string, unknown>)[k],
        (b as Record<string, unknown>)[k],
        path ? `${path}.${k}` : k,
      );
      if (d) return d;
    }
    return undefined;
  }
  return Object.is(a, b) ? undefined : `${path}: ${show(a)} ≠ ${show(b)}`;
}
