// A run whose methods index user turns only reads LongMemEval files without decoding assistant turns' text
// (run-dataset.ts unreadData, data/json-elide.ts). What the methods can see — the units of every index they build —
// must be the same as from the fully decoded files, on real S questions (folder of .gz files, the streamed array
// path too), at session and turn granularity; and with any method indexing assistant turns nothing is elided.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { IndexSpec } from '../core/interfaces.ts';
import type { Instance } from '../core/types.ts';
import { readInstances, type DatasetSource, type ParseOptions } from '../data/index.ts';
import { buildUnits } from '../index/units.ts';
import type { ConfiguredMethod } from './methods/create-methods.ts';
import { unreadData } from './run-dataset.ts';
import { longMemEvalFolder } from '../../test/data-path.ts';

const S = await longMemEvalFolder('longmemeval-s');
const tmp = mkdtempSync(join(tmpdir(), 'adaptmr-unread-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const USER_SESSION: IndexSpec = { granularity: 'session', roles: ['user'], includeCaptions: false, keepEmpty: true };
const USER_TURN: IndexSpec = { granularity: 'turn', roles: ['user'], includeCaptions: false };
const BOTH: IndexSpec = { granularity: 'session', roles: ['user', 'assistant'], includeCaptions: true };

const method = (index: IndexSpec): ConfiguredMethod => ({
  id: 'm',
  kind: 'bm25',
  index,
  k: 10,
  impl: {
    capabilities: { output: 'units' },
    run: async () => ({ retrieval: { units: [], noMemory: false, context: '' } }),
  },
});

async function read(source: DatasetSource, parse: ParseOptions, wholeBelowBytes?: number): Promise<Instance[]> {
  const out: Instance[] = [];
  for await (const inst of readInstances(source, {
    parse,
    ...(wholeBelowBytes === undefined ? {} : { wholeBelowBytes }),
  }))
    out.push(inst);
  return out;
}

function unitsOf(instances: Instance[], spec: IndexSpec): string[][] {
  return instances.map((i) =>
    buildUnits(i.haystack, spec).map((u) => `${u.id}\u0001${u.sessionId}\u0001${u.at}\u0001${u.text}`),
  );
}

describe('unreadData', () => {
  it('elides assistant text only when no method indexes assistant turns', () => {
    expect(unreadData([method(USER_SESSION), method(USER_TURN)])).toEqual({ elideContentOfRole: 'assistant' });
    expect(unreadData([method(USER_SESSION), method(BOTH)])).toEqual({});
    expect(unreadData([])).toEqual({});
  });

  it('leaves every user-role unit of real S questions as the full decode gives it (folder and streamed array)', async () => {
    const files = readdirSync(S).sort().slice(0, 12);
    const folder: DatasetSource = { name: 's12', format: 'longmemeval', path: S, kind: 'folder' };
    const only = new Set(files.map((f) => join(S, f)));
    const full: Instance[] = [];
    const elided: Instance[] = [];
    for await (const i of readInstances(folder, { files: only })) full.push(i);
    for await (const i of readInstances(folder, { files: only, parse: unreadData([method(USER_SESSION)]) }))
      elided.push(i);
    expect(elided.map((i) => i.query.id)).toEqual(full.map((i) => i.query.id));
    // Something was elided (S sessions have assistant turns), and only assistant text.
    const assistantChars = (xs: Instance[]) =>
      xs
        .flatMap((i) => i.haystack.flatMap((s) => s.turns))
        .filter((t) => t.role === 'assistant')
        .reduce((n, t) => n + t.text.length, 0);
    expect(assistantChars(full)).toBeGreaterThan(0);
    expect(assistantChars(elided)).toBe(0);
    for (const spec of [USER_SESSION, USER_TURN]) expect(unitsOf(elided, spec)).toEqual(unitsOf(full, spec));
    expect(elided.map((i) => i.gold)).toEqual(full.map((i) => i.gold));
    // The same questions as one JSON array, streamed element by element (the M path).
    const array = join(tmp, 's12.json');
    writeFileSync(array, `[${files.map((f) => gunzipSync(readFileSync(join(S, f))).toString('utf8')).join(',')}]`);
    const streamed = await read(
      { name: 's12', format: 'longmemeval', path: array, kind: 'file' },
      unreadData([method(USER_TURN)]),
      0,
    );
    expect(assistantChars(streamed)).toBe(0);
    for (const spec of [USER_SESSION, USER_TURN]) expect(unitsOf(streamed, spec)).toEqual(unitsOf(full, spec));
  });
});
