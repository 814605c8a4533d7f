/**
 * The JSON Schema of experiment files, generated from the zod schema (zod 4's `toJSONSchema`), for editors.
 */
import { z } from 'zod';
import { ExperimentConfigSchema } from '../core/config.ts';

export function experimentJsonSchema(): Record<string, unknown> {
  // `input` describes what a user writes (defaults optional), not the resolved config.
  const schema = z.toJSONSchema(ExperimentConfigSchema, { io: 'input', unrepresentable: 'any' });
  return { ...schema, title: 'AdaptMR Bench experiment', $id: 'experiment.schema.json' };
}
