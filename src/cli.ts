/**
 * `adaptmr <command>`: the command-line entry. Each concern contributes its own commands from a `commands.ts`
 * in its folder; this file only assembles them and turns known errors into one clear line (no stack trace).
 */
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { InputError, NotBuiltError } from './core/errors.ts';
import { commands } from './commands.ts';

async function main(): Promise<void> {
  let cli = yargs(hideBin(process.argv))
    .scriptName('adaptmr')
    .usage('$0 <command> [options]')
    .demandCommand(1, 'Name a command; `adaptmr --help` lists them.')
    .strict()
    .recommendCommands()
    .help()
    .alias('h', 'help')
    .wrap(Math.min(110, process.stdout.columns ?? 110))
    .fail((msg, err, y) => {
      if (err) throw err;
      console.error(`${y.help() && ''}${msg}\nRun with --help for usage.`);
      process.exit(2);
    });
  for (const command of commands) cli = cli.command(command);
  await cli.parseAsync();
}

main().catch((err: unknown) => {
  if (err instanceof InputError || err instanceof NotBuiltError) {
    console.error(`error: ${err.message}`);
    process.exit(2);
  }
  console.error(err);
  process.exit(1);
});
