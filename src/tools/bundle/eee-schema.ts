/**
 * Validators of the Every Eval Ever 0.3.0 schemas (vendored in ./schemas, pinned to
 * evaleval/every_eval_ever@9bce4136e789ec006c62582f5f9d107d20f8b398 every_eval_ever/schemas/): one for an aggregate
 * evaluation log (`eval.schema.json`), one for an instance line of its `{uuid}_samples.jsonl`
 * (`instance_level_eval.schema.json`). Both are JSON Schema draft-07, checked with ajv (strict mode off: the upstream
 * files carry keywords ajv does not know, such as `version`).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { PACKAGE_ROOT } from '../../core/package-root.ts';

export const EEE_SCHEMA_VERSION = '0.3.0';
export const EEE_COMMIT = '9bce4136e789ec006c62582f5f9d107d20f8b398';
export const EEE_REPO = 'evaleval/every_eval_ever';
export const SCHEMA_DIR = join(PACKAGE_ROOT, 'src', 'tools', 'bundle', 'schemas');
export const SCHEMA_FILES = { aggregate: 'eval.schema.json', instance: 'instance_level_eval.schema.json' } as const;

export interface EeeValidators {
  aggregate: (doc: unknown) => string | undefined;
  instance: (doc: unknown) => string | undefined;
}

/** The first error of a validation as one line: where (JSON pointer) and what. */
export function firstError(errors: readonly ErrorObject[] | null | undefined): string {
  const e = errors?.[0];
  if (!e) return 'invalid';
  const extra = 'additionalProperty' in e.params ? ` (${String(e.params.additionalProperty)})` : '';
  return `${e.instancePath || '/'} ${e.message ?? 'invalid'}${extra}`;
}

function compile(ajv: Ajv, file: string): (doc: unknown) => string | undefined {
  const schema = JSON.parse(readFileSync(join(SCHEMA_DIR, file), 'utf8')) as Record<string, unknown>;
  const validate: ValidateFunction = ajv.compile(schema);
  return (doc) => (validate(doc) ? undefined : firstError(validate.errors));
}

let cached: EeeValidators | undefined;

/** Both validators, compiled once per process. */
export function eeeValidators(): EeeValidators {
  if (cached) return cached;
  const ajv = new Ajv({ strict: false, allErrors: false });
  cached = { aggregate: compile(ajv, SCHEMA_FILES.aggregate), instance: compile(ajv, SCHEMA_FILES.instance) };
  return cached;
}
