/**
 * Writes experiments/experiment.schema.json from the zod experiment schema, so editors validate and complete
 * experiment YAML files (`# yaml-language-server: $schema=./experiment.schema.json`). Run: `npm run schema`.
 * A test checks the committed file is up to date.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { experimentJsonSchema } from '../src/run/config/json-schema.ts';

const out = join(import.meta.dirname, '..', 'experiments', 'experiment.schema.json');
writeFileSync(out, `${JSON.stringify(await experimentJsonSchema(), null, 2)}\n`);
console.log(`wrote ${out}`);
