// Resolution of dataset names and the data directory; the error for missing data says what was tried and what to run.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { InputError } from '../core/errors.ts';
import { dataDirs, primaryDataDir, resolveDataDir, resolveDataset } from './index.ts';

// A small data directory written here, in both layouts' places (resolution only looks at what exists).
const dataDir = mkdtempSync(join(tmpdir(), 'adaptmr-source-'));
for (const d of ['longmemeval/s_cleaned', 'longmemeval/oracle', 'locomo'])
  mkdirSync(join(dataDir, d), { recursive: true });
writeFileSync(join(dataDir, 'longmemeval/s_cleaned/38_28dc39ac.json.gz'), '');
writeFileSync(join(dataDir, 'longmemeval/oracle/1_001be529.json'), '{}');
writeFileSync(join(dataDir, 'locomo/locomo10.json'), '[]');
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('resolveDataDir', () => {
  const saved = process.env.ADAPTMR_DATA_DIR;
  afterEach(() => {
    if (saved === undefined) delete process.env.ADAPTMR_DATA_DIR;
    else process.env.ADAPTMR_DATA_DIR = saved;
  });
  it('prefers --data-dir, then ADAPTMR_DATA_DIR, then config dataDir, then ./datasets', () => {
    process.env.ADAPTMR_DATA_DIR = '/env/dir';
    expect(resolveDataDir({ flag: '/flag/dir', config: '/cfg/dir' })).toBe('/flag/dir');
    expect(resolveDataDir({ config: '/cfg/dir' })).toBe('/env/dir');
    delete process.env.ADAPTMR_DATA_DIR;
    expect(resolveDataDir({ config: '/cfg/dir' })).toBe('/cfg/dir');
    expect(resolveDataDir({})).toBe(resolve('./datasets'));
  });

  it('accepts a search path: a dataset is taken from the first directory that has it, downloads go to the first', () => {
    const empty = mkdtempSync(join(tmpdir(), 'adaptmr-empty-'));
    try {
      const path = resolveDataDir({ flag: [empty, dataDir].join(delimiter) });
      expect(dataDirs(path)).toEqual([empty, resolve(dataDir)]);
      expect(primaryDataDir(path)).toBe(empty);
      expect(resolveDataset({ name: 'locomo' }, path)).toMatchObject({ root: resolve(dataDir), kind: 'file' });
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe('resolveDataset', () => {
  it('finds the per-question folder layouts and the LoCoMo file', () => {
    expect(resolveDataset({ name: 'longmemeval-s' }, dataDir)).toEqual({
      name: 'longmemeval-s',
      format: 'longmemeval',
      path: join(resolve(dataDir), 'longmemeval', 's_cleaned'),
      kind: 'folder',
      root: resolve(dataDir),
    });
    expect(resolveDataset({ name: 'longmemeval-oracle' }, dataDir).kind).toBe('folder');
    expect(resolveDataset({ name: 'locomo' }, dataDir)).toMatchObject({ format: 'locomo', kind: 'file' });
  });

  it('prefers the official array file over the folder', () => {
    const dir = mkdtempSync(join(tmpdir(), 'adaptmr-res-'));
    try {
      mkdirSync(join(dir, 'longmemeval', 'oracle'), { recursive: true });
      writeFileSync(join(dir, 'longmemeval', 'longmemeval_oracle.json'), '[]');
      expect(resolveDataset({ name: 'longmemeval-oracle' }, dir)).toMatchObject({ kind: 'file' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('says which paths were tried and to run data pull', () => {
    let err: unknown;
    try {
      resolveDataset({ name: 'longmemeval-m' }, '/nowhere');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InputError);
    const msg = (err as Error).message;
    expect(msg).toContain('/nowhere/longmemeval/longmemeval_m_cleaned.json');
    expect(msg).toContain('/nowhere/longmemeval/m_cleaned');
    expect(msg).toContain('adaptmr data pull longmemeval-m');
    expect(msg).toContain('ADAPTMR_DATA_DIR');
  });

  it('takes a path with a format, naming it after the file', () => {
    const src = resolveDataset({ format: 'locomo', path: join(dataDir, 'locomo', 'locomo10.json') }, '/ignored');
    expect(src).toMatchObject({ name: 'locomo10', format: 'locomo', kind: 'file' });
    expect(() => resolveDataset({ format: 'locomo', path: '/no/such.json' }, dataDir)).toThrow(InputError);
  });
});
