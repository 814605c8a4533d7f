/**
 * A small LongMemEval-format file for fast run tests (no real dataset): `n` questions, each with one session holding
 * its answer in English and Chinese, in the upstream layout (xiaowu0162/LongMemEval, `longmemeval_oracle.json`).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Writes `<dir>/<name>.json` and returns the experiment's dataset entry for it (YAML flow syntax). */
export function tinyLongMemEval(dir: string, n: number, name = 'tiny'): string {
  const items = Array.from({ length: n }, (_, i) => ({
    question_id: `q${i + 1}`,
    question_type: 'single-session-user',
    question: `Where did I move in year ${2000 + i}? 我搬到了哪里？`,
    answer: 'Paris',
    question_date: '2023/05/28 (Sun) 19:47',
    haystack_dates: ['2023/05/21 (Sun) 19:50'],
    haystack_session_ids: [`answer_${i + 1}`],
    haystack_sessions: [
      [
        { role: 'user', content: `In ${2000 + i} I moved to Paris. 我搬到了巴黎。`, has_answer: true },
        { role: 'assistant', content: 'Noted. 好的。', has_answer: false },
      ],
    ],
    answer_session_ids: [`answer_${i + 1}`],
  }));
  const path = join(dir, `${name}.json`);
  writeFileSync(path, JSON.stringify(items));
  return `{ path: ${JSON.stringify(path)}, format: longmemeval, name: ${name} }`;
}
