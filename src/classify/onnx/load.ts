/**
 * Opens whatever `--model` points at: a folder in the Hugging Face layout (or an `model.onnx` inside one) → the
 * transformer classifier; an ONNX file written by `adaptmr classifier train` → the hashed n-gram classifier.
 */
import { dirname } from 'node:path';
import { stat } from 'node:fs/promises';
import { InputError, errorMessage } from '../../core/errors.ts';
import type { HashedOnnxClassifier } from './hashed-classifier.ts';
import type { HfOnnxClassifier } from './hf-classifier.ts';
import { HASHED_KINDS, META_KIND } from './model-format.ts';

export type OnnxFormat = 'auto' | 'hashed' | 'hf';

export async function loadOnnxClassifier(
  path: string,
  format: OnnxFormat = 'auto',
  maxLength = 512,
): Promise<HashedOnnxClassifier | HfOnnxClassifier> {
  // Loaded on first use: ONNX Runtime and the tokenizers are native and heavy, and most runs never classify by model.
  const [{ HashedOnnxClassifier, readOnnxMetadata }, { HfOnnxClassifier, isHfLayout }] = await Promise.all([
    import('./hashed-classifier.ts'),
    import('./hf-classifier.ts'),
  ]);
  try {
    await stat(path);
  } catch (err) {
    throw new InputError(`model not found (${errorMessage(err)})`, path);
  }
  if (format === 'hf') return HfOnnxClassifier.load((await stat(path)).isDirectory() ? path : dirname(path), maxLength);
  if (await isHfLayout(path)) {
    if (format === 'hashed')
      throw new InputError('is a Hugging Face model folder, but format "hashed" was asked for', path);
    return HfOnnxClassifier.load(path, maxLength);
  }
  if ((await stat(path)).isDirectory()) {
    throw new InputError(
      'is a folder but not the Hugging Face layout (model.onnx, tokenizer.json, config.json with id2label)',
      path,
    );
  }
  const meta = await readOnnxMetadata(path);
  if (HASHED_KINDS.includes(meta[META_KIND] ?? '') || format === 'hashed') return HashedOnnxClassifier.load(path, meta);
  if (await isHfLayout(dirname(path))) return HfOnnxClassifier.load(dirname(path), maxLength);
  throw new InputError(
    `is neither a model written by \`adaptmr classifier train\` (no ${META_KIND} metadata) nor model.onnx of a Hugging Face folder (tokenizer.json and config.json beside it)`,
    path,
  );
}
