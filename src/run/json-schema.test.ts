/**
 * The committed experiments/experiment.schema.json must be what the zod schema generates (run `npm run schema`
 * after changing src/core/config.ts), and every committed experiment file must validate against the zod schema.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { experimentJsonSchema } from './json-schema.ts';
import { loadExperiment } from './load-config.ts';
import { REPO_ROOT } from './provenance.ts';

const dir = join(REPO_ROOT, 'experiments');

describe('experiment schema', () => {
  it('the committed JSON Schema is up to date', () => {
    const committed = JSON.parse(readFileSync(join(dir, 'experiment.schema.json'), 'utf8')) as unknown;
    expect(committed).toEqual(experimentJsonSchema());
  });

  it('every committed experiment file validates', async () => {
    const files = readdirSync(dir).filter((f) => f.endsWith('.yaml'));
    expect(files.length).toBeGreaterThanOrEqual(5);
    for (const f of files) await expect(loadExperiment(join(dir, f)), f).resolves.toBeDefined();
  });
});
