// CLI commands: classify (arguments, stdin, --json), classifier train → classify --model, classifier eval --json.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ArgumentsCamelCase, CommandModule } from 'yargs';
import { startFakeOpenAiServer } from '../../llm/testing/fake-openai-server.ts';
import { classifyCommand, evalCommand, trainCommand } from './commands.ts';
import { loadOnnxClassifier } from '../../classify/onnx/load.ts';
import type { Classifier } from '../../core/interfaces.ts';
import { loadQuestions, resolveDataDir } from '../../data/index.ts';
import { useTestData } from '../../../test/data-path.ts';

useTestData(); // its runs find LoCoMo / LongMemEval by name on the data search path

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adaptmr-cls-cli-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Runs a command handler in-process and returns what it printed. */
async function capture(run: () => unknown): Promise<string> {
  const lines: string[] = [];
  const spy = vi
    .spyOn(console, 'log')
    .mockImplementation((...a: unknown[]) => void lines.push(a.map(String).join(' ')));
  try {
    await run();
  } finally {
    spy.mockRestore();
  }
  return lines.join('\n');
}

/** Calls a command's handler as yargs would, with a parsed-argument object. */
function call<A>(cmd: CommandModule<object, A>, argv: Record<string, unknown>): unknown {
  if (!cmd.handler) throw new Error('command has no handler');
  return cmd.handler({ _: [], $0: 'adaptmr', ...argv } as unknown as ArgumentsCamelCase<A>);
}

const base = { options: undefined, model: undefined, 'llm-model': undefined, 'base-url': undefined, json: false };

describe('adaptmr classify / classifier', () => {
  it('classify prints one line per question in order', async () => {
    const text = await capture(() =>
      call(classifyCommand, {
        ...base,
        classifier: 'rules',
        questions: ['When did I move?', 'What is my cat called?'],
        _: [],
        $0: '',
      }),
    );
    const lines = text.split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^temporal\t.*\[rules\]\tWhen did I move\?$/);
    expect(lines[1]).toMatch(/^factual\t/);
  });

  it('classify reads stdin and prints a JSON array with --json (real CLI process)', () => {
    const cli = resolve(import.meta.dirname, '../../cli.ts');
    const r = spawnSync(process.execPath, ['--import', 'tsx', cli, 'classify', '--classifier', 'rules', '--json'], {
      input: 'How many books did I read in total?\n\n我现在住在哪里？\n',
      encoding: 'utf8',
    });
    expect(r.stderr).not.toMatch(/error/i);
    const out = JSON.parse(r.stdout) as { question: string; type: string; probs: Record<string, number> }[];
    expect(out.map((o) => [o.question, o.type])).toEqual([
      ['How many books did I read in total?', 'multi-hop'],
      ['我现在住在哪里？', 'update'],
    ]);
    expect(Object.values(out[0]?.probs ?? {}).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 9);
  });

  it('classifier train writes an ONNX model that classify --model loads', async () => {
    const model = join(dir, 'lme.onnx');
    const msg = await capture(() =>
      call(trainCommand, {
        dataset: 'longmemeval-oracle',
        out: model,
        seed: 1,
        epochs: 3,
        'data-dir': undefined,
        _: [],
        $0: '',
      }),
    );
    expect(msg).toMatch(/trained on 500 questions/);
    const json = await capture(() =>
      call(classifyCommand, {
        ...base,
        json: true,
        classifier: 'onnx',
        model,
        questions: ['When did I buy my car?'],
        _: [],
        $0: '',
      }),
    );
    const [r] = JSON.parse(json) as { type: string; source: string; probs: Record<string, number> }[];
    expect(r?.source).toBe('model');
    expect(Object.values(r?.probs ?? {}).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 5);
    expect(Object.entries(r?.probs ?? {}).sort((a, b) => b[1] - a[1])[0]?.[0]).toBe(r?.type);
  });

  it('classifier train --features ngrams+cues+wv --hidden pools datasets into an MLP that classify --model loads', async () => {
    const model = join(dir, 'mlp.onnx');
    const msg = await capture(() =>
      call(trainCommand, {
        dataset: 'zh-plan,longmemeval-oracle',
        out: model,
        seed: 1,
        epochs: 2,
        features: 'ngrams+cues+wv',
        hidden: 4,
        'data-dir': undefined,
      }),
    );
    expect(msg).toMatch(/trained on 625 questions of zh-plan \+ longmemeval-oracle \(ngrams\+cues\+wv, MLP 4\)/);
    const json = await capture(() =>
      call(classifyCommand, {
        ...base,
        json: true,
        classifier: 'onnx',
        model,
        questions: ['我现在住在哪里？', 'When did I buy my car?'],
      }),
    );
    const rs = JSON.parse(json) as { source: string; probs: Record<string, number> }[];
    expect(rs).toHaveLength(2);
    for (const r of rs) expect(Object.values(r.probs).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 5);
    await expect(
      call(trainCommand, { dataset: 'zh-plan', out: model, seed: 1, features: 'words', 'data-dir': undefined }),
    ).rejects.toThrow(/--features.*unknown feature set "words"/);
  });

  it('classifier train --split calibration trains on the calibration split only and names it; eval then leaves it out', async () => {
    const model = join(dir, 'beam-split.onnx');
    const msg = await capture(() =>
      call(trainCommand, {
        dataset: 'beam-100k',
        out: model,
        seed: 42,
        epochs: 2,
        features: 'cues+wv',
        split: 'calibration',
        fraction: 0.3,
        'data-dir': undefined,
      }),
    );
    // 280 BEAM 100K questions have one of the five types (the 120 of the three abilities outside them have none):
    // 30 % of each type's 40 or 80 → 12 + 24 + 24 + 12 + 12 = 84.
    expect(msg).toMatch(
      /trained on 84 questions of the 0\.3 calibration split \(seed 42; a run leaves these questions out\) of beam-100k/,
    );
    const clf: Classifier = await loadOnnxClassifier(model);
    const ids = [...(clf.excludedQuestionIds ?? [])];
    expect(ids).toHaveLength(84);
    const { questions } = await loadQuestions({ name: 'beam-100k', questionIds: ids }, resolveDataDir({}));
    expect(questions.filter((q) => q.gold.reportAs !== undefined)).toEqual([]);
    const json = await capture(() =>
      call(evalCommand, {
        ...base,
        json: true,
        classifier: 'onnx',
        model,
        dataset: 'beam-100k',
        questions: undefined,
        folds: undefined,
        'train-dataset': undefined,
        out: join(dir, 'ce-split.duckdb'),
        'chart-dir': join(dir, 'charts'),
        seed: 42,
        'data-dir': undefined,
      }),
    );
    expect((JSON.parse(json) as { n: number }).n).toBe(280 - 84);
    const all = join(dir, 'beam-all.onnx');
    await capture(() =>
      call(trainCommand, {
        dataset: 'beam-100k',
        out: all,
        seed: 42,
        epochs: 1,
        features: 'cues+wv',
        'data-dir': undefined,
      }),
    );
    expect(((await loadOnnxClassifier(all)) as Classifier).excludedQuestionIds).toBeUndefined();
  });

  it('classifier eval --json prints { accuracy, macroF1, perType, confusion, n } and stores DuckDB + heatmap', async () => {
    const out = join(dir, 'ce.duckdb');
    const json = await capture(() =>
      call(evalCommand, {
        ...base,
        json: true,
        classifier: 'rules',
        dataset: 'longmemeval-oracle',
        questions: undefined,
        folds: undefined,
        'train-dataset': undefined,
        out,
        'chart-dir': join(dir, 'charts'),
        seed: 42,
        'data-dir': undefined,
        _: [],
        $0: '',
      }),
    );
    const r = JSON.parse(json) as {
      accuracy: number;
      macroF1: number;
      perType: Record<string, unknown>;
      confusion: Record<string, Record<string, number>>;
      n: number;
    };
    expect(r.n).toBe(500);
    expect(Object.keys(r.perType)).toEqual(['factual', 'temporal', 'update', 'multi-hop', 'abstention']);
    const total = Object.values(r.confusion).reduce((s, row) => s + Object.values(row).reduce((a, b) => a + b, 0), 0);
    expect(total).toBe(500);
    expect(r.accuracy).toBeGreaterThan(0);
    expect((await stat(out)).size).toBeGreaterThan(0);
    expect((await stat(join(dir, 'charts', 'classifier-rules-longmemeval-oracle-as-is-.png'))).size).toBeGreaterThan(
      1000,
    );
    await expect(
      call(evalCommand, {
        ...base,
        classifier: 'onnx',
        dataset: 'longmemeval-oracle',
        questions: undefined,
        folds: undefined,
        'train-dataset': undefined,
        out,
        'chart-dir': undefined,
        seed: 1,
        'data-dir': undefined,
        _: [],
        $0: '',
      }),
    ).rejects.toThrow(/--folds/);
  });

  it('classify --classifier rules+llm --llm-model … --base-url … reaches the endpoint for undecided questions only', async () => {
    const server = await startFakeOpenAiServer({
      chat: () =>
        JSON.stringify({
          type: 'knowledge_update',
          probabilities: {
            factual_extraction: 0,
            temporal_reasoning: 0,
            knowledge_update: 1,
            multi_hop: 0,
            abstention: 0,
          },
        }),
    });
    const before = process.env.ADAPTMR_CACHE_DIR;
    process.env.ADAPTMR_CACHE_DIR = join(dir, 'cache');
    try {
      const json = await capture(() =>
        call(classifyCommand, {
          ...base,
          json: true,
          classifier: 'rules+llm',
          'llm-model': 'fake',
          'base-url': server.baseURL,
          questions: ['When did I move?', 'Where is my office?'],
        }),
      );
      const out = JSON.parse(json) as { type: string; route: string }[];
      expect(out.map((o) => [o.type, o.route])).toEqual([
        ['temporal', 'rules'],
        ['update', 'llm'],
      ]);
      expect(server.count('/v1/chat/completions')).toBe(1);
    } finally {
      if (before === undefined) delete process.env.ADAPTMR_CACHE_DIR;
      else process.env.ADAPTMR_CACHE_DIR = before;
      await server.close();
    }
  });

  it('an endpoint that refuses the call ends classify with one error line, not a stack (real CLI process)', async () => {
    const server = await startFakeOpenAiServer();
    server.enqueue({ status: 401 });
    try {
      const cli = resolve(import.meta.dirname, '../../cli.ts');
      // Asynchronously: the fake server answers from this process's event loop.
      const r = await new Promise<{ status: number | null; stderr: string }>((done) => {
        const child = spawn(
          process.execPath,
          [
            '--import',
            'tsx',
            cli,
            'classify',
            '--classifier',
            'llm',
            '--llm-model',
            'fake',
            '--base-url',
            server.baseURL,
            'When did I move?',
          ],
          { env: { ...process.env, ADAPTMR_CACHE_DIR: join(dir, 'cache-401') }, stdio: ['ignore', 'ignore', 'pipe'] },
        );
        let stderr = '';
        child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
        child.on('close', (status) => done({ status, stderr }));
      });
      expect(r.status).toBe(2);
      expect(r.stderr.trim().split('\n')).toEqual([
        expect.stringMatching(/^error: classifier call \(classify, fake\) failed after 1 attempt\(s\): 401/),
      ]);
      expect(server.count('/v1/chat/completions')).toBe(1);
    } finally {
      await server.close();
    }
  });

  it('refuses the oracle outside evaluation', async () => {
    await expect(
      call(classifyCommand, { ...base, classifier: 'oracle', questions: ['x'], _: [], $0: '' }),
    ).rejects.toThrow(/gold type/);
  });
});
