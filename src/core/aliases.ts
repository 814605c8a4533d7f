/**
 * Renamed options keep working (configs are a public contract): `withAliases(schema, { oldName: 'newName' })` accepts
 * the old key, moves its value to the new one before the strict schema sees it, and emits one deprecation warning
 * per old name (Node's `process.emitWarning`, printed once on stderr). Giving both names is an error.
 */
import { z } from 'zod';

const warned = new Set<string>();

export function withAliases<S extends z.ZodType>(
  schema: S,
  aliases: Readonly<Record<string, string>>,
  where = 'options',
) {
  return z.preprocess((value, ctx) => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
    const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
    for (const [old, now] of Object.entries(aliases)) {
      if (!(old in out)) continue;
      if (now in out) {
        ctx.addIssue({
          code: 'custom',
          message: `"${old}" is the old name of "${now}"; give only "${now}"`,
          path: [old],
        });
        continue;
      }
      out[now] = out[old];
      delete out[old];
      const message = `${where}: "${old}" is deprecated; use "${now}"`;
      if (!warned.has(message)) {
        warned.add(message);
        process.emitWarning(message, 'DeprecationWarning');
      }
    }
    return out;
  }, schema);
}
