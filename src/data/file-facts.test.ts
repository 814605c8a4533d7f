// The file-facts memo: hashes and catalog heads (a folder's files, an array file's items) are reused only while a
// file's stat data is unchanged, a changed file is read again, and a damaged or unwritable cache never fails a run.
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hashDatasetFiles } from './source-hash.ts';
import { readCatalog } from './load.ts';
import type { DatasetSource } from './source.ts';

const item = (id: string, type: string): Buffer =>
  gzipSync(
    JSON.stringify({
      question_id: id,
      question_type: type,
      question: '?',
      answer: 'a',
      question_date: '2023/05/30 (Tue) 23:40',
      haystack_dates: [],
      haystack_session_ids: [],
      haystack_sessions: [],
      answer_session_ids: [],
    }),
  );
const sha = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

describe('file facts (hash and catalog memo)', () => {
  let root: string;
  let folder: string;
  let source: DatasetSource;
  const savedCache = process.env.ADAPTMR_CACHE_DIR;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'adaptmr-facts-'));
    folder = join(root, 'data');
    mkdirSync(folder);
    process.env.ADAPTMR_CACHE_DIR = join(root, 'cache');
    writeFileSync(join(folder, 'a.json.gz'), item('q1', 'single-session-user'));
    writeFileSync(join(folder, 'b.json.gz'), item('q2', 'temporal-reasoning'));
    source = { kind: 'folder', path: folder, format: 'longmemeval', name: 'lme-test' } as DatasetSource;
  });
  afterEach(() => {
    // Deleting, not assigning: assigning undefined to process.env stores the string "undefined", a relative cache
    // folder later test files in the same worker would write into.
    if (savedCache === undefined) delete process.env.ADAPTMR_CACHE_DIR;
    else process.env.ADAPTMR_CACHE_DIR = savedCache;
    chmodSync(root, 0o755);
    rmSync(root, { recursive: true, force: true });
  });

  it('memoises hashes and heads, and reads a file again once its content (stat data) changes', async () => {
    const first = await hashDatasetFiles(source);
    expect(first.map((d) => d.sha256)).toEqual([
      sha(item('q1', 'single-session-user')),
      sha(item('q2', 'temporal-reasoning')),
    ]);
    expect((await readCatalog(source)).map((c) => c.questionId)).toEqual(['q1', 'q2']);
    expect(readdirSync(join(root, 'cache', 'datasets'))).toHaveLength(1);

    // Same bytes rewritten with a new mtime: the memo is not trusted, the new hash is the same.
    const replaced = item('q3', 'multi-session');
    writeFileSync(join(folder, 'b.json.gz'), replaced);
    utimesSync(join(folder, 'b.json.gz'), new Date(Date.now() + 5000), new Date(Date.now() + 5000));
    expect((await hashDatasetFiles(source)).map((d) => d.sha256)).toEqual([first[0]!.sha256, sha(replaced)]);
    expect((await readCatalog(source)).map((c) => c.questionId)).toEqual(['q1', 'q3']);
  });

  it('treats a damaged cache file as empty and still works when the cache cannot be written', async () => {
    await hashDatasetFiles(source);
    const dir = join(root, 'cache', 'datasets');
    for (const f of readdirSync(dir)) writeFileSync(join(dir, f), '{ not json');
    expect((await hashDatasetFiles(source)).map((d) => d.sha256)).toEqual([
      sha(item('q1', 'single-session-user')),
      sha(item('q2', 'temporal-reasoning')),
    ]);

    process.env.ADAPTMR_CACHE_DIR = join(root, 'readonly', 'cache');
    mkdirSync(join(root, 'readonly'));
    chmodSync(join(root, 'readonly'), 0o555);
    // Root ignores permissions; the point is that no error escapes either way.
    expect((await readCatalog(source)).map((c) => c.questionId)).toEqual(['q1', 'q2']);
    chmodSync(join(root, 'readonly'), 0o755);
  });

  it('memoises the item heads of a LongMemEval array file, reads them again once it changes, keeps no invalid ones', async () => {
    const file = join(root, 'm.json');
    const plain = (ids: [string, string][]) =>
      `[${ids.map(([id, type]) => gunzipSync(item(id, type)).toString()).join(',')}]`;
    writeFileSync(
      file,
      plain([
        ['q1', 'single-session-user'],
        ['q2', 'temporal-reasoning'],
      ]),
    );
    const array = { kind: 'file', path: file, format: 'longmemeval', name: 'lme-array' } as DatasetSource;
    expect((await readCatalog(array)).map((c) => [c.questionId, c.adaptType])).toEqual([
      ['q1', 'factual'],
      ['q2', 'temporal'],
    ]);
    const [memo] = readdirSync(join(root, 'cache', 'datasets'));
    const stored = JSON.parse(readFileSync(join(root, 'cache', 'datasets', memo!), 'utf8')) as {
      files: Record<string, { heads?: unknown }>;
    };
    expect(stored.files['m.json']?.heads).toEqual([
      { question_id: 'q1', question_type: 'single-session-user' },
      { question_id: 'q2', question_type: 'temporal-reasoning' },
    ]);

    writeFileSync(
      file,
      plain([
        ['q1', 'single-session-user'],
        ['q3', 'multi-session'],
      ]),
    );
    utimesSync(file, new Date(Date.now() + 5000), new Date(Date.now() + 5000));
    expect((await readCatalog(array)).map((c) => c.questionId)).toEqual(['q1', 'q3']);

    writeFileSync(
      file,
      plain([
        ['q1', 'single-session-user'],
        ['q1', 'multi-session'],
      ]),
    );
    utimesSync(file, new Date(Date.now() + 9000), new Date(Date.now() + 9000));
    await expect(readCatalog(array)).rejects.toThrow(/question id "q1" appears twice/);
    await expect(readCatalog(array)).rejects.toThrow(/question id "q1" appears twice/);
  });

  it('is bypassed with ADAPTMR_FILE_FACTS=off', async () => {
    process.env.ADAPTMR_FILE_FACTS = 'off';
    try {
      await hashDatasetFiles(source);
      await readCatalog(source);
    } finally {
      delete process.env.ADAPTMR_FILE_FACTS;
    }
    expect(() => readdirSync(join(root, 'cache', 'datasets'))).toThrow();
  });
});
