/**
 * A run's stored config (`runs.config_json`) read back: a value that is not JSON (a damaged or hand-edited results
 * file) is one line naming the run, the file and what to do — never a SyntaxError trace.
 */
import { InputError } from '../core/errors.ts';

export function parseStoredConfig(configJson: string, runId: string, file: string): unknown {
  try {
    return JSON.parse(configJson) as unknown;
  } catch {
    throw new InputError(
      `run ${runId}: its stored config (runs.config_json) is not valid JSON — the file is damaged; rerun the experiment into a new results file, or restore the file from a copy`,
      file,
    );
  }
}
