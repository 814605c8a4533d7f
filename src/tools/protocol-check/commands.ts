/**
 * CLI: `adaptmr protocol-check <url>` — checks a server against the http-memory protocol; `adaptmr protocol-check --mcp
 * "<command line>" | <url> [--preset <name>]` — checks an MCP memory server as the mcp-memory method uses it
 * (mcp-check.ts). Exit code 1 if a check fails.
 */
import type { CommandModule } from 'yargs';
import { InputError } from '../../core/errors.ts';
import { readSecret } from '../../core/secrets.ts';
import { HttpUrlSchema } from '../../core/http-url.ts';
import { formatResults, runProtocolCheck } from './check.ts';
import { runMcpProtocolCheck } from './mcp-check.ts';

interface Args {
  url?: string;
  mcp?: string;
  preset: string;
  'api-key-env'?: string;
  'ready-timeout': number;
}

export const protocolCheckCommand: CommandModule<object, Args> = {
  command: 'protocol-check [url]',
  describe:
    'Check a memory server against the http-memory protocol (docs/http-memory.openapi.yaml) and print what fails',
  builder: (y) =>
    y
      .positional('url', {
        type: 'string',
        describe: 'the http-memory server base URL, e.g. http://127.0.0.1:8765',
      })
      .option('mcp', {
        type: 'string',
        describe: 'an MCP memory server instead: its command line (stdio, quoted) or its Streamable HTTP URL',
      })
      .option('preset', {
        type: 'string',
        choices: ['reasoningbank'],
        default: 'reasoningbank',
        describe: 'the tool mapping to check the MCP server against (the mcp-memory preset)',
      })
      .option('api-key-env', {
        type: 'string',
        describe: 'environment variable holding the key sent as Authorization: Bearer',
      })
      .option('ready-timeout', {
        type: 'number',
        default: 60,
        describe: 'seconds to wait for the namespace to be ready after ingestion',
      }) as never,
  handler: async (argv) => {
    if (argv.mcp !== undefined) {
      if (argv.mcp.trim() === '') throw new InputError('--mcp needs a command line or a URL', 'protocol-check --mcp');
      const results = await runMcpProtocolCheck(argv.mcp, {
        preset: argv.preset,
        ...(argv['api-key-env'] !== undefined ? { apiKeyEnv: argv['api-key-env'] } : {}),
      });
      console.log(formatResults(argv.mcp, results));
      if (results.some((r) => !r.ok)) process.exitCode = 1;
      return;
    }
    if (argv.url === undefined)
      throw new InputError('give a server URL, or --mcp "<command line>" | <url>', 'protocol-check');
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
    });
    console.log(formatResults(argv.url, results));
    if (results.some((r) => !r.ok)) process.exitCode = 1;
  },
};
