// The fast top-level help must print what yargs itself prints for the same command table.
import { describe, expect, it } from 'vitest';
import yargs from 'yargs';
import { topLevelHelp, USAGE } from './cli-help.ts';
import { commands } from './commands.ts';

describe('top-level help without yargs', () => {
  it.each([110, 100])('matches yargs at width %i', async (width) => {
    let cli = yargs([]).scriptName('adaptmr').usage(USAGE).help().alias('h', 'help').wrap(width);
    for (const c of commands) cli = cli.command({ command: c.name, describe: c.describe, handler: () => {} });
    const expected = await cli.getHelp();
    expect(topLevelHelp(commands, width)).toBe(`${expected}\n`);
  });

  it('leaves a width that needs wrapping to yargs', () => {
    expect(topLevelHelp(commands, 60)).toBeUndefined();
  });
});
