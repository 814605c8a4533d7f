/**
 * Raw JSON records of a dataset source, one at a time: the elements of an array file (streamed), or the contents
 * of each `.json`/`.json.gz` file of a folder in file-name order (a file holding an array yields its elements), or —
 * a benchmark that lists its own reading units (`BenchmarkReader.units`, e.g. one folder per chat) — one record per
 * unit, as its reader reads it, whose `file` is the unit.
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { InputError } from '../core/errors.ts';
import type { RawRecord } from '../core/dataset-records.ts';
import { gunzipWhole, gunzipWholeAsync } from './gunzip.ts';
import { listDataFiles } from './hash.ts';
import { decodeFailure, parseJsonBytes, type ParseOptions } from './json-decode.ts';
import { streamJsonArray, type StreamArrayOptions } from './json-stream.ts';
import { readerOf, type DatasetSource } from './source.ts';

export type { RawRecord };

async function readJson(file: string, parse: ParseOptions | undefined): Promise<unknown> {
  let buf = await readFile(file);
  try {
    if (file.endsWith('.gz')) buf = await gunzipWholeAsync(buf);
    return parseJsonBytes(buf, parse);
  } catch (err) {
    throw decodeFailure(err, file);
  }
}

/**
 * One data file read and parsed synchronously, as its records (an array file's elements, or the file's one
 * object): for worker threads, which have no event loop to share and gain nothing from async reads.
 */
export function readFileRecordsSync(file: string, parse?: ParseOptions): RawRecord[] {
  let value: unknown;
  try {
    let buf = readFileSync(file);
    if (file.endsWith('.gz')) buf = gunzipWhole(buf);
    value = parseJsonBytes(buf, parse);
  } catch (err) {
    throw decodeFailure(err, file);
  }
  return Array.isArray(value)
    ? value.map((raw: unknown, index) => ({ raw, file, index }))
    : [{ raw: value, file, index: 0 }];
}

/**
 * The records of one of a source's reading units (a data file, or a unit its benchmark lists itself) without an event
 * loop: what the compute pool and its workers read (src/run/parallel).
 */
export function readSourceRecordsSync(
  src: Pick<DatasetSource, 'format'>,
  file: string,
  parse?: ParseOptions,
): RawRecord[] {
  const reader = readerOf(src);
  return reader.readUnitSync
    ? [{ raw: reader.readUnitSync(file, parse), file, index: 0 }]
    : readFileRecordsSync(file, parse);
}

/** A folder source's reading units in order: its data files, or the units its benchmark lists. */
export async function sourceUnits(src: DatasetSource): Promise<string[]> {
  const reader = readerOf(src);
  const listed = reader.units ? reader.units(src.path) : await listDataFiles(src.path);
  if (listed.length === 0) throw new InputError('folder holds no .json or .json.gz files', src.path);
  // A file a benchmark refuses by its name is refused even when it is empty.
  if (reader.checkFile) for (const f of listed) reader.checkFile(f);
  return listed;
}

export interface ReadRecordsOptions extends StreamArrayOptions {
  /** Folder layouts: read only these files (absolute paths, as listed); array files ignore it. */
  files?: ReadonlySet<string> | undefined;
}

export async function* readRecords(src: DatasetSource, opts: ReadRecordsOptions = {}): AsyncGenerator<RawRecord> {
  if (src.kind === 'file') {
    let index = 0;
    for await (const raw of streamJsonArray(src.path, opts)) yield { raw, file: src.path, index: index++ };
    return;
  }
  const listed = await sourceUnits(src);
  const only = opts.files;
  const files = only ? listed.filter((f) => only.has(f)) : listed;
  const { readUnit } = readerOf(src);
  if (readUnit) {
    for (const unit of files) yield { raw: await readUnit(unit, { parse: opts.parse }), file: unit, index: 0 };
    return;
  }
  // Read a few files ahead so disk and gunzip overlap with normalisation.
  const ahead = 4;
  const start = (f: string): Promise<unknown> => {
    const p = readJson(f, opts.parse);
    p.catch(() => undefined); // awaited below in order; this only stops an early exit from leaving it unhandled
    return p;
  };
  const pending: Promise<unknown>[] = files.slice(0, ahead).map(start);
  for (let i = 0; i < files.length; i++) {
    const next = files[i + ahead];
    if (next !== undefined) pending.push(start(next));
    const value = await pending[i]!;
    pending[i] = Promise.resolve(undefined); // release the parsed file once consumed
    const file = files[i]!;
    if (Array.isArray(value)) {
      let index = 0;
      for (const raw of value as unknown[]) yield { raw, file, index: index++ };
    } else {
      yield { raw: value, file, index: 0 };
    }
  }
}
