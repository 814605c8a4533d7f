// `adaptmr score-answers`: JSON lines in input order with every metric, repeated ids scored on their own, bad lines
// named by line number, and --judge against the loopback OpenAI-compatible server (requests checked).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ArgumentsCamelCase } from 'yargs';
import {
  type ChatRequestBody,
  type FakeOpenAiServer,
  startFakeOpenAiServer,
} from '../../llm/testing/fake-openai-server.ts';
import { createLlmProvider } from '../../llm/provider.ts';
import { bleu1, locomoAnswerScore, mem0TokenF1 } from '../../eval/qa/answer-metrics.ts';
import { scoreAnswersCommand, type ScoreAnswersArgs } from './commands.ts';
import { parsePredictions } from './predictions.ts';
import { scoreLines } from './score.ts';
import { useTestData } from '../../../test/data-path.ts';

useTestData(); // its runs find LoCoMo / LongMemEval by name on the data search path

let dir: string;
let server: FakeOpenAiServer;
const savedCache = process.env.ADAPTMR_CACHE_DIR;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adaptmr-score-answers-'));
  process.env.ADAPTMR_CACHE_DIR = join(dir, 'cache');
  // LongMemEval judge: plain yes/no; LoCoMo (Mem0) judge: {"label": …}. Correct iff the hypothesis holds "2023"/"year".
  server = await startFakeOpenAiServer({
    chat: (body: ChatRequestBody) => {
      const prompt = body.messages[0]?.content ?? '';
      const good = /Generated answer: .*2023/u.test(prompt) || /Model Response: over a year/u.test(prompt);
      if (prompt.includes('CORRECT')) return JSON.stringify({ label: good ? 'CORRECT' : 'WRONG' });
      return good ? 'yes' : 'no';
    },
  });
});
afterAll(async () => {
  await server.close();
  if (savedCache === undefined) delete process.env.ADAPTMR_CACHE_DIR;
  else process.env.ADAPTMR_CACHE_DIR = savedCache;
  await rm(dir, { recursive: true, force: true });
});

async function run(lines: string[], args: Partial<ScoreAnswersArgs>): Promise<Record<string, unknown>[]> {
  const file = join(dir, `p${Math.random().toString(36).slice(2)}.jsonl`);
  await writeFile(file, lines.join('\n'));
  const out: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void out.push(a.map(String).join(' ')));
  const err = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  try {
    const argv = {
      _: [],
      $0: 'adaptmr',
      file,
      json: true,
      judge: false,
      'judge-model': undefined,
      'base-url': undefined,
      'judge-adversarial': false,
      concurrency: 2,
      'data-dir': undefined,
      dataset: 'locomo',
      ...args,
    };
    await scoreAnswersCommand.handler?.(argv as unknown as ArgumentsCamelCase<ScoreAnswersArgs>);
  } finally {
    log.mockRestore();
    err.mockRestore();
  }
  return out.map((l) => JSON.parse(l) as Record<string, unknown>);
}

const j = (o: object) => JSON.stringify(o);

describe('adaptmr score-answers', () => {
  it('LoCoMo: one object per line in input order, repeated ids scored separately, every metric', async () => {
    // conv-26:q0 gold "7 May 2023" (category 2); conv-26:q152 is category 5 (adversarial, no gold answer)
    const preds = ['7 May 2023', 'May 8, 2023', 'no idea'];
    const rows = await run(
      [
        j({ question_id: 'conv-26:q0', prediction: preds[0] }),
        '',
        j({ question_id: 'conv-26:q152', prediction: 'Not mentioned.' }),
        j({ question_id: 'conv-26:q0', prediction: preds[1] }),
        j({ question_id: 'conv-26:q0', prediction: preds[2], extra: 1 }),
      ],
      {},
    );
    expect(rows.map((r) => [r.line, r.question_id, r.category, r.adapt_type])).toEqual([
      [1, 'conv-26:q0', 2, 'temporal'],
      [3, 'conv-26:q152', 5, 'abstention'],
      [4, 'conv-26:q0', 2, 'temporal'],
      [5, 'conv-26:q0', 2, 'temporal'],
    ]);
    const q0 = [rows[0], rows[2], rows[3]];
    q0.forEach((r, i) => {
      const p = preds[i] ?? '';
      expect(r).toMatchObject({
        locomo_f1: locomoAnswerScore(p, '7 May 2023', 2),
        mem0_f1: mem0TokenF1(p, '7 May 2023'),
        bleu1: bleu1(p, '7 May 2023'),
      });
    });
    // hand-computed: "May 8, 2023" vs "7 May 2023" — mem0 {may, 8, 2023} vs {7, may, 2023}: 2/3; BLEU-1 [may, 8, ",", 2023] → 2/4
    expect(rows[2]?.mem0_f1).toBeCloseTo(2 / 3, 12);
    expect(rows[2]?.bleu1).toBeCloseTo(0.5, 12);
    expect(rows[1]).toMatchObject({ locomo_f1: 1, mem0_f1: 0, bleu1: 0 });
    expect(rows[0]).not.toHaveProperty('judge_correct');
  });

  it('LongMemEval: question_type and adapt_type, no locomo_f1; "hypothesis" accepted as the prediction key', async () => {
    const rows = await run(
      [
        j({ question_id: '001be529', hypothesis: 'Over a year.' }),
        j({ question_id: '0862e8bf_abs', prediction: 'Your hamster is Luna.' }),
      ],
      { dataset: 'longmemeval-oracle' },
    );
    expect(rows[0]).toMatchObject({
      question_id: '001be529',
      question_type: 'single-session-user',
      adapt_type: 'factual',
      mem0_f1: 1,
    });
    expect(rows[0]).not.toHaveProperty('locomo_f1');
    expect(rows[1]).toMatchObject({ adapt_type: 'abstention' });
  });

  it('bad lines fail with the file and line number', async () => {
    await expect(run([j({ question_id: 'conv-26:q0', prediction: 'x' }), '{not json'], {})).rejects.toThrow(
      /\.jsonl:2: not a JSON object/,
    );
    await expect(run([j({ question_id: 'conv-26:q0' })], {})).rejects.toThrow(/\.jsonl:1: .*prediction/);
    await expect(run([j({ question_id: 'conv-26:q0', prediction: 3 })], {})).rejects.toThrow(/\.jsonl:1: prediction/);
    await expect(
      run([j({ question_id: 'conv-26:q0', prediction: 'x' }), j({ question_id: 'q0', prediction: 'x' })], {}),
    ).rejects.toThrow(/\.jsonl:2: question_id "q0" is not in locomo .*conv-26:q0/);
    await expect(run([j({ question_id: 'conv-26:q0', prediction: 'x' })], { judge: true })).rejects.toThrow(
      /--judge-model/,
    );
  });

  it('--judge runs the Mem0 judge on LoCoMo (category 5 skipped) and the official judge on LongMemEval', async () => {
    server.reset();
    const locomo = await run(
      [
        j({ question_id: 'conv-26:q0', prediction: '7 May 2023' }),
        j({ question_id: 'conv-26:q0', prediction: 'June' }),
        j({ question_id: 'conv-26:q152', prediction: 'Not mentioned' }),
      ],
      { judge: true, 'judge-model': 'judge-m', 'base-url': server.baseURL },
    );
    expect(locomo.map((r) => r.judge_correct)).toEqual([true, false, null]);
    const chats = server.requests
      .filter((r) => r.path === '/v1/chat/completions')
      .map((r) => r.body as ChatRequestBody);
    expect(chats).toHaveLength(2);
    expect(
      chats.every(
        (b) =>
          b.model === 'judge-m' &&
          b.temperature === 0 &&
          (b.messages[0]?.content ?? '').includes('When did Caroline go to the LGBTQ support group?'),
      ),
    ).toBe(true);

    const lme = await run(
      [
        j({ question_id: '001be529', prediction: 'over a year' }),
        j({ question_id: '0862e8bf_abs', prediction: 'Luna' }),
      ],
      {
        dataset: 'longmemeval-oracle',
        judge: true,
        'judge-model': 'judge-m',
        'base-url': server.baseURL,
      },
    );
    expect(lme.map((r) => r.judge_correct)).toEqual([true, false]);
    const last = server.requests.at(-1)?.body as ChatRequestBody;
    // the abstention question gets the official abstention prompt
    expect(last.messages[0]?.content).toMatch(/unanswerable/i);
  });

  it('a failing judge call is recorded on its line; the other lines keep their scores', async () => {
    const failing = await startFakeOpenAiServer({ chat: () => ({ status: 503 }) });
    try {
      const llm = createLlmProvider({
        cache: { mode: 'off', dir: join(dir, 'c2') },
        maxRetries: 1,
        retryBaseMs: 1,
        roles: { judge: { baseURL: failing.baseURL, model: 'j' } },
      });
      const lines = parsePredictions(j({ question_id: 'x', prediction: 'a b' }), 'p.jsonl');
      const gold = new Map([
        [
          'x',
          { protocol: 'locomo' as const, question: 'Q?', nativeType: '4', adaptType: 'factual' as const, answer: 'a' },
        ],
      ]);
      const [row] = await scoreLines(lines, gold, { judge: llm.forRole('judge') });
      expect(row?.mem0_f1).toBeCloseTo(2 / 3, 12);
      expect(row?.judge_correct).toBeNull();
      expect(row?.judge_error).toMatch(/503|failed/i);
    } finally {
      await failing.close();
    }
  });
});
