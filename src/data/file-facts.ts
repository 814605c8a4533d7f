/**
 * Facts derived from a dataset file's bytes — its sha256, the id and type at the head of a one-question file
 * or of each item of an array file of questions (`BenchmarkReader.headKeys`) — memoised across processes in `<cache>/datasets/<key>.json` (cache
 * root: ADAPTMR_CACHE_DIR, else `<repo>/.cache`), and reused while the file's stat data (size, mtime in ns, inode)
 * is unchanged, as git's index and make trust stat data. Before every run the runner needs the hash of every data
 * file (provenance) and the catalog (selection); on LongMemEval S that is 499 files read twice, ~0.6 s of a 4 s run,
 * for facts that only change when a file does.
 *
 * The cache is an optimisation only: an unreadable or malformed cache file counts as empty, and one that cannot
 * be written (read-only cache folder) is skipped silently. A file edited in place within the same nanosecond
 * mtime and size would be missed — `ADAPTMR_FILE_FACTS=off` reads and hashes every file again.
 */
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { resolveCacheDir, writeFileAtomic } from '../core/cache-dir.ts';

/**
 * Files whose facts are read at once: a folder of small files (LongMemEval S: 499 of ~150 KB) is bound by per-file
 * latency, not bandwidth.
 */
export const FILES_AT_ONCE = 8;

/** Bump when the stored facts change meaning. */
const VERSION = 1;

interface Entry {
  size: number;
  mtimeNs: string;
  ino: number;
  sha256?: string;
  /** The head fields of a one-question file (json-head.ts), as read. */
  head?: Record<string, unknown>;
  /** The head fields of each item of an array file of questions, in order, as read. */
  heads?: unknown[];
}

type FactName = 'sha256' | 'head' | 'heads';

interface FileStamp {
  size: number;
  mtimeNs: string;
  ino: number;
}

/**
 * A file's stat data, read synchronously: a stat is a few microseconds from the kernel's inode cache, while each
 * asynchronous one waits for a libuv thread and then for this thread to take its callback — on LongMemEval S the 499
 * stamps of a run's provenance took ~0.17 s of latency that way (a results file opening meanwhile), ~5 ms like this.
 */
function fileStamp(path: string): FileStamp {
  const s = statSync(path, { bigint: true });
  return { size: Number(s.size), mtimeNs: String(s.mtimeNs), ino: Number(s.ino) };
}

/** The facts of the files of one dataset source (a folder or a single file), keyed by file name. */
export class FileFacts {
  private dirty = false;

  private constructor(
    private readonly cachePath: string | undefined,
    private readonly entries: Record<string, Entry>,
  ) {}

  /** Loads the facts of the files under `sourcePath` (a folder, or a file: then just that file). */
  static open(sourcePath: string): FileFacts {
    if (process.env.ADAPTMR_FILE_FACTS === 'off') return new FileFacts(undefined, {});
    const key = createHash('sha256').update(resolve(sourcePath)).digest('hex').slice(0, 24);
    const cachePath = join(resolveCacheDir(), 'datasets', `${key}.json`);
    let entries: Record<string, Entry> = {};
    try {
      const parsed = JSON.parse(readFileSync(cachePath, 'utf8')) as { version?: unknown; files?: unknown };
      if (parsed.version === VERSION && typeof parsed.files === 'object' && parsed.files !== null)
        entries = parsed.files as Record<string, Entry>;
    } catch {
      // Absent or unreadable: start empty.
    }
    return new FileFacts(cachePath, entries);
  }

  /** The fact recorded for `file` while its stamp was `stamp`, or undefined. */
  private get<K extends FactName>(file: string, stamp: FileStamp, fact: K): Entry[K] | undefined {
    const e = this.entries[basename(file)];
    if (!e || e.size !== stamp.size || e.mtimeNs !== stamp.mtimeNs || e.ino !== stamp.ino) return undefined;
    return e[fact];
  }

  private set<K extends FactName>(file: string, stamp: FileStamp, fact: K, value: NonNullable<Entry[K]>): void {
    if (!this.cachePath) return;
    const name = basename(file);
    const e = this.entries[name];
    const same = e && e.size === stamp.size && e.mtimeNs === stamp.mtimeNs && e.ino === stamp.ino;
    this.entries[name] = { ...(same ? e : {}), ...stamp, [fact]: value };
    this.dirty = true;
  }

  /**
   * `fact` of `file` from the memo while the file's stamp is unchanged, else `compute()`, recorded against the stamp
   * taken before it ran (a file changed meanwhile is read again next time); an undefined result is not recorded.
   */
  async memoised<K extends FactName>(
    file: string,
    fact: K,
    compute: () => Promise<Entry[K] | undefined>,
  ): Promise<{ value: Entry[K] | undefined; stamp: FileStamp }> {
    const stamp = fileStamp(file);
    const known = this.get(file, stamp, fact);
    if (known !== undefined) return { value: known, stamp };
    const value = await compute();
    if (value !== undefined) this.set(file, stamp, fact, value);
    return { value, stamp };
  }

  /** Writes the facts learnt since `open` (atomically; a cache that cannot be written is skipped). */
  save(): void {
    if (!this.dirty || !this.cachePath) return;
    try {
      writeFileAtomic(this.cachePath, [Buffer.from(JSON.stringify({ version: VERSION, files: this.entries }))]);
      this.dirty = false;
    } catch {
      // Read-only or full cache folder: the facts are recomputed next time.
    }
  }
}
