/**
 * Corpus cases: dataset files and folders that cannot be used (duplicate question ids, corrupt gzip, invalid UTF-8,
 * empty, wrong shape) and one that can, with a counted data defect (a gold session missing from the haystack).
 */
import { gzipSync } from 'node:zlib';
import { experimentYaml, lmeItem, locomoSample, pathDataset } from './fixtures.ts';
import { put, runArgs, type BadInputCase, type CaseContext } from './case.ts';

/** `exp.yaml` over the dataset `rel` (written by `write`). */
function dataset(
  rel: string,
  write: (c: CaseContext) => void,
  format: 'longmemeval' | 'locomo' | 'beam' | 'memdaily' = 'longmemeval',
  extra = '',
) {
  return (c: CaseContext): void => {
    write(c);
    put(c, 'exp.yaml', experimentYaml({ datasets: pathDataset(`${c.dir}/${rel}`, format, extra) }));
  };
}

const json = (v: unknown): string => JSON.stringify(v);
/** `text` with the bytes of `marker` replaced by a byte sequence that is not UTF-8 (a lone 0xFF, then "(" after 0xC3). */
function notUtf8(text: string, marker: string): Buffer {
  const buf = Buffer.from(text);
  const at = buf.indexOf(marker);
  if (at < 0) throw new Error(`marker ${marker} not in text`);
  buf[at] = 0xff;
  buf[at + 1] = 0xc3;
  buf[at + 2] = 0x28;
  return buf;
}

export const datasetCases: BadInputCase[] = [
  {
    name: 'duplicate question id across two files of a folder',
    area: 'dataset',
    setup: dataset('lme', (c) => {
      put(c, 'lme/a.json', json(lmeItem('q1')));
      put(c, 'lme/b.json', json(lmeItem('q1')));
    }),
    args: runArgs(),
    exit: 2,
    first: /^error: question id "q1" appears twice: in .*lme\/a\.json and in .*lme\/b\.json/u,
  },
  {
    name: 'duplicate question id in one LongMemEval array file',
    area: 'dataset',
    setup: dataset('lme.json', (c) => put(c, 'lme.json', json([lmeItem('q1'), lmeItem('q2'), lmeItem('q1')]))),
    args: runArgs(),
    exit: 2,
    first: /^error: question id "q1" appears twice: in .*lme\.json element 0 and in .*lme\.json element 2/u,
  },
  {
    name: 'duplicate conversation in a LoCoMo file',
    area: 'dataset',
    setup: dataset(
      'locomo.json',
      (c) => put(c, 'locomo.json', json([locomoSample('conv-1'), locomoSample('conv-1')])),
      'locomo',
    ),
    args: runArgs(),
    exit: 2,
    first:
      /^error: question id "conv-1[^"]*" appears twice: in .*locomo\.json element 0 and in .*locomo\.json element 1/u,
  },
  {
    name: 'duplicate question id in gzipped folder files',
    area: 'dataset',
    setup: dataset('lme', (c) => {
      put(c, 'lme/a.json.gz', gzipSync(json(lmeItem('q7'))));
      put(c, 'lme/b.json.gz', gzipSync(json(lmeItem('q7'))));
    }),
    args: runArgs(),
    exit: 2,
    first: /^error: question id "q7" appears twice/u,
  },
  {
    name: 'a .json.gz in a folder that is not gzip',
    area: 'dataset',
    setup: dataset('lme', (c) => {
      put(c, 'lme/a.json.gz', gzipSync(json(lmeItem('q1'))));
      put(c, 'lme/b.json.gz', 'plain text, not gzip');
    }),
    args: runArgs(),
    exit: 2,
    first: /^error: .*lme\/b\.json\.gz: not a valid gzip file/u,
  },
  {
    name: 'a truncated .json.gz whose head still reads',
    area: 'dataset',
    setup: dataset('lme', (c) => {
      put(c, 'lme/a.json.gz', gzipSync(json(lmeItem('q1'))));
      const big = lmeItem('q2');
      (big.haystack_sessions as unknown[][])[1]!.push(
        ...Array.from({ length: 400 }, (_, i) => ({ role: 'user', content: `filler turn ${i} ${'x'.repeat(i % 50)}` })),
      );
      const gz = gzipSync(json(big));
      put(c, 'lme/b.json.gz', gz.subarray(0, Math.floor(gz.length * 0.8)));
    }),
    args: runArgs(),
    exit: 2,
    first: /^error: .*lme\/b\.json\.gz: not a valid gzip file \(unexpected end of file\)/u,
  },
  {
    name: 'invalid UTF-8 inside an array file',
    area: 'dataset',
    setup: dataset('lme.json', (c) =>
      put(c, 'lme.json', notUtf8(json([lmeItem('q1'), lmeItem('q2', { question: 'Where is XXXX my car?' })]), 'XXXX')),
    ),
    args: runArgs(),
    exit: 2,
    first: /^error: .*lme\.json: not valid UTF-8 \(byte \d+\)$/u,
  },
  {
    name: 'invalid UTF-8 inside a question id (folder file head)',
    area: 'dataset',
    setup: dataset('lme', (c) => {
      put(c, 'lme/a.json', json(lmeItem('q1')));
      put(c, 'lme/b.json', notUtf8(json(lmeItem('qXXXX')), 'XXXX'));
    }),
    args: runArgs(),
    exit: 2,
    first: /^error: .*lme\/b\.json: not valid UTF-8 \(byte 17\)$/u,
  },
  {
    name: 'invalid UTF-8 in a LoCoMo file',
    area: 'dataset',
    setup: dataset(
      'locomo.json',
      (c) => put(c, 'locomo.json', notUtf8(json([locomoSample('conv-XXXX')]), 'XXXX')),
      'locomo',
    ),
    args: runArgs(),
    exit: 2,
    first: /^error: .*locomo\.json: not valid UTF-8/u,
  },
  {
    name: 'empty dataset file ([])',
    area: 'dataset',
    setup: dataset('lme.json', (c) => put(c, 'lme.json', '[]')),
    args: runArgs(),
    exit: 2,
    first: /^error: .*lme\.json: the dataset holds no questions$/u,
  },
  {
    name: 'filters leave no questions (limit on an id list that is empty)',
    area: 'dataset',
    setup: dataset('lme.json', (c) => put(c, 'lme.json', json([lmeItem('q1')])), 'longmemeval', 'questionIds: []'),
    args: runArgs(),
    exit: 2,
    first: /^error: .*lme\.json \(dataset "lme"\): no questions left after questionIds/u,
  },
  {
    name: 'folder with no data files',
    area: 'dataset',
    setup: dataset('lme', (c) => put(c, 'lme/readme.txt', 'nothing here')),
    args: runArgs(),
    exit: 2,
    first: /^error: .*lme: folder holds no \.json or \.json\.gz files/u,
  },
  {
    name: 'array file whose top level is an object',
    area: 'dataset',
    setup: dataset('lme.json', (c) => put(c, 'lme.json', json(lmeItem('q1')))),
    args: runArgs(),
    exit: 2,
    first: /^error: .*lme\.json: expected a JSON array at the top level/u,
  },
  {
    name: 'array file that is not JSON',
    area: 'dataset',
    setup: dataset('lme.json', (c) => put(c, 'lme.json', '[{"question_id": "q1",, }]')),
    args: runArgs(),
    exit: 2,
    first: /^error: .*lme\.json: not valid JSON/u,
  },
  {
    name: 'item without question_id',
    area: 'dataset',
    setup: dataset('lme.json', (c) => {
      const { question_id: _drop, ...rest } = lmeItem('q1');
      put(c, 'lme.json', json([rest]));
    }),
    args: runArgs(),
    exit: 2,
    first: /^error: .*lme\.json.*question_id/u,
  },
  {
    name: 'unknown question_type',
    area: 'dataset',
    setup: dataset('lme.json', (c) => put(c, 'lme.json', json([lmeItem('q1', { type: 'single-sesion-user' })]))),
    args: runArgs(),
    exit: 2,
    first: /^error: .*unknown question_type "single-sesion-user"/u,
  },
  {
    name: 'bad question_date',
    area: 'dataset',
    setup: dataset('lme.json', (c) => put(c, 'lme.json', json([lmeItem('q1', { date: 'yesterday' })]))),
    args: runArgs(),
    exit: 2,
    first: /^error: .*question_date.*bad date "yesterday"/u,
  },
  {
    name: 'LongMemEval file given as format locomo',
    area: 'dataset',
    setup: dataset('lme.json', (c) => put(c, 'lme.json', json([lmeItem('q1')])), 'locomo'),
    args: runArgs(),
    exit: 2,
    first: /^error: .*lme\.json/u,
  },
  {
    name: 'dataset path that does not exist',
    area: 'dataset',
    setup: (c) => put(c, 'exp.yaml', experimentYaml({ datasets: pathDataset(`${c.dir}/nowhere.json`) })),
    args: runArgs(),
    exit: 2,
    first: /^error: datasets\[\]\.path: dataset path does not exist: .*nowhere\.json/u,
  },
  {
    name: 'questionIds naming a question not in the file',
    area: 'dataset',
    setup: dataset('lme.json', (c) => put(c, 'lme.json', json([lmeItem('q1')])), 'longmemeval', 'questionIds: [q9]'),
    args: runArgs(),
    exit: 2,
    first: /^error: .*question ids not in the dataset: q9/u,
  },
  {
    name: 'named dataset missing from the data directory',
    area: 'dataset',
    setup: (c) => put(c, 'exp.yaml', experimentYaml({ datasets: '  - { name: longmemeval-m }' })),
    args: (c) => ['run', 'exp.yaml', '--out', 'r.duckdb', '--no-progress', '--data-dir', c.dir],
    exit: 2,
    first: /^error: dataset "longmemeval-m" not found; tried /u,
  },
  {
    name: 'BEAM chat folder whose chat.json has a message of an unknown role',
    area: 'dataset',
    setup: dataset(
      'beam/100K',
      (c) => {
        put(
          c,
          'beam/100K/1/chat.json',
          json([{ batch_number: 1, turns: [[{ role: 'robot', id: 0, content: 'hi', time_anchor: 'March-15-2024' }]] }]),
        );
        put(
          c,
          'beam/100K/1/probing_questions/probing_questions.json',
          json({ information_extraction: [{ question: 'Q?', rubric: ['state: x'], source_chat_ids: [0] }] }),
        );
      },
      'beam',
    ),
    args: runArgs(),
    exit: 2,
    first: /^error: .*beam\/100K\/1\/chat\.json: field `0\.turns\.0\.0\.role`/u,
  },
  {
    name: 'MemDaily message with a time that is not "YYYY年MM月DD日 周X HH:MM"',
    area: 'dataset',
    setup: dataset(
      'md',
      (c) =>
        put(
          c,
          'md/01_simple_roles.json',
          json([
            {
              tid: 0,
              message_list: [{ mid: 0, message: '我的上司叫赵雅琳。', time: '2024-04-02 07:24', place: '上海' }],
              question_list: [
                {
                  question: '我的上司叫什么？',
                  answer: '赵雅琳',
                  target_step_id: [0],
                  choices: { A: '赵雅琳', B: 'b', C: 'c', D: 'd' },
                  ground_truth: 'A',
                  time: '2024年04月05日 周五 07:04',
                },
              ],
            },
          ]),
        ),
      'memdaily',
    ),
    args: runArgs(),
    exit: 2,
    first: /^error: .*01_simple_roles\.json \(tid 0\): field `message_list\.0\.time`: bad time "2024-04-02 07:24"/u,
  },
  {
    name: 'MemDaily folder holding a file not named <NN>_<type>_<entity>.json',
    area: 'dataset',
    setup: dataset('md', (c) => put(c, 'md/questions.json', '[]'), 'memdaily'),
    args: runArgs(),
    exit: 2,
    first: /^error: .*md\/questions\.json: is not a MemDaily file name/u,
  },
  {
    name: 'gold session not in the haystack: counted, reported data defect (run completes)',
    area: 'dataset',
    setup: dataset('lme.json', (c) => put(c, 'lme.json', json([lmeItem('q1', { gold: ['s9'] }), lmeItem('q2')]))),
    args: runArgs(),
    exit: 0,
    first: /^data: 1 defects repaired or reported/u,
  },
];
