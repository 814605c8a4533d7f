/**
 * The flags `adaptmr run` and `adaptmr sweep` share — data folder, unlocked data, concurrency, progress, retrying
 * error rows — defined once, so the two commands never drift apart. Each command picks them by name where its help
 * lists them (yargs prints options in the order they are declared; the help text is a public contract).
 */
import type { Options } from 'yargs';
import { intFlag } from '../core/cli-options.ts';

const RUN_FLAGS = {
  'data-dir': { type: 'string' as const, describe: 'dataset folder (overrides ADAPTMR_DATA_DIR and the config)' },
  'allow-unlocked': {
    type: 'boolean' as const,
    default: false,
    describe:
      'run on dataset files that differ from the lock file on purpose (recorded in the results, marked in reports)',
  },
  concurrency: intFlag('concurrency', 1, { describe: 'questions processed at once (overrides the config)' }),
  progress: {
    type: 'boolean' as const,
    default: true,
    describe: 'progress bar on stderr (--no-progress to hide)',
  },
  'retry-errors': {
    type: 'boolean' as const,
    default: true,
    describe: 'on resume, compute again the questions whose rows are errors (--no-retry-errors keeps them)',
  },
} satisfies Record<string, Options>;

export type RunFlagName = keyof typeof RUN_FLAGS;

/** The parsed values of the shared flags. */
export interface RunFlagArgs {
  'data-dir': string | undefined;
  'allow-unlocked': boolean;
  concurrency: number | undefined;
  progress: boolean;
  'retry-errors': boolean;
}

/** The named shared flags, in the order given, for yargs' `.options(…)`. */
export function runFlags<K extends RunFlagName>(...names: K[]): Pick<typeof RUN_FLAGS, K> {
  return Object.fromEntries(names.map((n) => [n, RUN_FLAGS[n]])) as Pick<typeof RUN_FLAGS, K>;
}
