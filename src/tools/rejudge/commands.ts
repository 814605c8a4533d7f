/**
 * CLI: `adaptmr rejudge <f.duckdb> --judge <id>:<model>[:<prompt>] [--judge …] [--run id] [--base-url u] [--api-key-env V]`
 * — new judges' verdicts on a results file's stored answers (rejudge.ts). Prints what it asked, copied and failed;
 * exits non-zero when a verdict could not be had (run it again to retry).
 */
import type { Argv, CommandModule } from 'yargs';
import { JUDGE_PROMPTS } from '../../core/qa-config.ts';
import { rejudgeFile } from './rejudge.ts';

interface RejudgeArgs {
  file: string;
  judge: string[];
  run: string | undefined;
  'base-url': string | undefined;
  'api-key-env': string | undefined;
}

export const rejudgeCommand: CommandModule<object, RejudgeArgs> = {
  command: 'rejudge <file>',
  describe: "Add judges' verdicts to a results file's stored answers (no retrieval, no reader; cached, resumable)",
  builder: (y) =>
    y
      .positional('file', { type: 'string', demandOption: true, describe: 'results file (.duckdb)' })
      .option('judge', {
        type: 'string',
        array: true,
        demandOption: true,
        describe: `<id>:<model>[:<prompt>], repeatable; prompts: ${JUDGE_PROMPTS.join(', ')} (default: the dataset's official one)`,
      })
      .option('run', { type: 'string', describe: 'only this run id (default: every run with answers)' })
      .option('base-url', {
        type: 'string',
        describe: "judge endpoint (default: the run's llm.roles.judge, else OPENAI_BASE_URL)",
      })
      .option('api-key-env', {
        type: 'string',
        describe: "environment variable holding the judge's key (default: the run's, else OPENAI_API_KEY)",
      }) as unknown as Argv<RejudgeArgs>,
  handler: async (argv) => {
    const s = await rejudgeFile(argv.file, {
      judges: argv.judge,
      run: argv.run,
      baseUrl: argv['base-url'],
      apiKeyEnv: argv['api-key-env'],
      log: (line) => console.error(line),
    });
    console.log(
      `rejudge: ${s.runs} run(s), ${s.judged} verdicts asked, ${s.copied} copied across gold versions` +
        `${s.backfilled > 0 ? `, ${s.backfilled} older verdicts stored as rows` : ''}${s.failed > 0 ? `, ${s.failed} failed (first: ${s.firstError})` : ''}`,
    );
    if (s.failed > 0) process.exitCode = 1;
  },
};
