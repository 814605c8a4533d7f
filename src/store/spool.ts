/**
 * The row spool: where a run that starts a new results file keeps its question rows until it ends. While the run
 * computes, the rows go to an append-only file beside the results file (`<out>.spool`); when it ends, they are
 * folded into the DuckDB file in one transaction (ResultStoreImpl.importSpool) and the spool is deleted. Such a run
 * has nothing to read from the results file, so DuckDB — ~45 MiB of library and buffers — is loaded only after its
 * compute threads are gone instead of beside them (peak RSS of the BM25 run on LongMemEval S).
 *
 * Durability is the store's: a question counts as written once its group's bytes are on disk (group commit, then
 * fdatasync), and a question is whole or absent. A killed run leaves its spool behind; the next command that opens
 * the results file folds it first (open-store.ts), so a resumed run finds those questions done. A spool whose writer
 * is still running is refused with a message naming it.
 *
 * Format: the magic line, then records `[u32 length][v8.serialize(record)][u32 length]` (little-endian). The first
 * record is the header (the run, its methods and checkpoints, the writer); each further one a group of question
 * batches. A record cut short by a kill (length or trailer missing, payload unreadable) ends the spool: it and
 * anything after it were never acknowledged to the run. This file never imports DuckDB.
 */
import { closeSync, fdatasyncSync, openSync, readFileSync, statSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { randomUUID } from 'node:crypto';
import { deserialize, serialize } from 'node:v8';
import { InputError, errorMessage } from '../core/errors.ts';
import { redactSecrets } from '../core/secrets.ts';
import { GroupCommit } from './group-commit.ts';
import { redactBatch } from './redact-batch.ts';
import { SerialQueue } from './serial-queue.ts';
import type { MethodRow, QuestionBatch, QuestionSink, RunRecord } from './types.ts';
import { validateBatch } from './validate-batch.ts';

const MAGIC = Buffer.from('adaptmr row spool 1\n');
/** Questions per spool record at most (as per transaction in the store). */
const MAX_GROUP = 64;

/** The spool beside a results file (absolute, so a writer and an opener in one process name it alike). */
export function spoolPathOf(resultsPath: string): string {
  return `${resolve(resultsPath)}.spool`;
}

/** The process writing a spool: a spool is folded only once its writer is gone (or is this process, done with it). */
export interface SpoolOwner {
  pid: number;
  host: string;
  /** The process's start time (Linux: /proc/<pid>/stat field 22), so a reused pid is not taken for the writer. */
  start: string | undefined;
}

export interface SpoolCheckpoint {
  method: string;
  key: string;
  value: string;
}

/** What the results file receives with the spooled questions: the run's own rows. */
export interface SpoolRun {
  run: RunRecord;
  methods: MethodRow[];
  checkpoints: SpoolCheckpoint[];
}

export interface SpoolHeader extends SpoolRun {
  /** Recorded in the results file's meta table by the transaction that folds the spool, so it is never folded twice. */
  id: string;
  owner: SpoolOwner;
}

type SpoolRecord = { kind: 'header'; header: SpoolHeader } | { kind: 'batches'; batches: QuestionBatch[] };

/** A process's state and start time from `/proc/<pid>/stat` (Linux), or undefined where there is no such file. */
function procStat(pid: number): { state: string; start: string } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which is in parentheses and may hold spaces: state is field 3, start time 22.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0] ?? '', start: fields[19] ?? '' };
  } catch {
    return undefined;
  }
}

function thisProcess(): SpoolOwner {
  return { pid: process.pid, host: hostname(), start: procStat(process.pid)?.start };
}

/** A spool of another host not written for this long is taken to be a killed run's, and folded from here. */
const ABANDONED_AFTER_MS = 10 * 60_000;

/** Spools (their paths) this process has open for writing: never folded from under their writer. */
const writing = new Set<string>();

/** Why the spool cannot be folded now (its writer is running), or undefined when it can. */
export function spoolBusy(spoolPath: string, owner: SpoolOwner): string | undefined {
  const me = thisProcess();
  // Another machine (or container) sharing the folder: its process cannot be checked from here, so the spool counts
  // as abandoned once it has not been written for a while (a computing run appends within ~100 ms of each question
  // it finishes).
  if (owner.host !== me.host) {
    const idleMs = Date.now() - statSync(spoolPath).mtimeMs;
    if (idleMs >= ABANDONED_AFTER_MS) return undefined;
    const wait = Math.ceil((ABANDONED_AFTER_MS - idleMs) / 60_000);
    return `a run on host ${owner.host} (pid ${owner.pid}) may still be writing it (open the file there, or here once the spool has not changed for ${ABANDONED_AFTER_MS / 60_000} minutes: in ~${wait} min)`;
  }
  if (owner.pid === me.pid && owner.start === me.start)
    return writing.has(spoolPath) ? 'this process is still writing it' : undefined;
  try {
    process.kill(owner.pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return undefined;
  }
  const stat = procStat(owner.pid);
  // A reused pid is another process; a killed one its parent has not reaped yet (a zombie) still answers kill(pid, 0).
  if (stat && ((owner.start !== undefined && stat.start !== owner.start) || stat.state === 'Z' || stat.state === 'X'))
    return undefined;
  return `a run (pid ${owner.pid}) is still writing it`;
}

function encode(record: SpoolRecord): Buffer {
  const payload = serialize(record);
  const out = Buffer.allocUnsafe(payload.length + 8);
  out.writeUInt32LE(payload.length, 0);
  payload.copy(out, 4);
  out.writeUInt32LE(payload.length, payload.length + 4);
  return out;
}

function writeAll(fd: number, bytes: Buffer): void {
  for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at);
}

/**
 * Writes a run's question rows to a new spool (created exclusively: an existing one is another run's, or a killed
 * run's not folded yet). Rows are validated and redacted as the store does before anything reaches the disk.
 */
export class SpoolWriter implements QuestionSink {
  private readonly queue = new SerialQueue();
  private readonly groups: GroupCommit<QuestionBatch>;
  private fd: number | undefined;

  private constructor(
    readonly path: string,
    private readonly spoolPath: string,
    fd: number,
    lingerMs: number,
  ) {
    this.fd = fd;
    this.groups = new GroupCommit(
      this.queue,
      async (batches) => {
        this.append({ kind: 'batches', batches: [...batches] });
        return batches.map(() => undefined);
      },
      lingerMs,
      MAX_GROUP,
    );
  }

  /** A new spool for the results file at `resultsPath`, holding the run's header once this returns. */
  static create(resultsPath: string, run: SpoolRun, lingerMs: number): SpoolWriter {
    const spoolPath = spoolPathOf(resultsPath);
    let fd: number;
    try {
      fd = openSync(spoolPath, 'wx');
    } catch (err) {
      const busy =
        (err as NodeJS.ErrnoException).code === 'EEXIST'
          ? 'it exists: another run is writing this results file'
          : errorMessage(err);
      throw new InputError(`cannot create the row spool ${spoolPath}: ${busy}`, resultsPath);
    }
    writing.add(spoolPath);
    const writer = new SpoolWriter(resultsPath, spoolPath, fd, lingerMs);
    const header: SpoolHeader = {
      id: randomUUID(),
      owner: thisProcess(),
      run: { ...run.run, configJson: redactSecrets(run.run.configJson) },
      methods: run.methods.map((m) => ({
        ...m,
        capabilities: JSON.parse(redactSecrets(JSON.stringify(m.capabilities))) as Record<string, unknown>,
      })),
      checkpoints: run.checkpoints.map((c) => ({
        method: c.method,
        key: redactSecrets(c.key),
        value: redactSecrets(c.value),
      })),
    };
    try {
      writeAll(fd, MAGIC);
      writer.append({ kind: 'header', header });
    } catch (err) {
      writer.closeFile();
      throw err;
    }
    return writer;
  }

  writeQuestion(batch: QuestionBatch): Promise<void> {
    if (this.fd === undefined) return Promise.reject(new Error(`row spool ${this.spoolPath} is closed`));
    validateBatch(batch);
    return this.groups.add(redactBatch(batch));
  }

  commitQueued(): void {
    this.groups.flushNow();
  }

  /** Writes what is queued and closes the file; the spool can then be folded (by this process too). */
  async close(): Promise<void> {
    if (this.fd === undefined) return;
    this.groups.flushNow();
    await this.queue.idle();
    this.closeFile();
  }

  private append(record: SpoolRecord): void {
    if (this.fd === undefined) throw new Error(`row spool ${this.spoolPath} is closed`);
    try {
      writeAll(this.fd, encode(record));
      fdatasyncSync(this.fd);
    } catch (err) {
      throw new Error(`writing the row spool ${this.spoolPath}: ${errorMessage(err)}`, { cause: err });
    }
  }

  private closeFile(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    writing.delete(this.spoolPath);
  }
}

/** A spool read back: its header (undefined when even that was cut short: no question was written) and its questions. */
export interface SpoolContents {
  header: SpoolHeader | undefined;
  /** The question batches, read one record (group) at a time; they end at the first incomplete record. */
  batches(): Generator<QuestionBatch>;
}

/** Reads the spool at `spoolPath`; a file that does not start as a spool is an InputError naming it. */
export function readSpool(spoolPath: string): SpoolContents {
  // Whole: a spool holds a run's result rows only (a few MB for LongMemEval S), never haystacks.
  const bytes = readFileSync(spoolPath);
  if (!bytes.subarray(0, MAGIC.length).equals(MAGIC.subarray(0, Math.min(MAGIC.length, bytes.length)))) {
    throw new InputError('not an AdaptMR row spool (unknown first line)', spoolPath);
  }
  let at = MAGIC.length;
  const next = (): SpoolRecord | undefined => {
    if (at + 4 > bytes.length) return undefined;
    const len = bytes.readUInt32LE(at);
    const end = at + 4 + len;
    if (end + 4 > bytes.length || bytes.readUInt32LE(end) !== len) return undefined;
    let record: SpoolRecord;
    try {
      record = deserialize(bytes.subarray(at + 4, end)) as SpoolRecord;
    } catch {
      return undefined;
    }
    at = end + 4;
    return record;
  };
  const first = next();
  const header = first?.kind === 'header' ? first.header : undefined;
  return {
    header,
    *batches() {
      if (!header) return;
      for (let r = next(); r?.kind === 'batches'; r = next()) yield* r.batches;
    },
  };
}
