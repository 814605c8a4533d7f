/**
 * Options of the `mcp-memory` method (names are a public contract: `transport`, `command`, `args`, `env`, `cwd`,
 * `url`, `apiKeyEnv`, `preset`, `tools`) and how a preset and the user's `tools` combine: a tool the user declares
 * replaces the preset's tool of that role whole (no field-by-field merge, so what runs is what one block says).
 */
import { z } from 'zod';
import { HttpUrlSchema } from '../../src/core/http-url.ts';
import { InputError } from '../../src/core/errors.ts';
import { CommonServerOptions } from '../memory-server/options.ts';
import { PRESETS, type ToolMap } from './presets.ts';

const { apiKeyEnv, keep, pollMs, ingestTimeoutMs } = CommonServerOptions;

const ToolCallSchema = z
  .object({
    /** The tool's name as tools/list gives it. */
    name: z.string().min(1),
    /** Argument template: strings may hold `{{variable}}` (template.ts lists them); a whole `"{{k}}"` keeps its type. */
    arguments: z.record(z.string(), z.unknown()).default({}),
  })
  .strict();

/** Where the search reply's memories and their fields are (dotted paths into the reply's JSON). */
const ReplySchema = z
  .object({
    /** Path of the memories array ('' = the reply itself is the array). */
    items: z.string().default(''),
    text: z.string().min(1),
    score: z.string().optional(),
    /** Our unit ids (from metadata the server echoes): ranked units and retrieval metrics. */
    ids: z.string().optional(),
    time: z.string().optional(),
  })
  .strict();

export const ToolsSchema = z
  .object({
    ingest: ToolCallSchema.optional(),
    search: ToolCallSchema.extend({ reply: ReplySchema.optional() }).strict().optional(),
    /** Deletes one namespace's memories (called before ingesting a namespace and at cleanup). */
    reset: ToolCallSchema.optional(),
  })
  .strict();

export const McpMemoryOptionsSchema = z
  .object({
    transport: z.enum(['stdio', 'http']).optional(),
    /** stdio: the server's command, its arguments, extra environment variables and working folder. */
    command: z.string().min(1).optional(),
    args: z.array(z.string()).default([]),
    env: z.record(z.string(), z.string()).default({}),
    cwd: z.string().optional(),
    /** http: the Streamable HTTP endpoint (e.g. http://127.0.0.1:8766/mcp). */
    url: HttpUrlSchema.optional(),
    /** Variable holding the key, sent as `Authorization: Bearer` (http only). */
    apiKeyEnv,
    preset: z.enum(['reasoningbank']).optional(),
    tools: ToolsSchema.default({}),
    /** Names the system's version in the cache keys: change it when the system changes. */
    version: z.string().max(200).default(''),
    keep,
    pollMs: pollMs.default(100),
    ingestTimeoutMs,
    /** Timeout of one tool call. */
    callTimeoutMs: z.number().int().positive().default(60_000),
  })
  .strict()
  .superRefine((o, ctx) => {
    const t = o.transport ?? (o.command !== undefined ? 'stdio' : 'http');
    if (t === 'stdio' && o.command === undefined)
      ctx.addIssue({ code: 'custom', path: ['command'], message: 'transport stdio needs command' });
    if (t === 'http' && o.url === undefined)
      ctx.addIssue({ code: 'custom', path: ['url'], message: 'transport http needs url (or set command for stdio)' });
  });
export type McpMemoryOptions = z.output<typeof McpMemoryOptionsSchema>;

/** The preset's tools overridden, role by role, by the user's; ingest and search must end up declared. */
export function resolveTools(o: Pick<McpMemoryOptions, 'preset' | 'tools'>): ToolMap {
  const base = o.preset ? PRESETS[o.preset] : {};
  const merged = { ...base, ...o.tools } as Partial<ToolMap>;
  for (const role of ['ingest', 'search'] as const)
    if (!merged[role]) throw new InputError(`mcp-memory: tools.${role} is not declared (declare it, or set preset)`);
  if (!merged.search!.reply) throw new InputError('mcp-memory: tools.search.reply is not declared (where the text is)');
  return merged as ToolMap;
}
