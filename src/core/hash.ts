/**
 * Content hashing for provenance and caches: canonical JSON (keys sorted, so equal values hash equally whatever
 * their key order) and sha256.
 */
import { createHash } from 'node:crypto';
import { configure } from 'safe-stable-stringify';

const stringify = configure({ deterministic: true, bigint: false, circularValue: Error });

export function canonicalJson(value: unknown): string {
  const s = stringify(value);
  if (s === undefined) throw new Error('value cannot be serialised to JSON');
  return s;
}

export function sha256(text: string | Uint8Array): string {
  return createHash('sha256').update(text).digest('hex');
}

export function stableHash(value: unknown): string {
  return sha256(canonicalJson(value));
}

/** A 32-bit seed derived from a run seed and a key (question id), so per-question randomness ignores scheduling. */
export function deriveSeed(seed: number, key: string): number {
  return Number.parseInt(sha256(`${seed}:${key}`).slice(0, 8), 16) | 0;
}
