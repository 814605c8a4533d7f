/**
 * CLI: `adaptmr bundle <results.duckdb> --out <dir> [--sign-key key.pem] [--image method=name@sha256:…]
 * [--allow-unpinned] [--data-dir d]` writes a signed results bundle (docs/publishing.md);
 * `adaptmr bundle --import <eee-dir> --out <results.duckdb>` reads one back into a results file.
 */
import type { CommandModule } from 'yargs';
import { InputError } from '../../core/errors.ts';
import { redactSecrets } from '../../core/secrets.ts';
import { writeBundle } from './bundle.ts';
import { parseImageFlags } from './images.ts';
import { loadSigningKey, SIGNING_KEY_ENV } from './sign.ts';

interface BundleArgs {
  file: string | undefined;
  out: string;
  'sign-key': string | undefined;
  image: string[] | undefined;
  'allow-unpinned': boolean;
  'data-dir': string | undefined;
  import: string | undefined;
}

/** The command line as the manifest records it: the key's location never written (it may even be the PEM text). */
export function recordedCommand(args: readonly string[]): string {
  const out = args.map((a, i) =>
    args[i - 1] === '--sign-key' ? '<key>' : a.startsWith('--sign-key=') ? '--sign-key=<key>' : a,
  );
  return redactSecrets(['adaptmr', ...out].join(' '));
}

async function importHandler(from: string, out: string): Promise<void> {
  const { importBundle } = await import('./import.ts');
  const summary = await importBundle(from, out);
  console.log(summary);
}

export const bundleCommand: CommandModule<object, BundleArgs> = {
  command: 'bundle [file]',
  describe: 'Write a results bundle: Every Eval Ever files, Parquet tables, manifest (signed with a key)',
  builder: (y) =>
    y
      .positional('file', { type: 'string', describe: 'results .duckdb file' })
      .option('out', {
        type: 'string',
        demandOption: true,
        describe: 'bundle folder (new or empty); with --import, the results file to write',
      })
      .option('sign-key', {
        type: 'string',
        describe: `Ed25519 PKCS#8 PEM private key (default: ${SIGNING_KEY_ENV}); never stored`,
      })
      .option('image', {
        type: 'string',
        array: true,
        describe: 'memory-server image of a method: <method>=<name>@sha256:<digest>',
      })
      .option('allow-unpinned', {
        type: 'boolean',
        default: false,
        describe: 'accept a server image without a digest (recorded)',
      })
      .option('data-dir', { type: 'string', describe: 'where the datasets are (for the instance content hashes)' })
      .option('import', { type: 'string', describe: 'read an Every Eval Ever folder (a bundle) into a results file' }),
  handler: async (argv) => {
    if (argv.import !== undefined) return importHandler(argv.import, argv.out);
    if (argv.file === undefined)
      throw new InputError('name the results file to bundle (or --import <eee-dir>)', 'file');
    const key = loadSigningKey(argv['sign-key']);
    const manifest = await writeBundle(argv.file, {
      out: argv.out,
      key,
      dataDir: argv['data-dir'],
      images: parseImageFlags(argv.image ?? []),
      allowUnpinned: argv['allow-unpinned'],
      command: recordedCommand(process.argv.slice(2)),
    });
    const eee = manifest.files.filter((f) => f.path.startsWith('eee/')).length;
    console.log(
      `${argv.out}: ${manifest.files.length} files (${eee} Every Eval Ever, ${manifest.files.length - eee} tables), ` +
        (manifest.signature
          ? `signed by ${manifest.signature.fingerprint.slice(0, 16)}…`
          : 'unsigned (no --sign-key or ADAPTMR_SIGNING_KEY)'),
    );
  },
};
