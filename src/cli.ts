/**
 * `adaptmr <command>`: the command-line entry. Only the module of the command being run is imported (see
 * commands.ts); for top-level help every command is listed from the table. Known errors become one clear line.
 */
import { userFacingMessage } from './core/errors.ts';
import { topLevelHelp, USAGE } from './cli-help.ts';
import { packageVersion } from './core/package-root.ts';
import { redactSecrets, registerCredentialsIn } from './core/secrets.ts';
import { commands, type AnyCommand } from './commands.ts';
import { guardTerminalOutput } from './core/terminal-text.ts';

const WIDTH = Math.min(110, process.stdout.columns ?? 110);

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  // Credentials in any endpoint URL the environment holds (OPENAI_BASE_URL, ADAPTMR_HF_ENDPOINT…) and in the
  // arguments are secrets for everything this process writes or prints.
  registerCredentialsIn(process.env);
  registerCredentialsIn(args);
  // Stored replies and data strings reach the terminal through many commands: no control sequence gets through.
  guardTerminalOutput();
  // `adaptmr --help` lists the commands without loading yargs (cli-help.ts).
  const help =
    args.length === 1 && (args[0] === '--help' || args[0] === '-h') ? topLevelHelp(commands, WIDTH) : undefined;
  if (help !== undefined) {
    process.stdout.write(help);
    return;
  }
  const { default: yargs } = await import('yargs');
  const chosen = commands.find((c) => c.name === args[0]);
  // Every command may name a dataset: the benchmarks' datasets and readers are known before it loads.
  if (chosen) await (await import('./run/benchmark-registry.ts')).installBenchmarks();
  // Listing stubs (name + description) serve top-level help and "did you mean"; the chosen command is loaded whole.
  const modules: AnyCommand[] = chosen
    ? [await chosen.load()]
    : commands.map((c) => ({ command: c.name, describe: c.describe, handler: () => {} }));
  let cli = yargs(args)
    .scriptName('adaptmr')
    .usage(USAGE)
    .demandCommand(1, 'Name a command; `adaptmr --help` lists them.')
    .strict()
    .recommendCommands()
    .version(packageVersion())
    .help()
    .alias('h', 'help')
    .wrap(WIDTH)
    .fail((msg, err) => {
      // yargs' own usage errors (unknown flag, a flag value a coerce rejected: src/core/cli-options.ts) come as a
      // YError or none; anything else was thrown by a command and goes to the common handler below.
      if (err && err.name !== 'YError') throw err;
      // recommendCommands' message alone ("Did you mean run?") does not say what was wrong.
      const line = msg.startsWith('Did you mean') ? `Unknown command: ${args[0] ?? ''}. ${msg}` : msg;
      console.error(`${line}\nRun with --help for usage.`);
      process.exit(2);
    });
  for (const m of modules) cli = cli.command(m);
  await cli.parseAsync();
}

/** Ends the process on a failure: bad input as one line (exit 2), anything else (a bug) with its stack (exit 1). */
function fail(err: unknown): never {
  // Bad input (a config, dataset, flag, path the user can fix): one line, no stack (src/core/errors.ts).
  const line = userFacingMessage(err);
  if (line !== undefined) {
    console.error(`error: ${line.replace(/\s*\n\s*/gu, ' ')}`);
    process.exit(2);
  }
  console.error(redactSecrets(err instanceof Error ? (err.stack ?? err.message) : String(err)));
  process.exit(1);
}

// An error raised outside the awaited chain (a stream's 'error' event, a rejected promise nobody awaited) goes
// through the same mapping instead of Node's default trace.
process.on('uncaughtException', fail);
process.on('unhandledRejection', fail);
main().catch(fail);
