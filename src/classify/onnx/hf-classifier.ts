/**
 * Inference for a transformer sequence classifier fine-tuned elsewhere and exported in the usual Hugging Face
 * layout: a folder with `model.onnx` (inputs `input_ids`, `attention_mask`, optionally `token_type_ids`, all
 * int64 [N, L]; first output the logits [N, labels]), `tokenizer.json` (read by @huggingface/tokenizers), an
 * optional `tokenizer_config.json`, and `config.json` whose `id2label` names each logit. Labels may be AdaptMR
 * type names or LongMemEval native types (docs/design.md §2); several labels mapping to one type have their
 * probabilities summed.
 */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import { Tokenizer } from '@huggingface/tokenizers';
import { z } from 'zod';
import { formatZodError } from '../../core/registry.ts';
import { InputError, errorMessage } from '../../core/errors.ts';
import type { Classifier, Ctx } from '../../core/interfaces.ts';
import type { AdaptType, Query } from '../../core/types.ts';
import { labelToType } from '../labels.ts';
import { argmaxType, probsFromArray, type Classification } from '../result.ts';
import { softmax } from './model-format.ts';
import { createSession } from './hashed-classifier.ts';

const HfConfigSchema = z.looseObject({
  id2label: z.record(z.string().regex(/^\d+$/, 'id2label keys must be integers'), z.string()),
});

async function readJson(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new InputError(`cannot read: ${errorMessage(err)}`, file);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new InputError(`not valid JSON: ${errorMessage(err)}`, file);
  }
}

/** True when `dir` is a folder holding the three files of the layout. */
export async function isHfLayout(dir: string): Promise<boolean> {
  try {
    if (!(await stat(dir)).isDirectory()) return false;
    await Promise.all(['model.onnx', 'tokenizer.json', 'config.json'].map((f) => stat(join(dir, f))));
    return true;
  } catch {
    // A missing file simply means "not this layout"; the caller reports what it expected.
    return false;
  }
}

export class HfOnnxClassifier implements Classifier {
  readonly name = 'onnx';
  private constructor(
    private readonly session: ort.InferenceSession,
    private readonly tokenizer: Tokenizer,
    /** AdaptMR type of each logit, in logit order. */
    readonly labels: readonly AdaptType[],
    readonly maxLength: number,
    readonly dir: string,
  ) {}

  static async load(dir: string, maxLength = 512): Promise<HfOnnxClassifier> {
    const configFile = join(dir, 'config.json');
    const parsed = HfConfigSchema.safeParse(await readJson(configFile));
    if (!parsed.success) throw new InputError(formatZodError(parsed.error), configFile);
    const ids = Object.keys(parsed.data.id2label)
      .map(Number)
      .sort((a, b) => a - b);
    if (ids.some((id, i) => id !== i)) throw new InputError('id2label ids must be 0..n-1', configFile);
    const labels = ids.map((id) => {
      const label = parsed.data.id2label[String(id)] ?? '';
      const type = labelToType(label);
      if (!type) {
        throw new InputError(
          `id2label.${id} = ${JSON.stringify(label)} is neither an AdaptMR type (factual, temporal, update, multi-hop, abstention) nor a LongMemEval type`,
          configFile,
        );
      }
      return type;
    });
    const tokFile = join(dir, 'tokenizer.json');
    const tokJson = await readJson(tokFile);
    let tokConfig: unknown = {};
    try {
      await stat(join(dir, 'tokenizer_config.json'));
      tokConfig = await readJson(join(dir, 'tokenizer_config.json'));
    } catch (err) {
      if (err instanceof InputError) throw err;
      // No tokenizer_config.json: optional in the layout; defaults apply.
    }
    let tokenizer: Tokenizer;
    try {
      tokenizer = new Tokenizer(tokJson as object, tokConfig as object);
    } catch (err) {
      throw new InputError(`@huggingface/tokenizers cannot load it: ${errorMessage(err)}`, tokFile);
    }
    const modelFile = join(dir, 'model.onnx');
    const session = await createSession(modelFile);
    for (const required of ['input_ids', 'attention_mask']) {
      if (!session.inputNames.includes(required)) {
        throw new InputError(`graph inputs are ${session.inputNames.join(', ')}; expected ${required}`, modelFile);
      }
    }
    return new HfOnnxClassifier(session, tokenizer, labels, maxLength, dir);
  }

  async classify(query: Query, _ctx?: Ctx): Promise<Classification> {
    const enc = this.tokenizer.encode(query.text, { return_token_type_ids: true });
    const ids = enc.ids.slice(0, this.maxLength);
    const L = ids.length;
    const int64 = (values: readonly number[]) =>
      new ort.Tensor(
        'int64',
        BigInt64Array.from(values, (v) => BigInt(v)),
        [1, L],
      );
    const feeds: Record<string, ort.Tensor> = {
      input_ids: int64(ids),
      attention_mask: int64(enc.attention_mask.slice(0, L)),
    };
    if (this.session.inputNames.includes('token_type_ids'))
      feeds.token_type_ids = int64((enc.token_type_ids ?? ids.map(() => 0)).slice(0, L));
    const out = await this.session.run(feeds);
    const logits = out[this.session.outputNames[0] ?? 'logits'];
    if (!logits || !(logits.data instanceof Float32Array) || logits.data.length !== this.labels.length) {
      throw new InputError(
        `first output must be float logits [1, ${this.labels.length}]`,
        join(this.dir, 'model.onnx'),
      );
    }
    const probs = probsFromArray(softmax(logits.data), this.labels);
    return { type: argmaxType(probs), probs, source: 'model' };
  }
}
