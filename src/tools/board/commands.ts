/**
 * CLI: `adaptmr board <bundle>… --html <page>` — verifies each bundle and writes a static leaderboard page where
 * only comparable results share a table (docs/publishing.md).
 */
import { writeFileSync } from 'node:fs';
import type { CommandModule } from 'yargs';
import { bundleEntries } from './entries.ts';
import { groupEntries } from './groups.ts';
import { boardPage } from './page.ts';

interface BoardArgs {
  bundles: string[];
  html: string;
}

export async function writeBoard(bundles: readonly string[], html: string): Promise<ReturnType<typeof groupEntries>> {
  const entries = [];
  for (const b of bundles) entries.push(...(await bundleEntries(b)));
  const groups = groupEntries(entries);
  writeFileSync(html, boardPage(groups, html, new Date().toISOString()));
  return groups;
}

export const boardCommand: CommandModule<object, BoardArgs> = {
  command: 'board <bundles..>',
  describe: 'A static leaderboard page of results bundles; only comparable results share a table',
  builder: (y) =>
    y
      .positional('bundles', { type: 'string', array: true, demandOption: true, describe: 'bundle folders' })
      .option('html', { type: 'string', demandOption: true, describe: 'the page to write' }),
  handler: async (argv) => {
    const groups = await writeBoard(argv.bundles, argv.html);
    const apart = groups.filter((g) => g.apart).length;
    console.log(`${argv.html}: ${groups.length - apart} comparable tables, ${apart} shown apart`);
  },
};
