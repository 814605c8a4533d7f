/**
 * The committed experiments/experiment.schema.json must be what the zod schemas generate (run `npm run schema` after
 * changing a config or options schema), every committed experiment file must validate against both the zod schema
 * and the JSON Schema (Ajv, as an editor would), and the JSON Schema must describe each component's options by name.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { experimentJsonSchema } from './json-schema.ts';
import { loadExperiment } from './load-config.ts';
import { expandSweep, loadSweep } from '../sweep/sweep-file.ts';
import { REPO_ROOT } from '../record/provenance.ts';

const dir = join(REPO_ROOT, 'experiments');
const validate = new Ajv2020({ strict: false, allErrors: true }).compile(await experimentJsonSchema());
const base = { name: 'x', datasets: [{ name: 'locomo' }] };

describe('experiment schema', () => {
  it('the committed JSON Schema is up to date', async () => {
    const committed = JSON.parse(readFileSync(join(dir, 'experiment.schema.json'), 'utf8')) as unknown;
    expect(committed).toEqual(await experimentJsonSchema());
  });

  it('every committed experiment file validates (zod and JSON Schema)', async () => {
    const files = readdirSync(dir).filter((f) => f.endsWith('.yaml'));
    expect(files.length).toBeGreaterThanOrEqual(5);
    for (const f of files) {
      const doc = parse(readFileSync(join(dir, f), 'utf8')) as unknown;
      // A sweep file validates each of its variations through the sweep loader.
      const isSweep = doc !== null && typeof doc === 'object' && 'variations' in doc;
      await expect(
        isSweep ? loadSweep(join(dir, f)).then(expandSweep) : loadExperiment(join(dir, f)),
        f,
      ).resolves.toBeDefined();
      // Sweep files (base + variations) have their own format; experiment files validate as experiments.
      if (doc && typeof doc === 'object' && 'variations' in doc) continue;
      expect(validate(doc), `${f}: ${JSON.stringify(validate.errors?.slice(0, 3))}`).toBe(true);
    }
  });

  it("describes each component's options by its name", () => {
    const ok = (config: unknown) => validate(config);
    expect(ok({ ...base, methods: [{ id: 'a', method: 'bm25', options: { k1: 1.2 } }] })).toBe(true);
    expect(ok({ ...base, methods: [{ id: 'a', method: 'bm25', options: { k1x: 1.2 } }] })).toBe(false);
    expect(ok({ ...base, methods: [{ id: 'a', method: 'full-context', options: { maxContextTokens: 1000 } }] })).toBe(
      true,
    );
    expect(ok({ ...base, methods: [{ id: 'a', method: 'full-context', options: { k1: 1.2 } }] })).toBe(false);
    expect(
      ok({
        ...base,
        methods: [{ id: 'a', method: 'strategy', options: { name: 'factual', options: { entityWeight: 0.3 } } }],
      }),
    ).toBe(true);
    expect(
      ok({
        ...base,
        methods: [{ id: 'a', method: 'strategy', options: { name: 'factual', options: { entityWieght: 0.3 } } }],
      }),
    ).toBe(false);
    expect(
      ok({
        ...base,
        methods: [{ id: 'a', method: 'adaptmr', options: { strategies: { temporal: { mode: 'llm' } } } }],
      }),
    ).toBe(true);
    expect(
      ok({
        ...base,
        methods: [{ id: 'a', method: 'adaptmr', options: { strategies: { temporal: { mood: 'llm' } } } }],
      }),
    ).toBe(false);
    expect(
      ok({
        ...base,
        methods: [
          { id: 'a', method: 'adaptmr', options: { classifier: { name: 'onnx', options: { model: 'm.onnx' } } } },
        ],
      }),
    ).toBe(true);
    expect(
      ok({
        ...base,
        methods: [
          { id: 'a', method: 'adaptmr', options: { classifier: { name: 'onnx', options: { modle: 'm.onnx' } } } },
        ],
      }),
    ).toBe(false);
    expect(
      ok({ ...base, embedder: { name: 'wink-sif', options: { a: 0.001 } }, methods: [{ id: 'a', method: 'bm25' }] }),
    ).toBe(true);
    expect(
      ok({ ...base, embedder: { name: 'openai', options: { modell: 'x' } }, methods: [{ id: 'a', method: 'bm25' }] }),
    ).toBe(false);
  });
});
