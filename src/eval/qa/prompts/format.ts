/**
 * Python `str.format` for the official prompt templates: positional `{}` and named `{name}` fields, filled in one
 * pass over the template so braces inside the inserted values are never re-read as fields. The templates used here
 * hold no literal braces (`{{`), so those are not handled.
 */
import { InputError } from '../../../core/errors.ts';

export function formatPositional(template: string, ...args: string[]): string {
  const parts = template.split('{}');
  if (parts.length - 1 !== args.length) {
    throw new InputError(`template has ${parts.length - 1} fields, got ${args.length} values`);
  }
  return parts.map((p, i) => (i < args.length ? p + args[i] : p)).join('');
}

export function formatNamed(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => {
    const v = values[name];
    if (v === undefined) throw new InputError(`template field {${name}} has no value`);
    return v;
  });
}
