/**
 * Inference for the trained hashed n-gram model (train.ts / export.ts) through onnxruntime-node. The feature
 * spec and label order are read back from the file's metadata_props, so a model trained with other settings
 * (e.g. another `dim`) loads without configuration.
 */
import { readFile } from 'node:fs/promises';
import * as ort from 'onnxruntime-node';
import onnxProto from 'onnx-proto';
import { z } from 'zod';
import { formatZodError } from '../../core/registry.ts';
import { InputError, errorMessage } from '../../core/errors.ts';
import type { Classifier, Ctx } from '../../core/interfaces.ts';
import { AdaptTypeSchema, type Query } from '../../core/types.ts';
import { argmaxType, normalise, probsFromArray, type Classification } from '../result.ts';
import { denseFeatures, featureWidth, WORD_VECTOR_EMBEDDER, type FeatureSpec } from './features.ts';
import { LazyWinkSifEmbedder } from '../../index/embedders/wink-sif.ts';
import { cueIds } from '../rules.ts';
import {
  HASHED_KINDS,
  META_FALLBACK_THRESHOLD,
  META_FEATURES,
  META_KIND,
  META_LABELS,
  META_TRAINING_IDS,
} from './model-format.ts';

const { onnx } = onnxProto;

const HashedSpec = {
  dim: z.number().int().positive(),
  wordNgrams: z.tuple([z.number().int().positive(), z.number().int().positive()]),
  charNgrams: z.tuple([z.number().int().positive(), z.number().int().positive()]),
};
const FeatureSpecSchema = z.discriminatedUnion('version', [
  z.object({ version: z.literal('adaptmr-hash-v1'), ...HashedSpec }).strict(),
  z.object({ version: z.literal('adaptmr-hash-v2'), ...HashedSpec, cues: z.array(z.string()) }).strict(),
  z
    .object({
      version: z.literal('adaptmr-hash-v3'),
      ...HashedSpec,
      dim: z.number().int().nonnegative(),
      cues: z.array(z.string()),
      wordVectors: z
        .object({ embedder: z.string(), dim: z.number().int().positive(), scale: z.number().positive() })
        .strict(),
    })
    .strict(),
]);

/** Reads an ONNX file's metadata_props; a file that is not an ONNX model fails naming the file. */
export async function readOnnxMetadata(file: string): Promise<Record<string, string>> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (err) {
    throw new InputError(`cannot read model file: ${errorMessage(err)}`, file);
  }
  try {
    const model = onnx.ModelProto.decode(bytes);
    if (!model.graph) throw new Error('no graph');
    return Object.fromEntries(model.metadataProps.map((p) => [p.key ?? '', p.value ?? '']));
  } catch (err) {
    throw new InputError(`not a valid ONNX model (${errorMessage(err)})`, file);
  }
}

/**
 * Refuses a model whose weights (graph initializers, float or double, inline or raw) hold NaN or ±Infinity: every
 * question would get NaN probabilities. Checked when the model loads, so `classify`, `classifier eval` and a run
 * all stop at once with this line (a run used to find out per question).
 */
export async function assertFiniteWeights(file: string): Promise<void> {
  const model = onnx.ModelProto.decode(await readFile(file));
  for (const t of model.graph?.initializer ?? []) {
    const name = t.name ?? '?';
    const check = (values: ArrayLike<number>): void => {
      for (let i = 0; i < values.length; i++) {
        if (!Number.isFinite(values[i]!))
          throw new InputError(
            `weights hold ${values[i]} (initializer ${name}, element ${i}); retrain the model or restore the file`,
            file,
          );
      }
    };
    check(t.floatData ?? []);
    check(t.doubleData ?? []);
    const raw = t.rawData;
    if (raw && raw.length > 0) {
      const view = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
      if (t.dataType === onnx.TensorProto.DataType.FLOAT)
        check(Array.from({ length: raw.length >> 2 }, (_, i) => view.getFloat32(i * 4, true)));
      if (t.dataType === onnx.TensorProto.DataType.DOUBLE)
        check(Array.from({ length: raw.length >> 3 }, (_, i) => view.getFloat64(i * 8, true)));
    }
  }
}

export async function createSession(file: string): Promise<ort.InferenceSession> {
  try {
    return await ort.InferenceSession.create(file);
  } catch (err) {
    throw new InputError(`onnxruntime cannot load the model: ${errorMessage(err)}`, file);
  }
}

export class HashedOnnxClassifier implements Classifier {
  readonly name = 'onnx';
  /** The questions of the split the model was trained on (metadata `adaptmr.training_question_ids`): left out of evaluation. */
  readonly excludedQuestionIds?: ReadonlySet<string>;
  /** Metadata `adaptmr.fallback_threshold` (a model trained with `--datasets`), for the router's `fallback: model`. */
  readonly fallbackThreshold?: number;
  private constructor(
    private readonly session: ort.InferenceSession,
    readonly spec: FeatureSpec,
    readonly labels: readonly z.infer<typeof AdaptTypeSchema>[],
    readonly file: string,
    trainingIds?: readonly string[],
    fallbackThreshold?: number,
  ) {
    if (trainingIds && trainingIds.length > 0) this.excludedQuestionIds = new Set(trainingIds);
    if (fallbackThreshold !== undefined) this.fallbackThreshold = fallbackThreshold;
  }

  static async load(file: string, meta?: Record<string, string>): Promise<HashedOnnxClassifier> {
    const props = meta ?? (await readOnnxMetadata(file));
    if (!HASHED_KINDS.includes(props[META_KIND] ?? '')) {
      throw new InputError(
        `not an AdaptMR hashed-feature model (metadata ${META_KIND} is ${JSON.stringify(props[META_KIND])})`,
        file,
      );
    }
    const parse = <T>(key: string, schema: z.ZodType<T>): T => {
      try {
        const r = schema.safeParse(JSON.parse(props[key] ?? ''));
        if (r.success) return r.data;
        throw new Error(formatZodError(r.error));
      } catch (err) {
        throw new InputError(`metadata ${key} is invalid: ${errorMessage(err)}`, file);
      }
    };
    const spec: FeatureSpec = parse(META_FEATURES, FeatureSpecSchema);
    if (spec.version === 'adaptmr-hash-v3') {
      const wv = new LazyWinkSifEmbedder();
      if (spec.wordVectors.embedder !== WORD_VECTOR_EMBEDDER || spec.wordVectors.dim !== wv.dim) {
        throw new InputError(
          `the model was trained on word vectors ${spec.wordVectors.embedder} (${spec.wordVectors.dim} d); this version has ${WORD_VECTOR_EMBEDDER} (${wv.dim} d); retrain it`,
          file,
        );
      }
    }
    if (spec.version !== 'adaptmr-hash-v1') {
      // A cue the rules no longer have would silently read as "never matches": refuse instead.
      const known = new Set(cueIds());
      const missing = spec.cues.filter((c) => !known.has(c));
      if (missing.length > 0)
        throw new InputError(
          `the model uses rules cues this version does not have (${missing.slice(0, 3).join(', ')}${missing.length > 3 ? ', …' : ''}); retrain it`,
          file,
        );
    }
    const labels = parse(META_LABELS, z.array(AdaptTypeSchema).nonempty());
    const trainingIds =
      props[META_TRAINING_IDS] !== undefined ? parse(META_TRAINING_IDS, z.array(z.string())) : undefined;
    const fallback =
      props[META_FALLBACK_THRESHOLD] !== undefined
        ? parse(META_FALLBACK_THRESHOLD, z.number().min(0).max(1))
        : undefined;
    await assertFiniteWeights(file);
    const session = await createSession(file);
    return new HashedOnnxClassifier(session, spec, labels, file, trainingIds, fallback);
  }

  async classifyBatch(texts: readonly string[]): Promise<Classification[]> {
    if (texts.length === 0) return [];
    const input = new ort.Tensor('float32', denseFeatures(texts, this.spec), [texts.length, featureWidth(this.spec)]);
    const out = await this.session.run({ [this.session.inputNames[0] ?? 'features']: input });
    const tensor = out[this.session.outputNames[0] ?? 'probabilities'];
    if (!tensor || !(tensor.data instanceof Float32Array))
      throw new InputError('model gave no float output', this.file);
    const K = this.labels.length;
    return texts.map((_, row) => {
      // The graph's float32 softmax sums to 1 only within ~1e-7; rescaled in float64 so the probabilities sum to 1 as
      // the Classifier contract says. Unusable output (NaN, negative) is left as it is for the routing check to refuse.
      const raw = probsFromArray((tensor.data as Float32Array).subarray(row * K, row * K + K), this.labels);
      const probs = normalise(raw) ?? raw;
      return { type: argmaxType(probs), probs, source: 'model' };
    });
  }

  async classify(query: Query, _ctx?: Ctx): Promise<Classification> {
    const [r] = await this.classifyBatch([query.text]);
    if (!r) throw new Error('onnx classifier returned no result');
    return r;
  }
}
