/**
 * Whole-file gunzip with the output buffer sized from the gzip trailer: ISIZE, the last four bytes of a gzip member
 * (RFC 1952 §2.3.1), is the uncompressed size mod 2³², so zlib can inflate into one buffer instead of 16 KiB chunks
 * it then concatenates — ~20% less CPU on LongMemEval S (0.66 → 0.53 s for its 499 files). The trailer is only a
 * hint: a wrong one (multi-member file, > 4 GiB, damaged) just means more chunks, and it is capped so a damaged
 * trailer cannot ask for a huge allocation.
 */
import { gunzip, gunzipSync, type ZlibOptions } from 'node:zlib';
import { promisify } from 'node:util';

const gunzipAsync = promisify(gunzip);
const MAX_HINT = 256 << 20;

function options(gz: Uint8Array): ZlibOptions {
  if (gz.length < 18) return {};
  const isize = Buffer.from(gz.buffer, gz.byteOffset, gz.byteLength).readUInt32LE(gz.length - 4);
  return isize > 0 && isize < MAX_HINT ? { chunkSize: Math.max(64, isize + 1) } : {};
}

export function gunzipWhole(gz: Buffer): Buffer<ArrayBuffer> {
  return gunzipSync(gz, options(gz));
}

export function gunzipWholeAsync(gz: Buffer): Promise<Buffer<ArrayBuffer>> {
  return gunzipAsync(gz, options(gz));
}
