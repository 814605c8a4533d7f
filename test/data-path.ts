/**
 * Where tests find the real datasets: the same search path as the CLI (ADAPTMR_DATA_DIR when set, else
 * `./datasets`; vitest.config.ts passes it), resolved the same way (src/data/source.ts). Every test
 * that reads a full dataset goes through this module — importing it is also what puts a test file in the full tier
 * (test/tiers.ts), so `npm run test:fast` never needs the data.
 *
 * A data directory holds LongMemEval either as the release's single JSON file (what `adaptmr data pull` writes) or
 * as a folder of one file per question; `longMemEvalFolder` gives a folder in both cases, so a test that reads
 * per-question files does not depend on which one the user has.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { dataDirs, resolveDataDir, resolveDataset, type DatasetSource } from '../src/data/index.ts';
import { readRecords } from '../src/data/records.ts';
import type { DatasetName } from '../src/core/config.ts';

/** The data search path of the tests (a PATH-like list; its first directory is where `adaptmr data pull` writes). */
export const TEST_DATA_DIR: string = resolveDataDir({});

/**
 * For a test file whose runs or CLI children find the datasets by name (through ADAPTMR_DATA_DIR, as a user's runs
 * do): points ADAPTMR_DATA_DIR at the tests' search path and returns it. Calling it is how such a file says that it
 * reads the real data; the import puts it in the full tier.
 */
export function useTestData(): string {
  process.env.ADAPTMR_DATA_DIR = TEST_DATA_DIR;
  return TEST_DATA_DIR;
}

/** A dataset-relative path (`locomo/locomo10.json`) in the first directory of the search path that has it, if any. */
export function findDataPath(rel: string): string | undefined {
  return dataDirs(TEST_DATA_DIR)
    .map((d) => join(d, rel))
    .find((p) => existsSync(p));
}

/** As findDataPath, but a missing file fails the test, naming every place tried. */
export function dataPath(rel: string): string {
  const found = findDataPath(rel);
  if (found) return found;
  const tried = dataDirs(TEST_DATA_DIR).map((d) => join(d, rel));
  throw new Error(
    `test data not found: ${rel} (tried ${tried.join(', ')}); copy or pull the datasets into ./datasets (\`adaptmr data pull <name>\`) or point ADAPTMR_DATA_DIR at them`,
  );
}

/** A named dataset, resolved exactly as `adaptmr run` resolves it. */
export function testDataset(name: DatasetName): DatasetSource {
  return resolveDataset({ name }, TEST_DATA_DIR);
}

/**
 * Question counts of the two LongMemEval copies a data directory may hold: the Hugging Face release (single file,
 * 500 questions per split) and the per-question folder copy, whose S split lacks `gpt4_7a0daae1` (499).
 */
export function longMemEvalCount(name: 'longmemeval-s' | 'longmemeval-oracle'): number {
  return name === 'longmemeval-s' && testDataset(name).kind === 'folder' ? 499 : 500;
}

/**
 * Why a test pinned to the 499-question folder copy of S skips on the release file: its reference values (the official
 * Python code's averages, docs/official-bm25-s.json) were measured on that copy.
 */
export const RELEASE_SKIP =
  'the official BM25 reference values were measured on the 499-question folder copy of LongMemEval S; this data directory has the 500-question release';

/**
 * A LongMemEval split as a folder of one file per question (`<sessions>_<question_id>.json[.gz]`, S gzipped, as the
 * folder copy names them): the folder itself when the data directory has one, else a folder split once from the
 * single-file release into the temp directory (streamed; keyed by the file's size and time, written atomically so
 * parallel test files share it).
 */
export async function longMemEvalFolder(name: 'longmemeval-s' | 'longmemeval-oracle'): Promise<string> {
  const src = testDataset(name);
  if (src.kind === 'folder') return src.path;
  const st = statSync(src.path);
  const dest = join(tmpdir(), 'adaptmr-test-data', `${name}-${st.size}-${Math.floor(st.mtimeMs)}`);
  if (existsSync(dest)) return dest;
  mkdirSync(join(tmpdir(), 'adaptmr-test-data'), { recursive: true });
  const work = mkdtempSync(`${dest}.part-`);
  const gz = name === 'longmemeval-s';
  for await (const { raw } of readRecords(src)) {
    const item = raw as { question_id: string; haystack_sessions: unknown[] };
    const text = JSON.stringify(item, null, 2);
    const file = `${item.haystack_sessions.length}_${item.question_id}.json${gz ? '.gz' : ''}`;
    writeFileSync(join(work, file), gz ? gzipSync(text) : text);
  }
  try {
    renameSync(work, dest);
  } catch {
    rmSync(work, { recursive: true, force: true }); // another test file finished it first
  }
  return dest;
}

/** The sorted per-question files of `longMemEvalFolder(name)`. */
export async function longMemEvalFiles(name: 'longmemeval-s' | 'longmemeval-oracle'): Promise<string[]> {
  const dir = await longMemEvalFolder(name);
  return readdirSync(dir)
    .filter((f) => /\.json(\.gz)?$/.test(f))
    .sort()
    .map((f) => join(dir, f));
}
