/**
 * Argument templates of the `mcp-memory` method: how the benchmark's values become a tool's arguments, and the check
 * of a template against the tool's `inputSchema` (from tools/list) before any work — one line naming the tool and the
 * field. A string equal to one `{{variable}}` takes the variable's value with its type (`"{{k}}"` → 5, `"{{trajectory}}"`
 * → an array); a string with other text around placeholders is filled as text. Variables:
 *
 *   search: namespace, query, k, question_date
 *   ingest: namespace, batch_id, session_id, session_date, session_title, trajectory ([{ step, role, content,
 *           metadata: { unit_id, session_id, time, speaker? } }]), messages ([{ unit_id, role, speaker, text, time }]),
 *           text (the session's messages, one per line)
 */
import { SetupError } from '../../src/core/errors.ts';

const PLACEHOLDER = /\{\{\s*([a-z_]+)\s*\}\}/g;
const WHOLE = /^\{\{\s*([a-z_]+)\s*\}\}$/;

/** JSON Schema type of each variable. */
export const VARIABLE_TYPES: Record<string, string> = {
  namespace: 'string',
  query: 'string',
  k: 'integer',
  question_date: 'string',
  batch_id: 'string',
  session_id: 'string',
  session_date: 'string',
  session_title: 'string',
  trajectory: 'array',
  messages: 'array',
  text: 'string',
};
export const SEARCH_VARIABLES = ['namespace', 'query', 'k', 'question_date'];
export const INGEST_VARIABLES = Object.keys(VARIABLE_TYPES).filter(
  (v) => v !== 'query' && v !== 'k' && v !== 'question_date',
);

export function fill(template: unknown, vars: Record<string, unknown>): unknown {
  if (typeof template === 'string') {
    const whole = WHOLE.exec(template);
    if (whole) return vars[whole[1]!];
    return template.replace(PLACEHOLDER, (_, name: string) => String(vars[name] ?? ''));
  }
  if (Array.isArray(template)) return template.map((t) => fill(t, vars));
  if (template !== null && typeof template === 'object')
    return Object.fromEntries(Object.entries(template).map(([k, v]) => [k, fill(v, vars)]));
  return template;
}

/** Variable names a template uses anywhere. */
export function variablesOf(template: unknown): Set<string> {
  const out = new Set<string>();
  const walk = (t: unknown) => {
    if (typeof t === 'string') for (const m of t.matchAll(PLACEHOLDER)) out.add(m[1]!);
    else if (Array.isArray(t)) t.forEach(walk);
    else if (t !== null && typeof t === 'object') Object.values(t).forEach(walk);
  };
  walk(template);
  return out;
}

/** The JSON Schema type a template value will have (a whole placeholder: its variable's type). */
function valueType(v: unknown): string {
  if (typeof v === 'string') {
    const whole = WHOLE.exec(v);
    return whole ? (VARIABLE_TYPES[whole[1]!] ?? 'string') : 'string';
  }
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

function accepts(schemaType: unknown, type: string): boolean {
  if (schemaType === undefined) return true;
  const types = Array.isArray(schemaType) ? schemaType : [schemaType];
  return types.includes(type) || (type === 'integer' && types.includes('number'));
}

interface InputSchema {
  properties?: Record<string, { type?: unknown }>;
  required?: string[];
}

/** Throws one line when the template does not fit the tool's input schema (or uses a variable of another role). */
export function checkTemplate(
  role: string,
  tool: string,
  template: Record<string, unknown>,
  schema: unknown,
  allowed: readonly string[],
): void {
  const where = `mcp-memory: tool ${tool} (tools.${role})`;
  for (const v of variablesOf(template))
    if (!allowed.includes(v)) throw new SetupError(`${where}: unknown variable {{${v}}} (here: ${allowed.join(', ')})`);
  const s = (schema ?? {}) as InputSchema;
  const props = s.properties ?? {};
  for (const [field, value] of Object.entries(template)) {
    const p = props[field];
    if (!p)
      throw new SetupError(
        `${where}: argument "${field}" is not in its inputSchema (it takes: ${Object.keys(props).join(', ') || 'nothing'})`,
      );
    const t = valueType(value);
    if (!accepts(p.type, t))
      throw new SetupError(
        `${where}: argument "${field}" would be ${t}; its inputSchema says ${JSON.stringify(p.type)}`,
      );
  }
  for (const field of s.required ?? [])
    if (!(field in template)) throw new SetupError(`${where}: required argument "${field}" is not mapped`);
}
