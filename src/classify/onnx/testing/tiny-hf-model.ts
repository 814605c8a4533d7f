/**
 * Builds a tiny Hugging Face-layout sequence classifier for tests: `model.onnx` (Gather embedding → ReduceMean
 * over tokens → MatMul → logits), a WordPiece `tokenizer.json` with a BERT pre-tokenizer and lower-casing, and
 * `config.json` with `id2label`. Each vocabulary word's embedding is a scaled one-hot on one label, so the logits
 * are hand-computable: logits = mean over tokens of the token embeddings (hidden size = number of labels, W = I).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import onnxProto from 'onnx-proto';

const { onnx } = onnxProto;

export interface TinyModelSpec {
  /** Label names in logit order (written to id2label). */
  labels: string[];
  /** word → [label index, weight]; every other word is [UNK] with a zero embedding. */
  words: Record<string, [number, number]>;
  /** Add a `token_type_ids` graph input (BERT-style models have one). */
  tokenTypeIds?: boolean;
}

export const SPECIALS = ['[PAD]', '[UNK]', '[CLS]', '[SEP]'];

export async function writeTinyHfModel(dir: string, spec: TinyModelSpec): Promise<void> {
  await mkdir(dir, { recursive: true });
  const vocab: Record<string, number> = {};
  for (const s of SPECIALS) vocab[s] = Object.keys(vocab).length;
  for (const w of Object.keys(spec.words)) vocab[w] = Object.keys(vocab).length;
  const V = Object.keys(vocab).length;
  const K = spec.labels.length;
  const emb = new Float32Array(V * K);
  for (const [w, [label, weight]] of Object.entries(spec.words)) emb[(vocab[w] as number) * K + label] = weight;
  const eye = new Float32Array(K * K);
  for (let i = 0; i < K; i++) eye[i * K + i] = 1;
  const tensor = (name: string, dims: number[], data: Float32Array) =>
    onnx.TensorProto.create({
      name,
      dims,
      dataType: onnx.TensorProto.DataType.FLOAT,
      rawData: new Uint8Array(data.buffer),
    });
  const io = (name: string, elemType: number, dims: (number | string)[]) =>
    onnx.ValueInfoProto.create({
      name,
      type: {
        tensorType: {
          elemType,
          shape: { dim: dims.map((d) => (typeof d === 'number' ? { dimValue: d } : { dimParam: d })) },
        },
      },
    });
  const INT64 = onnx.TensorProto.DataType.INT64;
  const inputs = [io('input_ids', INT64, ['batch', 'seq']), io('attention_mask', INT64, ['batch', 'seq'])];
  if (spec.tokenTypeIds) inputs.push(io('token_type_ids', INT64, ['batch', 'seq']));
  const graph = onnx.GraphProto.create({
    name: 'tiny_classifier',
    node: [
      onnx.NodeProto.create({ opType: 'Gather', input: ['emb', 'input_ids'], output: ['h'], name: 'embed' }),
      onnx.NodeProto.create({
        opType: 'ReduceMean',
        input: ['h'],
        output: ['pooled'],
        name: 'pool',
        attribute: [
          onnx.AttributeProto.create({ name: 'axes', type: onnx.AttributeProto.AttributeType.INTS, ints: [1] }),
          onnx.AttributeProto.create({ name: 'keepdims', type: onnx.AttributeProto.AttributeType.INT, i: 0 }),
        ],
      }),
      onnx.NodeProto.create({ opType: 'MatMul', input: ['pooled', 'W'], output: ['logits'], name: 'head' }),
    ],
    initializer: [tensor('emb', [V, K], emb), tensor('W', [K, K], eye)],
    input: inputs,
    output: [io('logits', onnx.TensorProto.DataType.FLOAT, ['batch', K])],
  });
  const model = onnx.ModelProto.create({
    irVersion: 7,
    producerName: 'adaptmr-test',
    opsetImport: [{ domain: '', version: 13 }],
    graph,
  });
  await writeFile(join(dir, 'model.onnx'), onnx.ModelProto.encode(model).finish());
  const tokenizer = {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: SPECIALS.map((content, id) => ({
      id,
      content,
      single_word: false,
      lstrip: false,
      rstrip: false,
      normalized: false,
      special: true,
    })),
    normalizer: { type: 'Lowercase' },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [
        { SpecialToken: { id: '[CLS]', type_id: 0 } },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: { id: '[SEP]', type_id: 0 } },
      ],
      pair: [],
      special_tokens: {
        '[CLS]': { id: '[CLS]', ids: [2], tokens: ['[CLS]'] },
        '[SEP]': { id: '[SEP]', ids: [3], tokens: ['[SEP]'] },
      },
    },
    decoder: null,
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab,
    },
  };
  await writeFile(join(dir, 'tokenizer.json'), JSON.stringify(tokenizer));
  await writeFile(
    join(dir, 'config.json'),
    JSON.stringify({
      architectures: ['TinyForSequenceClassification'],
      id2label: Object.fromEntries(spec.labels.map((l, i) => [String(i), l])),
    }),
  );
}
