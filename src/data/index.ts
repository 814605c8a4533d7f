/**
 * The dataset layer: resolution, streaming and loading through each benchmark's reader (src/core/benchmark.ts),
 * summaries, sampling, download, lock and hashes.
 */
export { filesOf, type CatalogEntry } from './catalog.ts';
export { sha256File, type FileDigest } from './hash.ts';
export { hashDatasetFiles } from './source-hash.ts';
export { formatIssue, type DataIssue } from './issues.ts';
export {
  headSelector,
  instancesOfRecord,
  loadDataset,
  loadQuestions,
  readCatalog,
  readInstances,
  type LoadedDataset,
  type LoadedQuestions,
  type Question,
  type ReadOptions,
} from './load.ts';
export { readFileRecordsSync, readSourceRecordsSync, type RawRecord } from './records.ts';
export { LOCK_FILE, readLock, verifyLocked, type LockEntry, type LockFile } from './lock.ts';
export { verifySource, type SourceLockOptions } from './lock-check.ts';
export { stratifiedSample } from './sample.ts';
export { compareIds } from './sort.ts';
export {
  dataDirs,
  DEFAULT_DATA_DIRS,
  primaryDataDir,
  resolveDataDir,
  resolveDataset,
  type DatasetFormat,
  type DatasetSource,
} from './source.ts';
export { summarize, type DataInfo } from './summary.ts';
export { ensureDataset } from './ensure.ts';
export {
  LOCOMO_COMMIT,
  LOCOMO_SHA256,
  LONGMEMEVAL_FILES,
  LONGMEMEVAL_REPO,
  pullDataset,
  type PullOptions,
  type PullResult,
} from './pull.ts';
export { openDataStream, splitJsonArray, splitJsonArrayFile } from './json-array-split.ts';
export { refusedByHead } from './json-stream.ts';
export { parseJsonBytes, type ParseOptions } from './json-decode.ts';
