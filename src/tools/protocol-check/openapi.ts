/**
 * The http-memory protocol's OpenAPI document (docs/http-memory.openapi.yaml) as validators: for an operation
 * (path template + method) and a reply status, whether the status is one the document lists and whether the body
 * fits the schema it gives (JSON Schema 2020-12, as OpenAPI 3.1 uses; checked with ajv, formats by ajv-formats).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { parse } from 'yaml';
import { InputError } from '../../core/errors.ts';
import { PACKAGE_ROOT } from '../../core/package-root.ts';

export const OPENAPI_FILE = join(PACKAGE_ROOT, 'docs', 'http-memory.openapi.yaml');
const ID = 'http-memory';

interface Doc {
  paths: Record<
    string,
    Record<
      string,
      {
        responses?: Record<string, Ref & { content?: Record<string, { schema?: unknown }> }>;
        requestBody?: { content?: Record<string, { schema?: unknown }> };
      }
    >
  >;
  components: {
    schemas: Record<string, unknown>;
    responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
  };
}
interface Ref {
  $ref?: string;
}

/** Local `#/components/schemas/X` references as references into the registered schema set. */
function rewriteRefs(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(rewriteRefs);
  if (schema === null || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema as Record<string, unknown>).map(([k, v]) => [
      k,
      k === '$ref' && typeof v === 'string' ? v.replace('#/components/schemas/', `${ID}#/$defs/`) : rewriteRefs(v),
    ]),
  );
}

export interface Verdict {
  ok: boolean;
  /** Why not, one line: `status 500 is not a documented reply`, `/items/0: must have required property 'text'`. */
  problem?: string;
}

export class ProtocolSchema {
  private readonly ajv: Ajv2020;
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(private readonly doc: Doc) {
    this.ajv = new Ajv2020({ strict: false, allErrors: false });
    (addFormatsModule as unknown as (a: Ajv2020) => void)(this.ajv);
    this.ajv.addSchema({ $id: ID, $defs: rewriteRefs(doc.components.schemas) as Record<string, unknown> });
  }

  static load(file = OPENAPI_FILE): ProtocolSchema {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      throw new InputError(`cannot read the protocol's OpenAPI document ${file}`);
    }
    return new ProtocolSchema(parse(text) as Doc);
  }

  /** Whether `body` is a documented reply with status `status` to `method path`. */
  reply(path: string, method: string, status: number, body: unknown): Verdict {
    const op = this.doc.paths[path]?.[method.toLowerCase()];
    if (!op) return { ok: false, problem: `${method} ${path} is not in the protocol` };
    let response = op.responses?.[String(status)];
    if (!response)
      return {
        ok: false,
        problem: `HTTP ${status} is not a documented reply (documented: ${Object.keys(op.responses ?? {}).join(', ')})`,
      };
    if (response.$ref) response = this.doc.components.responses?.[response.$ref.split('/').pop()!] ?? {};
    const schema = response.content?.['application/json']?.schema;
    return schema === undefined ? { ok: true } : this.validate(`${method} ${path} ${status}`, schema, body);
  }

  /** Whether `body` fits the request body schema of `method path` (the checker's own requests, in tests). */
  request(path: string, method: string, body: unknown): Verdict {
    const schema = this.doc.paths[path]?.[method.toLowerCase()]?.requestBody?.content?.['application/json']?.schema;
    return schema === undefined
      ? { ok: false, problem: `${method} ${path} takes no body` }
      : this.validate(`request ${method} ${path}`, schema, body);
  }

  private validate(key: string, schema: unknown, body: unknown): Verdict {
    let v = this.compiled.get(key);
    if (!v) {
      v = this.ajv.compile(rewriteRefs(schema) as object);
      this.compiled.set(key, v);
    }
    if (v(body)) return { ok: true };
    const e = v.errors?.[0];
    if (!e) return { ok: false, problem: 'invalid' };
    const params = e.params as { allowedValue?: unknown; allowedValues?: unknown };
    const allowed = params.allowedValue ?? params.allowedValues;
    return {
      ok: false,
      problem: `${e.instancePath || '(body)'}: ${e.message ?? 'invalid'}${allowed !== undefined ? ` ${JSON.stringify(allowed)}` : ''}`,
    };
  }
}
