/**
 * The content hash of each question a results file holds — sha256 of the canonical JSON of the instance's question,
 * gold and haystack, as the harness's loaders give them — and one dataset-content hash per (run, dataset) rolled up
 * from them: sha256 of the lines `<question id>\t<instance hash>\n` in code-point order of the ids. Two bundles with
 * the same dataset-content hash were scored on byte-identical questions, gold and histories, whatever files or
 * revisions they came from; `verify` recomputes the roll-up from the instance lines.
 */
import { sha256, stableHash } from '../../core/hash.ts';
import type { DatasetRef } from '../../core/config.ts';
import { readInstances, readLock, resolveDataDir, resolveDataset } from '../../data/index.ts';
import { lockEntryFor } from '../../data/lock.ts';
import { datasetEntry as namedDataset } from '../../core/benchmarks-installed.ts';
import { LOCOMO_COMMIT, LOCOMO_REPO, LONGMEMEVAL_REPO } from '../../data/pull.ts';
import { datasetEntry, type Config } from './config-facts.ts';

/** The roll-up of instance hashes (question id → sha256). */
export function rollUp(hashes: ReadonlyMap<string, string>): string {
  const ids = [...hashes.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return sha256(ids.map((id) => `${id}\t${hashes.get(id)}\n`).join(''));
}

export interface DatasetContent {
  hashes: Map<string, string>;
  /** The upstream repository, revision and commit the data directory's lock file records for it, if any. */
  pinned: { repo: string; revision: string; commit: string; from: string } | null;
}

/** The revision the harness itself pins a named dataset to, for a data directory without a lock file. */
function harnessPin(dataset: string): DatasetContent['pinned'] {
  const gh = namedDataset(dataset)?.dataset.pin;
  const from = 'the harness pin (the data directory has no lock entry)';
  if (gh) return { repo: gh.repo, revision: gh.commit, commit: gh.commit, from };
  if (dataset === 'locomo') return { repo: LOCOMO_REPO, revision: LOCOMO_COMMIT, commit: LOCOMO_COMMIT, from };
  if (dataset.startsWith('longmemeval-'))
    return { repo: LONGMEMEVAL_REPO, revision: 'unknown', commit: 'unknown', from };
  return null;
}

/** Each wanted question's content hash, read from the dataset as the run read it (name, or path). */
export async function instanceHashes(
  config: Config,
  dataset: string,
  wanted: ReadonlySet<string>,
  dataDirFlag: string | undefined,
): Promise<DatasetContent> {
  const entry = datasetEntry(config, dataset);
  const ref = (typeof entry.path === 'string' ? entry : { name: dataset }) as DatasetRef;
  const source = resolveDataset(
    ref,
    resolveDataDir({ flag: dataDirFlag, config: config.dataDir as string | undefined }),
  );
  const out = new Map<string, string>();
  for await (const instance of readInstances(source, { keep: (c) => wanted.has(c.questionId) })) {
    if (!wanted.has(instance.query.id)) continue;
    out.set(instance.query.id, stableHash({ query: instance.query, gold: instance.gold, haystack: instance.haystack }));
  }
  const lock = source.root ? lockEntryFor(await readLock(source.root), source.root, source.path) : undefined;
  const pinned = lock
    ? { repo: lock.repo, revision: lock.revision, commit: lock.commit, from: 'the data directory lock file' }
    : harnessPin(dataset);
  return { hashes: out, pinned };
}
