/**
 * Corpus cases: classifier model files (missing, empty, not ONNX, a Hugging Face folder missing its tokenizer, an
 * id2label that does not match the model's outputs) and misbehaving API servers at the embedder's start-up check
 * (401 echoing the key, 500, an HTML 502 page, non-JSON, 429 forever, the wrong shape, nothing listening).
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeTinyHfModel } from '../../src/classify/onnx/testing/tiny-hf-model.ts';
import { deadUrl, experimentYaml, lmeItem, pathDataset } from './fixtures.ts';
import { put, runArgs, type BadInputCase, type CaseContext } from './case.ts';

const classify =
  (model: string): (() => string[]) =>
  () => ['classify', '--classifier', 'onnx', '--model', model, 'When did I buy my car?'];

/** A tiny, valid HF-layout classifier over the five AdaptMR types (src/classify/onnx/testing/tiny-hf-model.ts). */
async function tinyModel(c: CaseContext): Promise<string> {
  const dir = join(c.dir, 'hf');
  await writeTinyHfModel(dir, {
    labels: ['factual', 'temporal', 'update', 'multi-hop', 'abstention'],
    words: { when: [1, 2] },
  });
  return dir;
}

export const modelCases: BadInputCase[] = [
  {
    name: 'model file that does not exist',
    area: 'model',
    args: classify('none.onnx'),
    exit: 2,
    first: /^error: none\.onnx: model not found/u,
  },
  {
    name: 'empty .onnx file',
    area: 'model',
    setup: (c) => put(c, 'empty.onnx', ''),
    args: classify('empty.onnx'),
    exit: 2,
    first: /^error: empty\.onnx: not a valid ONNX model/u,
  },
  {
    name: '.onnx file that is not ONNX',
    area: 'model',
    setup: (c) => put(c, 'junk.onnx', 'this is not a protobuf'),
    args: classify('junk.onnx'),
    exit: 2,
    first: /^error: junk\.onnx: not a valid ONNX model/u,
  },
  {
    name: 'Hugging Face folder missing tokenizer.json (sidecar)',
    area: 'model',
    setup: async (c) => rmSync(join(await tinyModel(c), 'tokenizer.json')),
    args: classify('hf'),
    exit: 2,
    first: /^error: hf: is a folder but not the Hugging Face layout/u,
  },
  {
    name: 'model.onnx whose tokenizer.json sidecar is missing',
    area: 'model',
    setup: async (c) => rmSync(join(await tinyModel(c), 'tokenizer.json')),
    args: classify('hf/model.onnx'),
    exit: 2,
    first: /^error: hf\/model\.onnx: is neither a model written by `adaptmr classifier train`/u,
  },
  {
    name: 'id2label with fewer labels than the model outputs (wrong output shape)',
    area: 'model',
    setup: async (c) => {
      const dir = await tinyModel(c);
      writeFileSync(join(dir, 'config.json'), JSON.stringify({ id2label: { 0: 'factual', 1: 'temporal' } }));
    },
    args: classify('hf'),
    exit: 2,
    first: /^error: .*(output|logits|labels)/iu,
  },
  {
    name: 'config.json with a label that is no type',
    area: 'model',
    setup: async (c) => {
      const dir = await tinyModel(c);
      writeFileSync(
        join(dir, 'config.json'),
        JSON.stringify({ id2label: { 0: 'factual', 1: 'temporal', 2: 'update', 3: 'multi-hop', 4: 'LABEL_4' } }),
      );
    },
    args: classify('hf'),
    exit: 2,
    first: /^error: .*config\.json: id2label\.4 = "LABEL_4" is neither an AdaptMR type/u,
  },
  {
    name: 'unknown classifier gets the known list',
    area: 'model',
    args: () => ['classify', '--classifier', 'onnxx', 'q'],
    exit: 2,
    first: /^error: --classifier: unknown classifier "onnxx"\. Did you mean "onnx"\? Known: llm, onnx/u,
  },
];

/** `exp.yaml` with the openai embedder pointed at `url` (dimension unknown, so the start-up probe runs). */
function embedderAt(url: (c: CaseContext) => string | Promise<string>) {
  return async (c: CaseContext): Promise<void> => {
    const data = put(c, 'data.json', JSON.stringify([lmeItem('q1')]));
    put(
      c,
      'exp.yaml',
      experimentYaml({
        datasets: pathDataset(data),
        methods: '  - { id: e, method: unified-embedding, k: 5 }',
        extra: `embedder: { name: openai, options: { model: probe-me, baseURL: '${await url(c)}', maxRetries: 1, timeoutMs: 5000, cache: false } }`,
      }),
    );
  };
}

const startup = (detail: string): RegExp =>
  new RegExp(
    `^error: embeddings endpoint http://127\\.0\\.0\\.1:\\d+/v1 \\(model probe-me\\) failed the start-up check: ${detail}`,
    'u',
  );

export const apiCases: BadInputCase[] = [
  {
    name: 'embedder start-up check: 401 that echoes the key',
    area: 'api',
    server: 'echo-key-401',
    setup: embedderAt((c) => c.url),
    args: runArgs(),
    exit: 2,
    first: startup('401 invalid key: Bearer \\[redacted\\]$'),
  },
  {
    name: 'embedder start-up check: 500',
    area: 'api',
    server: 'error-500',
    setup: embedderAt((c) => c.url),
    args: runArgs(),
    exit: 2,
    first: startup('500 internal error$'),
  },
  {
    name: 'embedder start-up check: HTML 502 page from a proxy',
    area: 'api',
    server: 'html-502',
    setup: embedderAt((c) => c.url),
    args: runArgs(),
    exit: 2,
    first: startup('502 an HTML page \\("502 Bad Gateway"\\)$'),
  },
  {
    name: 'embedder start-up check: reply that is not JSON',
    area: 'api',
    server: 'not-json',
    setup: embedderAt((c) => c.url),
    args: runArgs(),
    exit: 2,
    first: startup('.*not valid JSON'),
  },
  {
    name: 'embedder start-up check: 429 forever',
    area: 'api',
    server: 'rate-limit-429',
    setup: embedderAt((c) => c.url),
    args: runArgs(),
    exit: 2,
    first: startup('429 Rate limit reached$'),
  },
  {
    name: 'embedder start-up check: reply of the wrong shape',
    area: 'api',
    server: 'wrong-shape',
    setup: embedderAt((c) => c.url),
    args: runArgs(),
    exit: 2,
    first: startup('.*reply is not an embeddings list'),
  },
  {
    name: 'embedder start-up check: empty 200 reply',
    area: 'api',
    server: 'empty-200',
    setup: embedderAt((c) => c.url),
    args: runArgs(),
    exit: 2,
    first: startup('.+'),
  },
  {
    name: 'embedder start-up check: nothing listening',
    area: 'api',
    setup: embedderAt(() => deadUrl()),
    args: runArgs(),
    exit: 2,
    first: startup('.*(Connection error|ECONNREFUSED)'),
  },
];
