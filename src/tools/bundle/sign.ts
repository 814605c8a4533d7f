/**
 * Ed25519 signatures of a bundle's manifest (node:crypto). The private key is a PKCS#8 PEM as
 * `openssl genpkey -algorithm ed25519` writes it, read from `--sign-key <file>` or the variable ADAPTMR_SIGNING_KEY
 * (the PEM text itself, or a path to it); it is never written anywhere. The manifest carries the public key (SPKI
 * PEM) and its fingerprint: the sha256 of the public key's DER bytes, hex.
 */
import { createHash, createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { InputError } from '../../core/errors.ts';

export const SIGNING_KEY_ENV = 'ADAPTMR_SIGNING_KEY';

export interface PublicKeyInfo {
  algorithm: 'ed25519';
  /** SPKI PEM. */
  publicKey: string;
  /** sha256 of the SPKI DER bytes, hex. */
  fingerprint: string;
}

/** The PEM text of a key given as text or as a path; `where` names its source in errors. */
function pemText(value: string, where: string): string {
  if (value.includes('-----BEGIN')) return value;
  if (!existsSync(value)) throw new InputError('signing key file not found', where);
  return readFileSync(value, 'utf8');
}

/** The private key from `--sign-key` or ADAPTMR_SIGNING_KEY; undefined when neither is set (an unsigned bundle). */
export function loadSigningKey(flag: string | undefined): KeyObject | undefined {
  const where = flag ? flag : SIGNING_KEY_ENV;
  const value = flag || process.env[SIGNING_KEY_ENV];
  if (!value) return undefined;
  let key: KeyObject;
  try {
    key = createPrivateKey(pemText(value, where));
  } catch (err) {
    if (err instanceof InputError) throw err;
    throw new InputError('not a PKCS#8 PEM private key (openssl genpkey -algorithm ed25519)', where);
  }
  if (key.asymmetricKeyType !== 'ed25519') {
    throw new InputError(`an ${key.asymmetricKeyType} key; a bundle is signed with Ed25519`, where);
  }
  return key;
}

/** The public half of a key (private or public) with its fingerprint. */
export function publicKeyInfo(key: KeyObject): PublicKeyInfo {
  const pub = key.type === 'private' ? createPublicKey(key) : key;
  const der = pub.export({ type: 'spki', format: 'der' });
  return {
    algorithm: 'ed25519',
    publicKey: String(pub.export({ type: 'spki', format: 'pem' })),
    fingerprint: createHash('sha256').update(der).digest('hex'),
  };
}

/** A public key read from a PEM (file path or text), for `verify --public-key`. */
export function loadPublicKey(value: string): PublicKeyInfo {
  try {
    return publicKeyInfo(createPublicKey(pemText(value, value)));
  } catch (err) {
    if (err instanceof InputError) throw err;
    throw new InputError('not a PEM public (or private) key', value);
  }
}

/** The signature of the manifest's bytes, base64 (the content of manifest.sig). */
export function signManifest(bytes: Buffer, key: KeyObject): string {
  return `${sign(null, bytes, key).toString('base64')}\n`;
}

/** Whether `signature` (manifest.sig's text) is a valid signature of `bytes` by the SPKI PEM `publicKey`. */
export function signatureValid(bytes: Buffer, signature: string, publicKey: string): boolean {
  try {
    return verify(null, bytes, createPublicKey(publicKey), Buffer.from(signature.trim(), 'base64'));
  } catch {
    return false;
  }
}
