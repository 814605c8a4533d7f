/**
 * Control sequences in stored text never reach the terminal, and characters XML forbids never reach an SVG. A real
 * results file (the report tests' sample run) is given LLM answers and a dataset name holding escape sequences — a
 * window title (OSC 0), a screen clear (CSI 2J), an OSC 8 hyperlink, an 8-bit CSI, a bell, a lone CR — and a
 * C0 control character; then the real CLI runs `explain`, `report`, `compare` and a failing command that echoes its
 * argument. Every output is free of control characters (tab and newline aside) while the visible words remain,
 * and the charts render (a control character in the SVG used to make resvg throw).
 */
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSampleResults } from '../../report/testing/sample-results.ts';
import { REPO_ROOT } from '../../run/record/provenance.ts';
import { openResultStore } from '../../store/index.ts';
import { terminalSafe } from '../../core/terminal-text.ts';
import { useTestData } from '../../../test/data-path.ts';

useTestData(); // its runs find LoCoMo / LongMemEval by name on the data search path

const dir = mkdtempSync(join(tmpdir(), 'adaptmr-hostile-text-'));
const sample = join(dir, 'sample.duckdb');
const hostile = join(dir, 'hostile.duckdb');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ESC = '\u001b';
const ANSWER = `Paris${ESC}]0;owned-title\u0007${ESC}[2J${ESC}]8;;https://evil.example${ESC}\\click here${ESC}]8;;${ESC}\\\u009b31m巴黎\rfake`;
const DATASET = `loc\u0001omo${ESC}[2J`;
/** Any control character a terminal acts on (tab and newline are layout). */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/u;

function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(REPO_ROOT, 'bin', 'adaptmr.js'), ...args], {
      cwd: dir,
      env: { ...process.env, NO_COLOR: '1' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

let questionId = '';
beforeAll(async () => {
  await makeSampleResults(sample, dir);
  copyFileSync(sample, hostile);
  const store = await openResultStore(hostile);
  await store.query('UPDATE answers SET answer = $1', [ANSWER]);
  const tables = await store.query<{ table_name: string }>(
    "SELECT DISTINCT c.table_name FROM information_schema.columns c JOIN information_schema.tables t USING (table_name) WHERE c.column_name = 'dataset' AND t.table_type = 'BASE TABLE' AND t.table_schema = 'main'",
  );
  for (const t of tables)
    await store.query(`UPDATE ${t.table_name} SET dataset = $1 WHERE dataset = 'locomo'`, [DATASET]);
  const [q] = await store.query<{ question_id: string }>(
    'SELECT question_id FROM answers WHERE answer IS NOT NULL LIMIT 1',
  );
  questionId = q!.question_id;
  await store.close();
}, 180_000);

describe('text from a results file on the terminal', () => {
  it('terminalSafe removes sequences and controls, keeps the words', () => {
    expect(terminalSafe(ANSWER)).toBe('Parisclick here巴黎fake');
    expect(terminalSafe('a\tb\nc')).toBe('a\tb\nc');
  });

  it('explain, report, compare and an error line print no control sequence', async () => {
    const explain = await cli(['explain', '--results', hostile, '--question', questionId]);
    expect(explain.code, explain.stderr).toBe(0);
    expect(explain.stdout).toContain('Parisclick here巴黎fake');
    const report = await cli(['report', hostile, '--out', join(dir, 'report')]);
    expect(report.code, report.stderr).toBe(0);
    expect(report.stdout).toContain('locomo');
    const compare = await cli(['compare', hostile, '--a', 'adaptmr-single', '--b', 'bm25', '--k', '5']);
    expect(compare.code, compare.stderr).toBe(0);
    const error = await cli(['explain', '--results', hostile, '--question', `nope${ESC}]0;title\u0007${ESC}[2J`]);
    expect(error.code).toBe(2);
    expect(error.stderr).toMatch(/nope/u);
    for (const [name, o] of Object.entries({ explain, report, compare, error })) {
      expect(CONTROL.test(o.stdout), `${name} stdout: ${JSON.stringify(o.stdout.slice(0, 400))}`).toBe(false);
      expect(CONTROL.test(o.stderr), `${name} stderr: ${JSON.stringify(o.stderr.slice(0, 400))}`).toBe(false);
    }
  }, 180_000);

  it('charts of a dataset named with a control character render, and their SVG is well-formed XML text', () => {
    const charts = join(dir, 'report', 'charts');
    const svgs = readdirSync(charts).filter((f) => f.endsWith('.svg'));
    expect(svgs.length).toBeGreaterThan(0);
    for (const f of svgs) {
      const svg = readFileSync(join(charts, f), 'utf8');
      expect(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/u.test(svg), f).toBe(false);
      expect(svg).toContain('locomo');
    }
    expect(readdirSync(charts).filter((f) => f.endsWith('.png')).length).toBe(svgs.length);
  });
});
