/**
 * The `classifiers` registry: every classifier that sees only the question (rules, llm, rules+llm, onnx). The
 * oracle (gold type) is deliberately absent — it needs gold, which no factory here receives (oracle.ts).
 */
import { join } from 'node:path';
import { z } from 'zod';
import { PACKAGE_ROOT } from '../core/package-root.ts';
import type { Classifier } from '../core/interfaces.ts';
import type { LlmClient } from '../core/llm.ts';
import { Registry } from '../core/registry.ts';
import { LlmClassifier, LlmClassifierOptionsSchema } from './llm/llm-classifier.ts';
import { loadOnnxClassifier } from './onnx/load.ts';
import { RulesClassifier, RulesOptionsSchema } from './rules.ts';
import { RulesLlmClassifier } from './rules-llm.ts';
import { checkedClassifier } from './checked.ts';

/** What factories may be given besides options: never gold. */
export interface ClassifierDeps {
  /** A fixed LLM client; without it the LLM classifiers use `ctx.llm.forRole('classifier')` per question. */
  llm?: LlmClient;
}

/**
 * The shipped cross-benchmark model (`classifier: { name: onnx }` without `model`), rebuilt by the command
 * `defaultModelCommand()` of src/tools/classifier/train/default-model.ts.
 */
export const DEFAULT_ONNX_MODEL = join(PACKAGE_ROOT, 'calibration', 'classifier-default.onnx');

export const OnnxOptionsSchema = z
  .object({
    /**
     * An ONNX file from `adaptmr classifier train`, or a Hugging Face folder (model.onnx, tokenizer.json,
     * config.json); absent = the shipped default, calibration/classifier-default.onnx.
     */
    model: z.string().min(1).optional(),
    format: z.enum(['auto', 'hashed', 'hf']).default('auto'),
    /** Transformer inputs are cut to this many tokens. */
    maxLength: z.number().int().positive().default(512),
  })
  .strict();

export const RulesLlmOptionsSchema = z
  .object({
    rules: RulesOptionsSchema.default(RulesOptionsSchema.parse({})),
    llm: LlmClassifierOptionsSchema.default(LlmClassifierOptionsSchema.parse({})),
  })
  .strict();

export const classifiers = new Registry<Classifier, ClassifierDeps | undefined>('classifier')
  .register({
    name: 'rules',
    description: 'keyword/regex cues (plan §2.2 option C, English + Chinese); soft probabilities from cue counts',
    optionsSchema: RulesOptionsSchema,
    create: (options) => checkedClassifier(new RulesClassifier(options)),
  })
  .register({
    name: 'llm',
    description: 'few-shot LLM prompt of plan §2.2 option A (English/Chinese), structured output, logprobs when given',
    optionsSchema: LlmClassifierOptionsSchema,
    create: (options, deps) => checkedClassifier(new LlmClassifier(options, deps?.llm)),
  })
  .register({
    name: 'rules+llm',
    description: 'rules decide where a cue matches; the rest go to the LLM (plan §2.2 option C)',
    optionsSchema: RulesLlmOptionsSchema,
    create: (o, deps) =>
      checkedClassifier(new RulesLlmClassifier(new RulesClassifier(o.rules), new LlmClassifier(o.llm, deps?.llm))),
  })
  .register({
    name: 'onnx',
    description:
      'ONNX model through onnxruntime-node: a hashed n-gram model trained by `adaptmr classifier train`, or a Hugging Face transformer folder',
    optionsSchema: OnnxOptionsSchema,
    examples: [
      {
        label: 'trained hashed n-gram model',
        options: { model: 'model.onnx' },
        fixtures: { model: 'trained-hashed-model' },
      },
      { label: 'Hugging Face folder', options: { model: 'hf-model' }, fixtures: { model: 'tiny-hf-model' } },
    ],
    create: async (o) => {
      const model = o.model ?? DEFAULT_ONNX_MODEL;
      return checkedClassifier(await loadOnnxClassifier(model, o.format, o.maxLength), model);
    },
  })
  .freeze();
