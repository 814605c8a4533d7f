/**
 * CLI command `adaptmr merge <files…> --out <file>`: merges results files of one experiment (e.g. a sweep's
 * shards) into one (src/store/merge.ts); refuses a mix of experiments or schema versions; merging the same files again
 * adds nothing. Here, not in src/store, because the recomputed verdicts need the plan experiments' registry.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { CommandModule } from 'yargs';
import { PLAN_EXPERIMENT_REGISTRY } from '../../plan-experiments/registry.ts';
import { mergeResults } from '../../store/merge.ts';
import { refreshStats } from '../../store/stats-tables.ts';

interface MergeArgs {
  files: string[];
  out: string;
}

export const mergeCommand: CommandModule<object, MergeArgs> = {
  command: 'merge <files..>',
  describe: 'Merge results files of one experiment (sweep shards) into one file',
  builder: (y) =>
    y
      .positional('files', {
        type: 'string',
        array: true,
        demandOption: true,
        describe: 'results .duckdb files (read-only)',
      })
      .option('out', { type: 'string', demandOption: true, describe: 'merged results file (created, or added to)' }),
  handler: async (argv) => {
    mkdirSync(dirname(argv.out), { recursive: true });
    // Statistics are derived: recomputed over the merged rows (deterministic, so equal to a single-file run's).
    const s = await mergeResults(argv.files, argv.out, {
      recompute: async (store) => void (await refreshStats(store, PLAN_EXPERIMENT_REGISTRY, { force: true })),
    });
    const added = Object.entries(s.added)
      .filter(([, n]) => n > 0)
      .map(([t, n]) => `${t} +${n}`)
      .join(', ');
    console.log(`merged ${s.inputs} files of ${s.experiment} → ${s.out} (${added || 'no new rows'})`);
  },
};
