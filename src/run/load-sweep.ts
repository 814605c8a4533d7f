/**
 * Reads an experiment file that is either one experiment or a sweep (src/run/sweep.ts), as the list of experiments
 * to run and the name of the results file they share.
 */
import { readFile } from 'node:fs/promises';
import { parseDocument } from 'yaml';
import { InputError, errorMessage } from '../core/errors.ts';
import { loadedFromValue, type LoadedExperiment } from './load-config.ts';
import { expandSweep, isSweepDocument, parseSweep } from './sweep.ts';

export async function loadExperimentOrSweep(path: string): Promise<{ experiments: LoadedExperiment[]; name: string }> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new InputError(`cannot read experiment file (${errorMessage(err)})`, path);
  }
  const doc = parseDocument(text, { prettyErrors: true });
  if (doc.errors.length > 0) throw new InputError(`invalid YAML: ${doc.errors.map((e) => e.message).join('; ')}`, path);
  const value: unknown = doc.toJS();
  if (!isSweepDocument(value)) {
    const exp = loadedFromValue(value, path);
    return { experiments: [exp], name: exp.config.name };
  }
  const experiments = expandSweep(parseSweep(value, path), path);
  return { experiments, name: experiments[0]!.config.name };
}
