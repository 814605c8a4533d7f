/** CLI: `adaptmr protocol-check <url>` — checks a server against the http-memory protocol; exit code 1 if a check fails. */
import type { CommandModule } from 'yargs';
import { InputError } from '../../core/errors.ts';
import { readSecret } from '../../core/secrets.ts';
import { HttpUrlSchema } from '../../core/http-url.ts';
import { formatResults, runProtocolCheck } from './check.ts';

interface Args {
  url: string;
  'api-key-env'?: string;
  'ready-timeout': number;
  'max-reply-bytes'?: number;
}

export const protocolCheckCommand: CommandModule<object, Args> = {
  command: 'protocol-check <url>',
  describe:
    'Check a memory server against the http-memory protocol (docs/http-memory.openapi.yaml) and print what fails',
  builder: (y) =>
    y
      .positional('url', {
        type: 'string',
        demandOption: true,
        describe: 'the server base URL, e.g. http://127.0.0.1:8765',
      })
      .option('api-key-env', {
        type: 'string',
        describe: 'environment variable holding the key sent as Authorization: Bearer',
      })
      .option('ready-timeout', {
        type: 'number',
        default: 60,
        describe: 'seconds to wait for the namespace to be ready after ingestion',
      })
      .option('max-reply-bytes', {
        type: 'number',
        describe: 'the reply cap the run will apply (llm.maxReplyBytes; default 4 MiB)',
      }) as never,
  handler: async (argv) => {
    const url = HttpUrlSchema.safeParse(argv.url);
    if (!url.success) throw new InputError(`"${argv.url}" is not an http(s) URL`, 'protocol-check <url>');
    let apiKey: string | undefined;
    if (argv['api-key-env'] !== undefined) {
      apiKey = readSecret(argv['api-key-env']);
      if (apiKey === undefined || apiKey === '')
        throw new InputError(`environment variable ${argv['api-key-env']} (--api-key-env) is not set`);
    }
    const results = await runProtocolCheck(argv.url, {
      ...(apiKey ? { apiKey } : {}),
      readyTimeoutMs: argv['ready-timeout'] * 1000,
      ...(argv['max-reply-bytes'] !== undefined ? { maxReplyBytes: argv['max-reply-bytes'] } : {}),
    });
    console.log(formatResults(argv.url, results));
    if (results.some((r) => !r.ok)) process.exitCode = 1;
  },
};
