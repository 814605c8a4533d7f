/**
 * The bundle's integrity: the manifest parses, its signature is valid for the public key it names (and that key is
 * the one expected, with `--public-key`), every file it lists has the listed sha256 and size, and the folder holds
 * no file it does not list.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../../core/errors.ts';
import { bundleFiles } from '../bundle/bundle.ts';
import { type Manifest, MANIFEST, SIGNATURE, BUNDLE_FORMAT, sha256Bytes } from '../bundle/manifest.ts';
import { type PublicKeyInfo, signatureValid } from '../bundle/sign.ts';
import type { Checks } from './checks.ts';

export interface ReadManifest {
  manifest: Manifest;
  bytes: Buffer;
}

export function readManifest(dir: string): ReadManifest {
  const file = join(dir, MANIFEST);
  if (!existsSync(file)) throw new InputError('not a results bundle: no manifest.json', dir);
  const bytes = readFileSync(file);
  let manifest: Manifest;
  try {
    manifest = JSON.parse(bytes.toString('utf8')) as Manifest;
  } catch (err) {
    throw new InputError(`manifest.json is not JSON (${(err as Error).message})`, file);
  }
  if (manifest?.format !== BUNDLE_FORMAT || !Array.isArray(manifest.files)) {
    throw new InputError(`manifest.json: field format is not ${BUNDLE_FORMAT} or files is missing`, file);
  }
  return { manifest, bytes };
}

/** Signature: valid, by the expected key when one is given; an unsigned bundle passes only without `--public-key`. */
export function checkSignature(
  dir: string,
  m: ReadManifest,
  checks: Checks,
  expected: PublicKeyInfo | undefined,
): void {
  const sigFile = join(dir, SIGNATURE);
  const sig = m.manifest.signature;
  if (!sig || !existsSync(sigFile)) {
    const what = !sig
      ? 'unsigned bundle (manifest names no key)'
      : `manifest names key ${sig.fingerprint} but ${SIGNATURE} is missing`;
    checks.add(
      'signature',
      !sig && expected === undefined,
      expected ? `${what}; --public-key expects ${expected.fingerprint}` : what,
    );
    return;
  }
  const valid = signatureValid(m.bytes, readFileSync(sigFile, 'utf8'), sig.publicKey);
  if (!valid) {
    checks.add('signature', false, `${SIGNATURE} is not a valid signature of ${MANIFEST} by key ${sig.fingerprint}`);
    return;
  }
  const keyFp = sha256Bytes(Buffer.from(sig.publicKey.replace(/-----[^-]+-----|\s/gu, ''), 'base64'));
  if (keyFp !== sig.fingerprint) {
    checks.add(
      'signature',
      false,
      `${MANIFEST}: field signature.fingerprint ${sig.fingerprint} is not the key's (${keyFp})`,
    );
    return;
  }
  if (expected && expected.fingerprint !== sig.fingerprint) {
    checks.add('signature', false, `signed by key ${sig.fingerprint}, not the expected ${expected.fingerprint}`);
    return;
  }
  checks.add(
    'signature',
    true,
    `Ed25519 by key ${sig.fingerprint}${expected ? ' (the expected key)' : ' (pass --public-key to require a key)'}`,
  );
}

export function checkFiles(dir: string, m: Manifest, checks: Checks): void {
  const listed = new Set(m.files.map((f) => f.path));
  for (const f of m.files) {
    const file = join(dir, f.path);
    if (!existsSync(file)) {
      checks.add('file hashes', false, `${f.path}: listed in the manifest, missing from the bundle`);
      return;
    }
    const bytes = readFileSync(file);
    if (bytes.length !== f.bytes || sha256Bytes(bytes) !== f.sha256) {
      checks.add(
        'file hashes',
        false,
        `${f.path}: sha256 ${sha256Bytes(bytes).slice(0, 16)}… differs from the manifest's ${f.sha256.slice(0, 16)}…`,
      );
      return;
    }
  }
  const extra = bundleFiles(dir).find((p) => !listed.has(p));
  if (extra) {
    checks.add('file hashes', false, `${extra}: in the bundle, not in the manifest`);
    return;
  }
  checks.add('file hashes', true, `${m.files.length} files, every sha256 and size as the manifest lists`);
}
