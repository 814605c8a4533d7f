/**
 * Reads YAML config text (experiments, sweeps) into plain values. Every way YAML can be bad — a syntax error, an alias
 * before its anchor, an alias bomb (billion laughs, refused past 100 alias expansions by the `yaml` package) — becomes
 * one InputError line naming the file, never a stack trace.
 */
import { parseDocument } from 'yaml';
import { InputError, errorMessage } from '../core/errors.ts';

export function readYamlText(text: string, path: string): unknown {
  const doc = parseDocument(text, { prettyErrors: true });
  if (doc.errors.length > 0) throw new InputError(`invalid YAML: ${doc.errors.map((e) => e.message.split('\n')[0]).join('; ')}`, path);
  try {
    return doc.toJS({ maxAliasCount: 100 }) as unknown;
  } catch (err) {
    throw new InputError(`invalid YAML: ${errorMessage(err)}`, path);
  }
}
