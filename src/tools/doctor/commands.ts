/** CLI: `adaptmr doctor <experiment.yaml>` — checks every endpoint the experiment uses; exit code 1 if one fails. */
import type { CommandModule } from 'yargs';
import { loadExperiment } from '../../run/config/load-config.ts';
import { doctor } from './doctor.ts';
import { formatChecks } from './format.ts';

export const doctorCommand: CommandModule<object, { experiment: string }> = {
  command: 'doctor <experiment>',
  describe: 'Check every endpoint an experiment uses (LLM roles, embedder, memory servers) before running it',
  builder: (y) =>
    y.positional('experiment', { type: 'string', demandOption: true, describe: 'experiment config (YAML)' }),
  handler: async (argv) => {
    const checks = await doctor(await loadExperiment(argv.experiment));
    console.log(formatChecks(checks));
    if (checks.some((c) => !c.ok)) process.exitCode = 1;
  },
};
