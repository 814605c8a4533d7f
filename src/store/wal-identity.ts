/**
 * A results file is opened only with its own write-ahead log. DuckDB replays `<file>.wal` into `<file>` on open, and
 * in the storage format every DuckDB release writes by default that log does not say which database it belongs to:
 * a results file copied over one whose run was killed would silently take the other file's last transactions
 * (rows added, rows deleted).
 *
 * From storage format v1.4.0 on, DuckDB gives each database file a random 16-byte identity in its main header and
 * writes it, with the checkpoint iteration, into the version entry that opens every log; on replay it refuses a log
 * of another identity (duckdb/duckdb@004faba src/storage/wal_replay.cpp `ReplayVersion`). So results files are
 * created in that format (`STORAGE_VERSION`), and before DuckDB opens a file this module reads both identities:
 *   - the log carries one: it must be the file's (DuckDB checks the checkpoint iteration itself);
 *   - the log carries none but the file has one: the log was not written for this file;
 *   - neither has one (a file and log from before this change): nothing tells them apart, so it is refused too,
 *     saying how to keep the log's rows if it is the file's own.
 * A log that ends before its version entry is complete holds no transaction (DuckDB discards it) and is let through.
 * Layouts read (DuckDB 1.4–1.5): main header = checksum u64, "DUCK", version u64, 4 flags u64, library version and
 * source id (32 bytes each), encryption metadata (8), db identifier (16) at byte 124
 * (src/storage/single_file_block_manager.cpp `MainHeader::Write`); the log's first entry is a binary-serialised
 * object: field 100 (u16 LE) = WAL_VERSION (98), field 101 = version, optional field 102 = list of 16 identifier
 * bytes, field 103 = checkpoint iteration (integers as LEB128 varints).
 */
import { closeSync, existsSync, openSync, readSync } from 'node:fs';
import { InputError } from '../core/errors.ts';

/** The storage format new results files are created in: the oldest that carries a database identity. */
export const STORAGE_VERSION = 'v1.4.0';

const ID_OFFSET = 124;
const ID_LENGTH = 16;

function readHead(path: string, bytes: number): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return undefined;
  }
  try {
    const buf = Buffer.alloc(bytes);
    const n = readSync(fd, buf, 0, bytes, 0);
    return buf.subarray(0, n);
  } finally {
    closeSync(fd);
  }
}

/** The database identity in a DuckDB file's main header: undefined when it has none (all zero, older formats). */
export function databaseIdentity(path: string): Buffer | undefined | 'not-duckdb' {
  const head = readHead(path, ID_OFFSET + ID_LENGTH);
  if (!head || head.length < ID_OFFSET + ID_LENGTH || head.toString('latin1', 8, 12) !== 'DUCK') return 'not-duckdb';
  const id = head.subarray(ID_OFFSET, ID_OFFSET + ID_LENGTH);
  return id.some((b) => b !== 0) ? Buffer.from(id) : undefined;
}

/** What a log's version entry says: its identity (or none), or `torn` when the entry is incomplete or unreadable. */
export function walIdentity(walPath: string): Buffer | undefined | 'torn' {
  const head = readHead(walPath, 256);
  if (!head) return 'torn';
  let at = 0;
  const u16 = (): number | undefined => (at + 2 <= head.length ? head.readUInt16LE((at += 2) - 2) : undefined);
  const varint = (): number | undefined => {
    let value = 0;
    for (let shift = 0; at < head.length && shift < 63; shift += 7) {
      const b = head[at++]!;
      value += (b & 0x7f) * 2 ** shift;
      if ((b & 0x80) === 0) return value;
    }
    return undefined;
  };
  if (u16() !== 100 || varint() !== 98 || u16() !== 101 || varint() === undefined) return 'torn';
  const field = u16();
  if (field === 0xffff) return undefined;
  if (field !== 102) return 'torn';
  const count = varint();
  if (count !== ID_LENGTH) return 'torn';
  const id = Buffer.alloc(ID_LENGTH);
  for (let i = 0; i < ID_LENGTH; i++) {
    const b = varint();
    if (b === undefined || b > 255) return 'torn';
    id[i] = b;
  }
  return id;
}

/**
 * Throws an InputError naming the file when `<path>.wal` exists and is not provably this file's own log. Call
 * before DuckDB opens (or attaches) a results file.
 */
export function checkOwnWal(path: string): void {
  const wal = `${path}.wal`;
  if (!existsSync(wal)) return;
  const logId = walIdentity(wal);
  if (logId === 'torn') return;
  const move = `move ${wal} away (it holds none of this file's rows) and rerun`;
  if (!existsSync(path)) {
    throw new InputError(
      `a write-ahead log ${wal} is there without its database file (left by a file since moved or deleted); ${move}`,
      path,
    );
  }
  const fileId = databaseIdentity(path);
  if (fileId === 'not-duckdb') return; // DuckDB names what the file is not
  if (logId !== undefined) {
    if (fileId?.equals(logId)) return;
    throw new InputError(
      `${wal} is another database file's write-ahead log (its identity differs from this file's: a results file was copied or moved over one whose run was killed), and replaying it would change this file's rows; ${move}`,
      path,
    );
  }
  if (fileId !== undefined) {
    throw new InputError(
      `${wal} was not written for this file (this file writes its identity into its own log); ${move}`,
      path,
    );
  }
  throw new InputError(
    `cannot tell whether ${wal} belongs to this file (both predate results-file identities): if this file's own run was killed, keep its last rows by opening it once with DuckDB itself (\`duckdb ${path} CHECKPOINT\`); otherwise ${move}`,
    path,
  );
}
