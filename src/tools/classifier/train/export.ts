/**
 * Writes a trained model as an ONNX file with `onnx-proto`: input `features` float [N, width] (the vector of
 * features.ts), graph MatMul(W) → Add(b) → Softmax(axis −1) for the linear model, or MatMul(W1) → Add(b1) → Relu →
 * MatMul(W2) → Add(b2) → Softmax for the MLP (mlp.ts); output `probabilities` float [N, labels].
 * The feature contract and label order travel inside the file as `metadata_props`, so the file alone is enough
 * to use it (README "ONNX classifier").
 */
import onnxProto from 'onnx-proto';
import { featureWidth, specCues } from '../../../classify/onnx/features.ts';
import {
  KIND_HASHED_LINEAR,
  KIND_HASHED_MLP,
  META_FEATURES,
  META_KIND,
  META_LABELS,
  META_TRAINED_ON,
  META_TRAINING_IDS,
} from '../../../classify/onnx/model-format.ts';
import type { LinearModel } from './train.ts';
import type { MlpModel } from './mlp.ts';
import type { TrainedModel } from './select.ts';
import { writeFileAtomic } from '../../../core/atomic-write.ts';

const { onnx } = onnxProto;

/** Human-readable statement of the input contract, stored in the file beside the machine-readable spec. */
export function featureContractText(model: TrainedModel): string {
  const s = model.spec;
  const cues = specCues(s).length;
  const wv = s.version === 'adaptmr-hash-v3' ? s.wordVectors : undefined;
  return [
    `input "features": float32 [N, ${featureWidth(s)}] (${s.version})`,
    'text → NFKC → lower case → whitespace runs collapsed to one space, trimmed',
    `word tokens: each Han character alone, else runs of [\\p{L}\\p{N}']; word ${s.wordNgrams[0]}..${s.wordNgrams[1]}-grams as "w:" + tokens joined by " "`,
    `char ${s.charNgrams[0]}..${s.charNgrams[1]}-grams (code points) over " " + text + " ", as "c:" + gram`,
    `index = FNV-1a 32-bit(UTF-8 bytes of the feature string) mod ${s.dim}; value 1 (binary), then entries 0..${s.dim - 1} are L2-normalised`,
    ...(cues > 0
      ? [
          `entries ${s.dim}..${s.dim + cues - 1}: 1 when rules cue i of metadata adaptmr.features.cues ("<type>:<regex source>") matches the raw question, else 0`,
        ]
      : []),
    ...(wv
      ? [
          `entries ${s.dim + cues}..${s.dim + cues + wv.dim - 1}: ${wv.scale} × the unit-length sentence vector of the raw question by the offline embedder ${wv.embedder} (SIF-weighted mean of the wink GloVe word vectors + hashed buckets for Chinese and unknown words; zero when no word is representable)`,
        ]
      : []),
    `output "probabilities": float32 [N, ${model.labels.length}] in label order ${model.labels.join(',')}`,
  ].join('\n');
}

const floatTensor = (name: string, dims: number[], data: Float32Array) =>
  onnx.TensorProto.create({
    name,
    dims,
    dataType: onnx.TensorProto.DataType.FLOAT,
    // Little-endian raw bytes, as the ONNX spec requires for raw_data.
    rawData: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
  });

const valueInfo = (name: string, dims: (number | string)[]) =>
  onnx.ValueInfoProto.create({
    name,
    type: {
      tensorType: {
        elemType: onnx.TensorProto.DataType.FLOAT,
        shape: { dim: dims.map((d) => (typeof d === 'number' ? { dimValue: d } : { dimParam: d })) },
      },
    },
  });

const node = (opType: string, input: string[], output: string, name: string) =>
  onnx.NodeProto.create({ opType, input, output: [output], name });

const softmaxNode = (input: string) =>
  onnx.NodeProto.create({
    opType: 'Softmax',
    input: [input],
    output: ['probabilities'],
    name: 'softmax',
    attribute: [onnx.AttributeProto.create({ name: 'axis', type: onnx.AttributeProto.AttributeType.INT, i: -1 })],
  });

/** Input `features` [N, width] → `nodes` → output `probabilities` [N, labels], with the metadata contract. */
function modelProto(
  model: TrainedModel,
  kind: string,
  nodes: ReturnType<typeof onnx.NodeProto.create>[],
  initializer: ReturnType<typeof onnx.TensorProto.create>[],
  contract: string,
  extra: Readonly<Record<string, string>> = {},
): Uint8Array {
  const graph = onnx.GraphProto.create({
    name: 'adaptmr_query_type',
    node: nodes,
    initializer,
    input: [valueInfo('features', ['N', featureWidth(model.spec)])],
    output: [valueInfo('probabilities', ['N', model.labels.length])],
  });
  const meta = (key: string, value: string) => onnx.StringStringEntryProto.create({ key, value });
  const proto = onnx.ModelProto.create({
    irVersion: 7,
    producerName: 'adaptmr-bench',
    producerVersion: '0.1.0',
    docString: contract,
    opsetImport: [{ domain: '', version: 13 }],
    graph,
    metadataProps: [
      meta(META_KIND, kind),
      meta(META_FEATURES, JSON.stringify(model.spec)),
      meta(META_LABELS, JSON.stringify(model.labels)),
      meta(META_TRAINED_ON, JSON.stringify(model.trainedOn)),
      ...(model.trainingIds ? [meta(META_TRAINING_IDS, JSON.stringify(model.trainingIds))] : []),
      meta('adaptmr.feature_contract', contract),
      ...Object.entries(extra).map(([k, v]) => meta(k, v)),
    ],
  });
  return onnx.ModelProto.encode(proto).finish();
}

export function linearModelToOnnx(model: LinearModel, extra: Readonly<Record<string, string>> = {}): Uint8Array {
  const D = featureWidth(model.spec);
  const K = model.labels.length;
  return modelProto(
    model,
    KIND_HASHED_LINEAR,
    [
      node('MatMul', ['features', 'W'], 'z0', 'matmul'),
      node('Add', ['z0', 'b'], 'logits', 'add'),
      softmaxNode('logits'),
    ],
    [floatTensor('W', [D, K], model.weights), floatTensor('b', [K], model.bias)],
    featureContractText(model),
    extra,
  );
}

/** The MLP (mlp.ts): MatMul(W1) → Add(b1) → Relu → MatMul(W2) → Add(b2) → Softmax. */
export function mlpModelToOnnx(model: MlpModel, extra: Readonly<Record<string, string>> = {}): Uint8Array {
  const D = featureWidth(model.spec);
  const K = model.labels.length;
  const H = model.hidden;
  return modelProto(
    model,
    KIND_HASHED_MLP,
    [
      node('MatMul', ['features', 'W1'], 'a0', 'matmul1'),
      node('Add', ['a0', 'b1'], 'a1', 'add1'),
      node('Relu', ['a1'], 'h', 'relu'),
      node('MatMul', ['h', 'W2'], 'z0', 'matmul2'),
      node('Add', ['z0', 'b2'], 'logits', 'add2'),
      softmaxNode('logits'),
    ],
    [
      floatTensor('W1', [D, H], model.w1),
      floatTensor('b1', [H], model.b1),
      floatTensor('W2', [H, K], model.w2),
      floatTensor('b2', [K], model.b2),
    ],
    `${featureContractText(model)}\ngraph: MatMul(W1 [${D}, ${H}]) → Add(b1) → Relu → MatMul(W2 [${H}, ${K}]) → Add(b2) → Softmax`,
    extra,
  );
}

/** `extra`: further metadata_props (e.g. the training set's hash and the fallback threshold). */
export function modelToOnnx(model: TrainedModel, extra: Readonly<Record<string, string>> = {}): Uint8Array {
  return 'w1' in model ? mlpModelToOnnx(model, extra) : linearModelToOnnx(model, extra);
}

export async function writeLinearModel(model: LinearModel, file: string): Promise<void> {
  writeFileAtomic(file, linearModelToOnnx(model));
}

export async function writeModel(
  model: TrainedModel,
  file: string,
  extra: Readonly<Record<string, string>> = {},
): Promise<void> {
  writeFileAtomic(file, modelToOnnx(model, extra));
}
