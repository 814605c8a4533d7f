/**
 * Top-level help (`adaptmr`, `adaptmr --help`) printed straight from the command table, without loading yargs
 * (~50–150 ms of module loading here), so listing the commands starts as fast as Node itself. The layout is yargs's
 * own (the same text the CLI printed when yargs built it); per-command help still comes from yargs.
 */
import type { CommandEntry } from './commands.ts';

export const USAGE =
  '$0 <command> [options]\n\nA harness for query-aware memory retrieval on long-term memory benchmarks.';

/**
 * The help text for the command list, `width` columns wide (the [boolean] tags are right-aligned to it); undefined
 * when a line would not fit, where yargs would wrap it (the caller then lets yargs print the help).
 */
export function topLevelHelp(
  commands: readonly Pick<CommandEntry, 'name' | 'describe'>[],
  width: number,
): string | undefined {
  const names = commands.map((c) => `adaptmr ${c.name}`);
  const pad = Math.max(...names.map((n) => n.length)) + 2;
  const lines = commands.map((c, i) => `  ${names[i]!.padEnd(pad)}${c.describe}`);
  if (lines.some((l) => l.length > width)) return undefined;
  const option = (flags: string, text: string): string => {
    const left = `  ${flags.padEnd(15)}${text}`;
    return `${left}${'[boolean]'.padStart(width - left.length)}`;
  };
  return [
    USAGE.replace('$0', 'adaptmr'),
    '',
    'Commands:',
    ...lines,
    '',
    'Options:',
    option('    --version', 'Show version number'),
    option('-h, --help', 'Show help'),
    '',
  ].join('\n');
}
