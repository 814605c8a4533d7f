/**
 * Writes a trained linear model as an ONNX file with `onnx-proto`: input `features` float [N, dim] (the hashed
 * vector of features.ts), graph MatMul(W) → Add(b) → Softmax(axis −1), output `probabilities` float [N, labels].
 * The feature contract and label order travel inside the file as `metadata_props`, so the file alone is enough
 * to use it (README "ONNX classifier").
 */
import { writeFile } from 'node:fs/promises';
import onnxProto from 'onnx-proto';
import { featureWidth, specCues } from '../../../classify/onnx/features.ts';
import { KIND_HASHED_LINEAR, META_FEATURES, META_KIND, META_LABELS, META_TRAINED_ON } from '../../../classify/onnx/model-format.ts';
import type { LinearModel } from './train.ts';

const { onnx } = onnxProto;


/** Human-readable statement of the input contract, stored in the file beside the machine-readable spec. */
export function featureContractText(model: LinearModel): string {
  const s = model.spec;
  const cues = specCues(s).length;
  const wv = s.version === 'adaptmr-hash-v3' ? s.wordVectors : undefined;
  return [
    `input "features": float32 [N, ${featureWidth(s)}] (${s.version})`,
    'text → NFKC → lower case → whitespace runs collapsed to one space, trimmed',
    `word tokens: each Han character alone, else runs of [\\p{L}\\p{N}']; word ${s.wordNgrams[0]}..${s.wordNgrams[1]}-grams as "w:" + tokens joined by " "`,
    `char ${s.charNgrams[0]}..${s.charNgrams[1]}-grams (code points) over " " + text + " ", as "c:" + gram`,
    `index = FNV-1a 32-bit(UTF-8 bytes of the feature string) mod ${s.dim}; value 1 (binary), then entries 0..${s.dim - 1} are L2-normalised`,
    ...(cues > 0 ? [`entries ${s.dim}..${s.dim + cues - 1}: 1 when rules cue i of metadata adaptmr.features.cues ("<type>:<regex source>") matches the raw question, else 0`] : []),
    ...(wv
      ? [`entries ${s.dim + cues}..${s.dim + cues + wv.dim - 1}: ${wv.scale} × the unit-length sentence vector of the raw question by the offline embedder ${wv.embedder} (SIF-weighted mean of the wink GloVe word vectors + hashed buckets for Chinese and unknown words; zero when no word is representable)`]
      : []),
    `output "probabilities": float32 [N, ${model.labels.length}] in label order ${model.labels.join(',')}`,
  ].join('\n');
}

export function linearModelToOnnx(model: LinearModel): Uint8Array {
  const D = featureWidth(model.spec);
  const K = model.labels.length;
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
  const graph = onnx.GraphProto.create({
    name: 'adaptmr_query_type',
    node: [
      onnx.NodeProto.create({ opType: 'MatMul', input: ['features', 'W'], output: ['z0'], name: 'matmul' }),
      onnx.NodeProto.create({ opType: 'Add', input: ['z0', 'b'], output: ['logits'], name: 'add' }),
      onnx.NodeProto.create({
        opType: 'Softmax',
        input: ['logits'],
        output: ['probabilities'],
        name: 'softmax',
        attribute: [onnx.AttributeProto.create({ name: 'axis', type: onnx.AttributeProto.AttributeType.INT, i: -1 })],
      }),
    ],
    initializer: [floatTensor('W', [D, K], model.weights), floatTensor('b', [K], model.bias)],
    input: [valueInfo('features', ['N', D])],
    output: [valueInfo('probabilities', ['N', K])],
  });
  const meta = (key: string, value: string) => onnx.StringStringEntryProto.create({ key, value });
  const proto = onnx.ModelProto.create({
    irVersion: 7,
    producerName: 'adaptmr-bench',
    producerVersion: '0.1.0',
    docString: featureContractText(model),
    opsetImport: [{ domain: '', version: 13 }],
    graph,
    metadataProps: [
      meta(META_KIND, KIND_HASHED_LINEAR),
      meta(META_FEATURES, JSON.stringify(model.spec)),
      meta(META_LABELS, JSON.stringify(model.labels)),
      meta(META_TRAINED_ON, JSON.stringify(model.trainedOn)),
      meta('adaptmr.feature_contract', featureContractText(model)),
    ],
  });
  return onnx.ModelProto.encode(proto).finish();
}

export async function writeLinearModel(model: LinearModel, file: string): Promise<void> {
  await writeFile(file, linearModelToOnnx(model));
}
