// `score-answers --format locomo-audit`: the four full-context runs of the LoCoMo audit reproduce the per-category
// accuracy the audit publishes (upstream figures, not our output), imported answers re-judged against the loopback
// server give kappa against the imported verdicts as counted by hand, and bad files fail with one line.
import { readFileSync, mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditFile, fcBaselineFile, FC_BASELINE_RUNS, PROBE_FILES } from '../../../benchmarks/locomo/audit.ts';
import {
  startFakeOpenAiServer,
  type ChatRequestBody,
  type FakeOpenAiServer,
} from '../../llm/testing/fake-openai-server.ts';
import { openResultStore } from '../../store/index.ts';
import { queryFile } from '../../store/testing/query-file.ts';
import { formatSummary, scoreAuditFiles, type AuditSummary } from './locomo-audit.ts';
import { TEST_DATA_DIR } from '../../../test/data-path.ts';

const dataDir = TEST_DATA_DIR;
const dir = mkdtempSync(join(tmpdir(), 'adaptmr-audit-'));
let server: FakeOpenAiServer;
const savedCache = process.env.ADAPTMR_CACHE_DIR;

beforeAll(async () => {
  process.env.ADAPTMR_CACHE_DIR = join(dir, 'cache');
  server = await startFakeOpenAiServer({ chat: (body: ChatRequestBody) => verdictFor(body) });
});
afterAll(async () => {
  await server.close();
  if (savedCache === undefined) delete process.env.ADAPTMR_CACHE_DIR;
  else process.env.ADAPTMR_CACHE_DIR = savedCache;
  rmSync(dir, { recursive: true, force: true });
});

/**
 * dial481/locomo-audit@9493fb4b4af4256ed17a18e8fd0b3cfdeec29539 fc-baseline/README.md, "Per-Category Accuracy (Per-Run
 * Mean)" and "Overall Accuracy" (per-run mean, std dev, majority vote, runs 1–3), as printed there.
 */
const PUBLISHED: Record<string, { cat: Record<string, string>; overall: string; majority: string; runs: string }> = {
  'gpt-4o-mini-memos': {
    cat: { 4: '86.52 ± 0.15', 1: '70.21 ± 0.29', 2: '51.09 ± 0.25', 3: '56.60 ± 0.49' },
    overall: '74.29 ± 0.05',
    majority: '74.35',
    runs: '74.22 / 74.29 / 74.35',
  },
  'gpt-4o-mini-cot': {
    cat: { 4: '89.10 ± 0.06', 1: '82.62 ± 0.50', 2: '57.32 ± 0.00', 3: '66.67 ± 0.00' },
    overall: '79.89 ± 0.12',
    majority: '79.94',
    runs: '79.81 / 79.81 / 80.06',
  },
  'gpt-4.1-mini-memos': {
    cat: { 4: '89.66 ± 0.10', 1: '78.84 ± 0.44', 2: '70.51 ± 0.15', 3: '61.81 ± 0.49' },
    overall: '81.95 ± 0.09',
    majority: '82.08',
    runs: '81.82 / 82.01 / 82.01',
  },
  'gpt-4.1-mini-cot': {
    cat: { 4: '96.51 ± 0.11', 1: '92.20 ± 0.00', 2: '86.29 ± 0.25', 3: '80.90 ± 0.49' },
    overall: '92.62 ± 0.13',
    majority: '92.66',
    runs: '92.60 / 92.47 / 92.79',
  },
};

// A file of another system in the audit's format: the first 12 answers of the 4o-mini memos run. The fake judge
// says CORRECT on the first 6 of them (by question) and WRONG on the others; the imported majority verdicts are
// counted below from the file itself.
let first12: { question: string; generated_answer: string; llm_judgments: Record<string, boolean> }[] = [];
function verdictFor(body: ChatRequestBody): string {
  const prompt = body.messages.map((m) => m.content).join('\n');
  const answer = /Generated answer: (.*)\n/u.exec(prompt)?.[1] ?? '';
  const i = first12.findIndex((r) => r.generated_answer === answer && prompt.includes(`Question: ${r.question}\n`));
  return JSON.stringify({ label: i >= 0 && i < 6 ? 'CORRECT' : 'WRONG' });
}

const p2 = (x: number) => (x * 100).toFixed(2);
const cell = (r: { mean: number; sd: number }) => `${p2(r.mean)} ± ${p2(r.sd)}`;

describe('score-answers --format locomo-audit', () => {
  it('reproduces the published per-category accuracy of the four full-context runs', async () => {
    const files = await Promise.all(FC_BASELINE_RUNS.map((r) => auditFile(dataDir, fcBaselineFile(r))));
    const summaries = await scoreAuditFiles(files, { dataDir });
    summaries.forEach((s: AuditSummary, i) => {
      const pub = PUBLISHED[FC_BASELINE_RUNS[i]!]!;
      expect(s.pinned).toContain(fcBaselineFile(FC_BASELINE_RUNS[i]!));
      expect(s.overall.n).toBe(1540);
      for (const [category, want] of Object.entries(pub.cat)) expect(cell(s.categories[category]!)).toBe(want);
      expect(cell(s.overall)).toBe(pub.overall);
      expect(p2(s.overall.majority)).toBe(pub.majority);
      expect(s.overall.runs.map(p2).join(' / ')).toBe(pub.runs);
      expect(formatSummary(s)).toContain(`single-hop (4)\t841\t${pub.cat[4]}`);
    });
    // category sizes as published (841 / 282 / 321 / 96)
    expect(Object.fromEntries(Object.entries(summaries[0]!.categories).map(([c, r]) => [c, r.n]))).toEqual({
      1: 282,
      2: 321,
      3: 96,
      4: 841,
    });
  });

  it('reproduces the published leniency-probe acceptance (ap-baseline/README.md: 10.61 ± 0.13 and 62.81 ± 0.24)', async () => {
    const [v1, v2] = await scoreAuditFiles(
      [await auditFile(dataDir, PROBE_FILES.specific), await auditFile(dataDir, PROBE_FILES.vague)],
      { dataDir },
    );
    expect(cell(v1!.overall)).toBe('10.61 ± 0.13');
    expect(cell(v2!.overall)).toBe('62.81 ± 0.24');
  });

  it('imports answers into a results file and re-judges them, with kappa against the imported verdicts', async () => {
    const src = JSON.parse(readFileSync(await auditFile(dataDir, fcBaselineFile('gpt-4o-mini-memos')), 'utf8')) as {
      detailed_results: Record<string, typeof first12>;
    };
    first12 = src.detailed_results.locomo_exp_user_0!.slice(0, 12);
    const file = join(dir, 'other-system', 'eval_results.json');
    mkdirSync(join(dir, 'other-system'), { recursive: true });
    writeFileSync(
      file,
      JSON.stringify({
        total_questions: 12,
        correct: 0,
        accuracy: 0,
        detailed_results: { locomo_exp_user_0: first12 },
      }),
    );
    const out = join(dir, 'import.duckdb');
    const [s] = await scoreAuditFiles([file], { dataDir, out, judge: { model: 'judge-m', baseUrl: server.baseURL } });
    expect(s!.pinned).toBeNull();
    // Hand count: imported majority (≥ 2 of 3) vs ours (first 6 CORRECT).
    const imported = first12.map((r) => Object.values(r.llm_judgments).filter(Boolean).length >= 2);
    const ours = first12.map((_, i) => i < 6);
    const a = imported.filter((x, i) => x && ours[i]).length;
    const d = imported.filter((x, i) => !x && !ours[i]).length;
    const pImp = imported.filter(Boolean).length / 12;
    const po = (a + d) / 12;
    const pe = pImp * 0.5 + (1 - pImp) * 0.5;
    expect(s!.judge).toMatchObject({ id: 'judge', n: 12, accuracy: 0.5 });
    // F1 and BLEU-1 are printed, and equal the means of the per-answer rows the import stored.
    expect(formatSummary(s!).split('\n')[2]).toBe('category\tn\tper-run mean ± sd\truns\tmajority vote\tF1\tBLEU-1');
    const stored = await queryFile<{ metric: string; mean: number }>(
      out,
      `select metric, avg(value) mean from scores where metric in ('f1', 'bleu1') group by metric order by metric`,
    );
    expect(stored.find((r) => r.metric === 'f1')!.mean).toBeCloseTo(s!.overall.f1, 12);
    expect(stored.find((r) => r.metric === 'bleu1')!.mean).toBeCloseTo(s!.overall.bleu1, 12);
    expect(formatSummary(s!)).toContain(`overall\t12\t`);
    expect(formatSummary(s!)).toMatch(
      new RegExp(`\t${(s!.overall.f1 * 100).toFixed(2)}\t${(s!.overall.bleu1 * 100).toFixed(2)}\n`),
    );
    expect(s!.judge!.agreement).toBeCloseTo(po, 12);
    expect(s!.judge!.kappa).toBeCloseTo((po - pe) / (1 - pe), 12);
    const store = await openResultStore(out, { readOnly: true });
    try {
      const rows = await store.query<{ judge: string; n: number }>(
        `select judge, count(*)::INT n from answer_verdicts group by judge order by judge`,
      );
      expect(rows).toEqual([
        { judge: 'audit', n: 12 },
        { judge: 'judge', n: 12 },
      ]);
      const [agree] = await store.query<{ kappa: number }>(
        `select kappa from judge_agreement where judge_a = 'audit' and judge_b = 'judge' and adapt_type = 'all'`,
      );
      expect(agree?.kappa).toBeCloseTo(s!.judge!.kappa!, 12);
      const [tokens] = await store.query<{ n: number }>(`select count(*)::INT n from answers where answer_tokens > 0`);
      expect(tokens?.n).toBe(12);
    } finally {
      await store.close();
    }
    // Importing again adds nothing and asks nothing.
    const calls = server.count('/v1/chat/completions');
    await scoreAuditFiles([file], { dataDir, out, judge: { model: 'judge-m', baseUrl: server.baseURL } });
    expect(server.count('/v1/chat/completions')).toBe(calls);
  });

  it('fails with one line naming the file and the record for bad input', async () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{"total_questions": 1}');
    await expect(scoreAuditFiles([bad], { dataDir })).rejects.toThrow(
      /bad\.json: locomo-audit eval_results: field `correct`/u,
    );
    writeFileSync(
      bad,
      JSON.stringify({
        total_questions: 1,
        correct: 0,
        accuracy: 0,
        detailed_results: {
          x: [
            {
              ...first12[0],
              question_id: 'locomo_0_qa0',
              golden_answer: '7 May 2023',
              category: '2',
              question: 'Who is it?',
            },
          ],
        },
      }),
    );
    await expect(scoreAuditFiles([bad], { dataDir })).rejects.toThrow(
      /bad\.json: locomo_0_qa0 \(conv-26:q0\) asks "Who is it\?", LoCoMo "When did Caroline go/u,
    );
  });
});
