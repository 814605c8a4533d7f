/**
 * Reading a resolved dataset source: a light catalog pass (ids and types only, for sampling), a streaming
 * instance reader, and `loadDataset`, which resolves a config reference, verifies the lock-file sha256, applies
 * the reference's `questionIds` / `sample` / `limit`, and returns instances sorted by question id (`compareIds`) —
 * or, `loadQuestions`, the same questions without their haystacks.
 */
import pLimit from 'p-limit';
import type { DatasetRef } from '../core/config.ts';
import { InputError } from '../core/errors.ts';
import type { Instance } from '../core/types.ts';
import { filesOf, type CatalogEntry } from './catalog.ts';
import type { DataIssue } from './issues.ts';
import type { BenchmarkReader } from '../core/benchmark.ts';
import type { HeadSelector, StreamArrayOptions } from './json-stream.ts';
import type { ParseOptions } from './json-decode.ts';
import { listDataFiles } from './hash.ts';
import { readJsonHead } from './json-head.ts';
import { FILES_AT_ONCE, FileFacts } from './file-facts.ts';
import { readRecords, type RawRecord } from './records.ts';
import { stratifiedSample } from './sample.ts';
import { compareIds } from './sort.ts';
import { verifySource } from './lock-check.ts';
import { withUpdateGold } from './supersession.ts';
import { readerOf, resolveDataset, type DatasetSource } from './source.ts';

/**
 * Every question's id and labels, read before any work. A question id that appears twice (two files of a folder,
 * two elements of an array file, a conversation listed twice) is an InputError naming the id and both places:
 * the results file keys rows by question id, so a duplicate would otherwise fail mid-run on a primary-key append.
 */
export async function readCatalog(
  src: DatasetSource,
  opts: Pick<StreamArrayOptions, 'wholeBelowBytes'> = {},
): Promise<CatalogEntry[]> {
  const reader = readerOf(src);
  if (reader.headKeys) {
    return src.kind === 'folder' ? readFolderCatalog(src, reader) : readArrayCatalog(src, reader, opts);
  }
  const out: CatalogEntry[] = [];
  const places = new Map<string, string>();
  const add = (entries: CatalogEntry[], place: string): void => {
    for (const e of entries) notDuplicate(places, e.questionId, place);
    out.push(...entries);
  };
  if (reader.units && reader.readUnit) {
    // Each unit's light read: what the catalogue needs (e.g. the questions alone, not a chat of megabytes).
    for (const unit of reader.units(src.path))
      add(reader.catalogue({ raw: await reader.readUnit(unit, { light: true }), file: unit, index: 0 }), unit);
    return out;
  }
  const skipKeys = reader.catalogueSkipKeys ?? [];
  for await (const record of readRecords(src, { skipKeys, wholeBelowBytes: opts.wholeBelowBytes })) {
    add(reader.catalogue(record), `${record.file} element ${record.index}`);
  }
  return out;
}

function notDuplicate(places: Map<string, string>, id: string, place: string): void {
  const first = places.get(id);
  if (first !== undefined) {
    throw new InputError(
      `question id "${id}" appears twice: in ${first} and in ${place}; each question id must be unique`,
    );
  }
  places.set(id, place);
}

/**
 * An array file whose items are one question each (`BenchmarkReader.headKeys`; e.g. LongMemEval oracle, M): each
 * item's id and type from its first bytes, the file streamed once and the heads memoised by its stat data
 * (file-facts.ts), as a folder's are — a file of gigabytes would otherwise be scanned before every run or case study.
 * The heads are stored as read and mapped to types here, so a change of the mapping needs no new memo; they are
 * saved only once every one is valid.
 */
async function readArrayCatalog(
  src: DatasetSource,
  reader: BenchmarkReader,
  opts: Pick<StreamArrayOptions, 'wholeBelowBytes'>,
): Promise<CatalogEntry[]> {
  const keys = reader.headKeys ?? [];
  const facts = FileFacts.open(src.path);
  const { value: heads } = await facts.memoised(src.path, 'heads', async () => {
    const read: unknown[] = [];
    for await (const { raw } of readRecords(src, {
      skipKeys: reader.catalogueSkipKeys ?? [],
      headKeys: keys,
      wholeBelowBytes: opts.wholeBelowBytes,
    }))
      read.push(headOf(raw, keys));
    return read;
  });
  const out: CatalogEntry[] = [];
  const places = new Map<string, string>();
  for (const [index, head] of (heads ?? []).entries()) {
    const entry = oneEntry(reader, head, src.path);
    notDuplicate(places, entry.questionId, `${src.path} element ${index}`);
    out.push(entry);
  }
  facts.save();
  return out;
}

/** An item's head fields (an item that is not an object is kept as is, for the error that names it). */
function headOf(raw: unknown, keys: readonly string[]): unknown {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return raw;
  const item = raw as Record<string, unknown>;
  return Object.fromEntries(keys.filter((k) => k in item).map((k) => [k, item[k]]));
}

/** The one catalogue entry of a one-question record (a head, or the whole item). */
function oneEntry(reader: BenchmarkReader, raw: unknown, file: string): CatalogEntry {
  return reader.catalogue({ raw, file, index: 0 })[0]!;
}

/**
 * One file per question: read just the head of each file for its id and type (json-head.ts), several files at a
 * time, the heads memoised across runs while a file's stat data is unchanged (file-facts.ts); a file whose head
 * does not give them (another key order, an array, malformed) is parsed whole instead.
 */
async function readFolderCatalog(src: DatasetSource, reader: BenchmarkReader): Promise<CatalogEntry[]> {
  const files = await listDataFiles(src.path);
  if (files.length === 0) throw new InputError('folder holds no .json or .json.gz files', src.path);
  const facts = FileFacts.open(src.path);
  const limit = pLimit(FILES_AT_ONCE);
  const heads = await Promise.all(
    files.map((file) =>
      limit(async () => (await facts.memoised(file, 'head', () => readJsonHead(file, reader.headKeys ?? []))).value),
    ),
  );
  const out: CatalogEntry[] = [];
  const places = new Map<string, string>();
  const add = (entry: CatalogEntry, place: string): void => {
    notDuplicate(places, entry.questionId, place);
    out.push(entry);
  };
  for (const [i, file] of files.entries()) {
    const head = heads[i];
    if (head) {
      add({ ...oneEntry(reader, head, file), file }, file);
      continue;
    }
    for await (const { raw, index } of readRecords(src, { files: new Set([file]) })) {
      add({ ...oneEntry(reader, raw, file), file }, index === 0 ? file : `${file} element ${index}`);
    }
  }
  // Saved only once every entry is valid, so a bad file is read again (and reported) next time.
  facts.save();
  return out;
}

export interface ReadOptions {
  /** Questions for which this returns false are parsed but not built or retained. */
  keep?: (c: CatalogEntry) => boolean;
  /** Receives the data defects found (repaired, dropped or kept). */
  issues?: DataIssue[];
  /** Folder layouts: read only these files (e.g. those of the catalog entries kept); others are never opened. */
  files?: ReadonlySet<string>;
  /** Array files below this size are parsed whole rather than streamed (see json-stream.ts). */
  wholeBelowBytes?: number;
  /** What the caller never reads (json-decode.ts `ParseOptions`). */
  parse?: ParseOptions;
}

/**
 * The items of an array file that `keep` refuses, told by their id and type at the head of each item, so a reader
 * passes them over unparsed (json-stream.ts `refusedByHead`); undefined unless each item is one question
 * (`BenchmarkReader.headKeys`).
 */
export function headSelector(src: DatasetSource, keep: (c: CatalogEntry) => boolean): HeadSelector | undefined {
  const reader = readerOf(src);
  const keys = reader.headKeys;
  return keys ? { keys: [...keys], keep: (head) => keep(oneEntry(reader, head, src.path)) } : undefined;
}

/** Streams instances in source order (array order, or folder file-name order). */
export async function* readInstances(src: DatasetSource, opts: ReadOptions = {}): AsyncGenerator<Instance> {
  const issues = opts.issues ?? [];
  const keepHead = opts.keep ? headSelector(src, opts.keep) : undefined;
  for await (const record of readRecords(src, {
    wholeBelowBytes: opts.wholeBelowBytes,
    files: opts.files,
    parse: opts.parse,
    keepHead,
  })) {
    yield* instancesOfRecord(src, record, { keep: opts.keep, issues });
  }
}

/** The instances of one raw record (an item of one question is one; a conversation may hold many). */
export function* instancesOfRecord(
  src: DatasetSource,
  { raw, file, index }: RawRecord,
  opts: { keep?: ((c: CatalogEntry) => boolean) | undefined; issues: DataIssue[] },
): Generator<Instance> {
  const each = src.goldUpdate === 'both' ? (i: Instance) => withUpdateGold(i, 'both') : undefined;
  yield* each
    ? mapGen(rawInstances(src, { raw, file, index }, opts), each)
    : rawInstances(src, { raw, file, index }, opts);
}

function* mapGen<T>(gen: Iterable<T>, f: (x: T) => T): Generator<T> {
  for (const x of gen) yield f(x);
}

/** The benchmark's instances of a record; a reader that builds a question `keep` refuses still has it left out here. */
function* rawInstances(
  src: DatasetSource,
  record: RawRecord,
  opts: { keep?: ((c: CatalogEntry) => boolean) | undefined; issues: DataIssue[] },
): Generator<Instance> {
  const { keep } = opts;
  const built = readerOf(src).normalise(record, {
    dataset: src.name,
    issues: opts.issues,
    keep,
    companion: src.companion?.path,
    ...(src.options !== undefined ? { options: src.options } : {}),
  });
  for (const i of built) if (!keep || keep(entryOf(i))) yield i;
}

/** The catalogue entry an instance stands for. */
function entryOf(i: Instance): CatalogEntry {
  const g = i.gold;
  return {
    questionId: i.query.id,
    nativeType: g.nativeType,
    adaptType: g.type,
    isAbstention: g.isAbstention,
    ...(g.reportAs ? { reportAs: g.reportAs } : {}),
  };
}

export interface LoadedDataset {
  source: DatasetSource;
  instances: Instance[];
  issues: DataIssue[];
}

export async function loadDataset(
  ref: DatasetRef,
  dataDir: string,
  opts: { seed?: number } = {},
): Promise<LoadedDataset> {
  const { source, items, issues } = await collect(ref, dataDir, opts, (instance) => instance, {});
  return { source, instances: items, issues };
}

/** A question with its labels and gold, without its haystack. */
export type Question = Omit<Instance, 'haystack'>;

export interface LoadedQuestions {
  source: DatasetSource;
  questions: Question[];
  issues: DataIssue[];
}

/**
 * `loadDataset` for commands that read no haystack (classifier training and evaluation, answer scoring): each
 * instance is checked as `loadDataset` checks it and then kept without its haystack, so memory does not grow with
 * the haystacks (LongMemEval M holds ~500 sessions per question), and assistant turns' text is cut undecoded.
 */
export async function loadQuestions(
  ref: DatasetRef,
  dataDir: string,
  opts: { seed?: number } = {},
): Promise<LoadedQuestions> {
  const { source, items, issues } = await collect(
    ref,
    dataDir,
    opts,
    ({ haystack: _haystack, ...question }) => question,
    { elideContentOfRole: 'assistant' },
  );
  return { source, questions: items, issues };
}

/** Streams the instances `ref` selects, keeps `keepOf(instance)` of each, checks ids, sorts by question id. */
async function collect<T extends { query: { id: string } }>(
  ref: DatasetRef,
  dataDir: string,
  opts: { seed?: number },
  keepOf: (instance: Instance) => T,
  parse: ParseOptions,
): Promise<{ source: DatasetSource; items: T[]; issues: DataIssue[] }> {
  const source = resolveDataset(ref, dataDir);
  await verifySource(source);
  const wanted = ref.questionIds ? new Set(ref.questionIds) : undefined;
  // The catalog (ids and types, from each file's head in a folder) when a selection needs it or can use it.
  const catalog = ref.sample || (wanted && source.kind === 'folder') ? await readCatalog(source) : undefined;
  let sampled: Set<string> | undefined;
  if (ref.sample) {
    const pool = wanted ? catalog!.filter((c) => wanted.has(c.questionId)) : catalog!;
    sampled = stratifiedSample(pool, ref.sample.perType, ref.sample.seed ?? opts.seed ?? 42);
  }
  const keep =
    wanted || sampled
      ? (c: CatalogEntry) => (!wanted || wanted.has(c.questionId)) && (!sampled || sampled.has(c.questionId))
      : undefined;
  // A folder's selected questions are read from their own files only (one question: one file, not all of S).
  const kept = keep && catalog && source.kind === 'folder' ? catalog.filter(keep) : undefined;
  const files = kept ? filesOf(kept) : undefined;
  const issues: DataIssue[] = [];
  const items: T[] = [];
  const seen = new Set<string>();
  for await (const inst of readInstances(source, {
    ...(keep ? { keep } : {}),
    ...(files ? { files } : {}),
    issues,
    parse,
  })) {
    if (seen.has(inst.query.id)) throw new InputError(`question id "${inst.query.id}" appears twice`, source.path);
    seen.add(inst.query.id);
    items.push(keepOf(inst));
  }
  if (wanted) {
    const missing = [...wanted].filter((id) => !seen.has(id));
    if (missing.length > 0) {
      throw new InputError(
        `questionIds not in the dataset: ${missing.slice(0, 10).join(', ')}${missing.length > 10 ? ', …' : ''}`,
        source.path,
      );
    }
  }
  items.sort((a, b) => compareIds(a.query.id, b.query.id));
  return { source, items: ref.limit ? items.slice(0, ref.limit) : items, issues };
}
