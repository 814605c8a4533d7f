/**
 * CLI: `adaptmr verify <bundle> [--public-key key.pem] [--submission] [--rerun]` — checks a results bundle and
 * exits non-zero naming the first file, row and field that differ (docs/publishing.md).
 */
import type { CommandModule } from 'yargs';
import { loadPublicKey } from '../bundle/sign.ts';
import { verifyBundle } from './verify.ts';

interface VerifyArgs {
  bundle: string;
  'public-key': string | undefined;
  submission: boolean;
  rerun: boolean;
  'data-dir': string | undefined;
  'any-commit': boolean;
}

export const verifyCommand: CommandModule<object, VerifyArgs> = {
  command: 'verify <bundle>',
  describe: 'Check a results bundle: signature, hashes, schemas; every number recomputed from its rows',
  builder: (y) =>
    y
      .positional('bundle', { type: 'string', demandOption: true, describe: 'bundle folder (adaptmr bundle --out)' })
      .option('public-key', { type: 'string', describe: 'require the signature to be by this key (PEM file)' })
      .option('submission', {
        type: 'boolean',
        default: false,
        describe: 'also the checks a leaderboard submission must pass',
      })
      .option('rerun', {
        type: 'boolean',
        default: false,
        describe: "re-run the bundle's offline methods and compare",
      })
      .option('data-dir', { type: 'string', describe: 'where the datasets are (for --rerun)' })
      .option('any-commit', {
        type: 'boolean',
        default: false,
        describe: "--rerun on this checkout, not the run's commit",
      }),
  handler: async (argv) => {
    const publicKey = argv['public-key'] ? loadPublicKey(argv['public-key']) : undefined;
    const checks = await verifyBundle(argv.bundle, {
      publicKey,
      submission: argv.submission,
      rerun: argv.rerun,
      dataDir: argv['data-dir'],
      anyCommit: argv['any-commit'],
    });
    const failed = checks.failed;
    if (failed) {
      // A hash names the file; a value check names the row and field: both, when the first failure is a hash.
      const where = checks.list.find((c) => !c.ok && /\b(line|row) \d+/u.test(c.detail));
      const also = where && where !== failed ? `; first value that differs: ${where.detail}` : '';
      console.error(`verify failed: ${failed.name}: ${failed.detail}${also}`);
      process.exitCode = 1;
      return;
    }
    console.log(`verified: ${checks.list.length} checks passed`);
  },
};
