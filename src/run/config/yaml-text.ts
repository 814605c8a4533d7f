/**
 * Reads YAML config text (experiments, sweeps) into plain values. Every way YAML can be bad — a syntax error, an alias
 * before its anchor, an alias bomb (billion laughs, refused past 100 alias expansions by the `yaml` package) — becomes
 * one InputError line naming the file, never a stack trace.
 */
import { parseDocument } from 'yaml';
import { readFile } from 'node:fs/promises';
import { InputError, errorMessage } from '../../core/errors.ts';
import { InvalidUtf8Error, decodeUtf8Strict } from '../../core/utf8.ts';
import { registerCredentialsIn } from '../../core/secrets.ts';

/**
 * Largest config file read. Experiment and sweep files are a few KB; a multi-MB one (a generated 1,000,000-entry `ks`
 * list) would take the YAML parser tens of seconds and GBs before the schema could refuse it.
 */
export const MAX_CONFIG_BYTES = 1024 * 1024;

/** Reads a YAML config file as strict UTF-8 (a byte that is not UTF-8 is an error naming its offset) and parses it. */
export async function readYamlFile(path: string, what: string): Promise<unknown> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (err) {
    throw new InputError(`cannot read ${what} (${errorMessage(err)})`, path);
  }
  if (bytes.length > MAX_CONFIG_BYTES) {
    throw new InputError(
      `${what} is ${(bytes.length / 1e6).toFixed(1)} MB; a config is at most ${MAX_CONFIG_BYTES / 1024 / 1024} MiB`,
      path,
    );
  }
  let text: string;
  try {
    text = decodeUtf8Strict(bytes);
  } catch (err) {
    if (err instanceof InvalidUtf8Error) throw new InputError(`${what} is not valid UTF-8 (byte ${err.offset})`, path);
    throw err;
  }
  return readYamlText(text, path);
}

export function readYamlText(text: string, path: string): unknown {
  // `merge`: YAML 1.1 merge keys (`<<: *defaults`), which configs use to share a method's settings; the alias cap
  // below still bounds what they expand to.
  const doc = parseDocument(text, { prettyErrors: true, merge: true });
  if (doc.errors.length > 0)
    throw new InputError(`invalid YAML: ${doc.errors.map((e) => e.message.split('\n')[0]).join('; ')}`, path);
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 100 }) as unknown;
  } catch (err) {
    throw new InputError(`invalid YAML: ${errorMessage(err)}`, path);
  }
  // A password in an endpoint URL (`http://user:pass@proxy/v1`) is a secret from here on (src/core/secrets.ts).
  registerCredentialsIn(value);
  return value;
}
