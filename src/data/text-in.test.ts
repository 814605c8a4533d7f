// Text that would change on the way in is refused where it enters, naming the file, the item and the offset: a lone
// surrogate (`\ud800`, which UTF-8 output turns into U+FFFD) in a LongMemEval or BEAM file, invalid UTF-8 or a lone
// surrogate in an audit file's answers; an audit file with no answers and judgment keys that are not runs 1…n are
// one line each.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InputError } from '../core/errors.ts';
import { readAuditAnswers } from '../../benchmarks/locomo/audit.ts';
import { loadDataset } from './load.ts';
import { readInstances } from './load.ts';
import { resolveDataset } from './source.ts';
import { tinyLongMemEval } from '../run/testing/tiny-longmemeval.ts';
import { readFileSync } from 'node:fs';

const dir = mkdtempSync(join(tmpdir(), 'adaptmr-text-in-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function refusal(p: Promise<unknown>): Promise<string> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(InputError);
  expect((err as Error).message).not.toContain('\n');
  return (err as Error).message;
}

describe('lone surrogates in datasets', () => {
  it('a LongMemEval file: refused with the file, element path and offset', async () => {
    tinyLongMemEval(dir, 2, 'lme');
    const file = join(dir, 'lme.json');
    // The second question's first turn: "In 2001 I moved to Paris. 我搬…" with a lone \ud800 spliced in at character 3.
    writeFileSync(file, readFileSync(file, 'utf8').replace('In 2001', 'In \\ud8002001'));
    const message = await refusal(loadDataset({ path: file, format: 'longmemeval', name: 'lme' }, dir));
    expect(message).toMatch(
      /lme\.json: .*\[1\]\.haystack_sessions\[0\]\[0\]\.content: a lone surrogate \\ud800 at character 3/,
    );
  });

  it('a BEAM chat file: refused the same way', async () => {
    const tier = join(dir, 'beam', '100K', '1');
    mkdirSync(join(tier, 'probing_questions'), { recursive: true });
    writeFileSync(
      join(tier, 'chat.json'),
      '[{"batch_number":1,"time_anchor":null,"turns":[[{"role":"user","id":0,"content":"猫\\udc00","time_anchor":"March-15-2024"}]]}]',
    );
    writeFileSync(
      join(tier, 'probing_questions', 'probing_questions.json'),
      JSON.stringify({ abstention: [{ question: 'q?', difficulty: 'easy', rubric: ['x'] }] }),
    );
    const src = resolveDataset({ path: join(dir, 'beam', '100K'), format: 'beam', name: 'b' }, dir);
    const message = await refusal(
      (async () => {
        for await (const _ of readInstances(src)) void _;
      })(),
    );
    expect(message).toMatch(/chat\.json: \[0\]\.turns\[0\]\[0\]\.content: a lone surrogate \\udc00 at character 1/);
  });
});

describe('audit files', () => {
  const record = (judgments: Record<string, boolean>, answer = 'Paris') => ({
    question_id: 'locomo_0_qa0',
    question: 'Where?',
    golden_answer: 'Paris',
    generated_answer: answer,
    llm_judgments: judgments,
    category: '1',
  });
  const write = (name: string, detailed: Record<string, unknown[]>, raw?: (s: string) => string | Buffer) => {
    const path = join(dir, name);
    const text = JSON.stringify({ total_questions: 1, correct: 1, accuracy: 1, detailed_results: detailed });
    writeFileSync(path, raw ? raw(text) : text);
    return path;
  };
  const refused = (path: string): string => {
    let err: unknown;
    try {
      readAuditAnswers(path);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InputError);
    expect((err as Error).message).not.toContain('\n');
    return (err as Error).message;
  };

  it('reads a well-formed file', () => {
    expect(
      readAuditAnswers(write('ok.json', { '1': [record({ judgment_1: true, judgment_2: false })] })).answers[0]!
        .judgments,
    ).toEqual([true, false]);
  });

  it('refuses invalid UTF-8 and a lone surrogate in an answer, naming the offset', () => {
    const bad = write('utf8.json', { '1': [record({ judgment_1: true }, 'Par__is')] }, (s) => {
      const b = Buffer.from(s);
      const i = b.indexOf('__');
      b[i] = 0xff;
      return b;
    });
    expect(refused(bad)).toMatch(/utf8\.json: locomo-audit eval_results: not valid UTF-8 \(byte \d+\)/);
    const lone = write('lone.json', { '1': [record({ judgment_1: true })] }, (s) =>
      s.replace('"Paris","llm', '"Par\\ud800is","llm'),
    );
    expect(refused(lone)).toMatch(
      /detailed_results\[?"?1"?\]?\[0\]\.generated_answer: a lone surrogate \\ud800 at character 3/,
    );
  });

  it('refuses an empty file and judgment keys that are not runs 1…n, in one line', () => {
    expect(refused(write('empty.json', {}))).toMatch(/detailed_results holds no answers/);
    expect(refused(write('zero.json', { '1': [record({ judgment_01: true })] }))).toMatch(
      /llm_judgments keys judgment_01 are not judgment_1/,
    );
    expect(refused(write('gap.json', { '1': [record({ judgment_1: true, judgment_3: false })] }))).toMatch(
      /keys judgment_1, judgment_3 are not judgment_1 … judgment_2/,
    );
  });
});
