/**
 * `adaptmr <command>`: the command-line entry. Only the module of the command being run is imported (see
 * commands.ts); for top-level help every command is listed from the table. Known errors become one clear line.
 */
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { InputError, NotBuiltError } from './core/errors.ts';
import { redactSecrets } from './core/secrets.ts';
import { commands, type AnyCommand } from './commands.ts';

async function main(): Promise<void> {
  const args = hideBin(process.argv);
  const chosen = commands.find((c) => c.name === args[0]);
  // Listing stubs (name + description) serve top-level help and "did you mean"; the chosen command is loaded whole.
  const modules: AnyCommand[] = chosen
    ? [await chosen.load()]
    : commands.map((c) => ({ command: c.name, describe: c.describe, handler: () => {} }));
  let cli = yargs(args)
    .scriptName('adaptmr')
    .usage('$0 <command> [options]\n\nA harness for query-aware memory retrieval on LongMemEval and LoCoMo.')
    .demandCommand(1, 'Name a command; `adaptmr --help` lists them.')
    .strict()
    .recommendCommands()
    .help()
    .alias('h', 'help')
    .wrap(Math.min(110, process.stdout.columns ?? 110))
    .fail((msg, err) => {
      if (err) throw err;
      console.error(`${msg}\nRun with --help for usage.`);
      process.exit(2);
    });
  for (const m of modules) cli = cli.command(m);
  await cli.parseAsync();
}

main().catch((err: unknown) => {
  if (err instanceof InputError || err instanceof NotBuiltError) {
    console.error(`error: ${redactSecrets(err.message)}`);
    process.exit(2);
  }
  console.error(redactSecrets(err instanceof Error ? (err.stack ?? err.message) : String(err)));
  process.exit(1);
});
