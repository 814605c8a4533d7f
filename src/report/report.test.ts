// Report tests on a real results file built in a temp dir through the store API: per-type table (hand-computed
// means), the pure chart spec, and the rendered files (SVG marks and names, PNG signature, drawn bars and text).
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Resvg } from '@resvg/resvg-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeBatch } from '../store/testing/fake-batch.ts';
import { openResultStore, type ScoreRow } from '../store/index.ts';
import { assignColors } from './palette.ts';
import { perTypeTable } from './per-type-table.ts';
import { recallByTypeSpec } from './recall-by-type-spec.ts';
import { CHART_FONT } from './render-chart.ts';
import { runReport } from './report.ts';
import { loadTypeMeans } from './type-means.ts';

const dir = mkdtempSync(join(tmpdir(), 'adaptmr-report-'));
const file = join(dir, 'results.duckdb');

// Two questions per type (factual, temporal); bm25 finds q1 only, dense finds all but q4; abstention uncounted.
const QUESTIONS = [
  ['q1', 'factual', '4'],
  ['q2', 'factual', '3'],
  ['q3', 'temporal', '2'],
  ['q4', 'temporal', '2'],
  ['q5', 'abstention', '5'],
] as const;
const HITS: Record<string, readonly string[]> = { bm25: ['q1'], 'dense-emb': ['q1', 'q2', 'q3', 'q5'] };

function scores(questionId: string, counted: boolean): ScoreRow[] {
  return Object.entries(HITS).flatMap(([method, hits]) =>
    [5, 10].map((k) => ({
      dataset: 'locomo',
      questionId,
      method,
      granularity: 'turn',
      level: 'session' as const,
      metric: 'recall_any',
      k,
      value: hits.includes(questionId) ? 1 : 0,
      counted,
      excludedWhy: counted ? null : 'abs',
    })),
  );
}

beforeAll(async () => {
  const store = await openResultStore(file);
  for (const [questionId, adaptType, nativeType] of QUESTIONS) {
    await store.writeQuestion({
      runId: 'r1',
      retrievals: [],
      scores: scores(questionId, adaptType !== 'abstention'),
      question: {
        dataset: 'locomo',
        questionId,
        text: '?',
        askedAt: '2023-01-01T00:00:00Z',
        nativeType,
        adaptType,
        isAbstention: adaptType === 'abstention',
        evidenceSessionIds: [],
        evidenceTurnIds: [],
        answer: '',
      },
    });
  }
  await store.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('runReport', () => {
  it('prints per-type means with n and writes the chart files', async () => {
    const out = await runReport(file, { outDir: join(dir, 'out'), ks: [5] });
    const lines = out.text.split('\n');
    expect(lines[0]).toBe('recall_any@5 (session level)  — cells: mean (n questions)');
    const row = (method: string): string[] =>
      (lines.find((l) => l.includes(` ${method} `)) ?? '').split('│').map((c) => c.trim());
    expect(row('bm25')).toEqual(['', 'locomo', 'bm25', '50.0% (2)', '0.0% (2)', '—', '—', '—', '25.0% (4)', '']);
    expect(row('dense-emb')).toEqual([
      '',
      'locomo',
      'dense-emb',
      '100.0% (2)',
      '50.0% (2)',
      '—',
      '—',
      '—',
      '75.0% (4)',
      '',
    ]);
    expect(out.chart?.pngPath).toBe(join(dir, 'out', 'charts', 'recall-by-type.png'));
    // A retrieval-only file: no QA tables, no cost table, no accuracy chart.
    expect(out.text).not.toMatch(/QA|LongMemEval|LoCoMo|Latency|cost/u);
    expect(out.qaChart).toBeNull();
    expect(existsSync(join(dir, 'out', 'charts', 'accuracy-by-type.png'))).toBe(false);
  });

  it('renders an SVG with one bar per method × type and both method names', async () => {
    const svg = readFileSync(join(dir, 'out', 'charts', 'recall-by-type.svg'), 'utf8');
    expect(svg.match(/aria-roledescription="bar"/g)).toHaveLength(2 * 3); // 2 methods × (factual, temporal, all)
    expect(svg).toContain('>bm25</text>');
    expect(svg).toContain('>dense-emb</text>');
    const spec: unknown = JSON.parse(readFileSync(join(dir, 'out', 'charts', 'recall-by-type.vl.json'), 'utf8'));
    expect(spec).toMatchObject({ mark: { type: 'bar' }, encoding: { xOffset: { field: 'method' } } });
  });

  it('writes a PNG with drawn bars and drawn text', () => {
    const png = readFileSync(join(dir, 'out', 'charts', 'recall-by-type.png'));
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(statSync(join(dir, 'out', 'charts', 'recall-by-type.png')).size).toBeGreaterThan(1000);
    // Decode by re-rasterising the SVG with the same resvg settings and count pixels by colour.
    const svg = readFileSync(join(dir, 'out', 'charts', 'recall-by-type.svg'), 'utf8');
    const image = new Resvg(svg, {
      background: 'white',
      font: { loadSystemFonts: true, sansSerifFamily: CHART_FONT },
    }).render();
    const px = image.pixels;
    // bm25's bars are drawn in its palette colour (palette.ts), whatever else the chart shows.
    const bm25 = assignColors(['bm25', 'dense-emb']).get('bm25')!;
    const [br, bg, bb] = [1, 3, 5].map((i) => parseInt(bm25.slice(i, i + 2), 16));
    let firstColour = 0;
    let dark = 0;
    for (let i = 0; i < px.length; i += 4) {
      const [r, g, b] = [px[i] ?? 0, px[i + 1] ?? 0, px[i + 2] ?? 0];
      if (r === br && g === bg && b === bb) firstColour++;
      if (r < 80 && g < 80 && b < 80) dark++; // titles and labels are black text; no mark is this dark
    }
    expect(firstColour).toBeGreaterThan(500);
    expect(dark).toBeGreaterThan(300);
  });
});

describe('loadTypeMeans', () => {
  it('selects QA metrics by k = null and labels a method run at two granularities apart', async () => {
    const store = await openResultStore(join(dir, 'qa.duckdb'));
    try {
      for (let i = 0; i < 4; i++) await store.writeQuestion(fakeBatch('r', i, ['m']));
      const session = fakeBatch('r', 0, ['m2']);
      await store.writeQuestion({
        ...session,
        retrievals: [],
        scores: session.scores.map((x) => ({ ...x, granularity: 'session' })),
      });
      await store.writeQuestion({
        ...session,
        retrievals: [],
        scores: session.scores.map((x) => ({ ...x, method: 'm', granularity: 'session' })),
      });
      const all = (await loadTypeMeans(store, { metric: 'f1', level: 'qa', k: null })).filter(
        (r) => r.adaptType === 'all',
      );
      expect(all).toEqual([
        { dataset: 'fake', series: 'm (session)', adaptType: 'all', n: 1, mean: 0.5, upperBound: false },
        { dataset: 'fake', series: 'm (turn)', adaptType: 'all', n: 4, mean: 0.5, upperBound: false },
        { dataset: 'fake', series: 'm2', adaptType: 'all', n: 1, mean: 0.5, upperBound: false },
      ]);
    } finally {
      await store.close();
    }
  });
});

describe('perTypeTable and recallByTypeSpec', () => {
  it('marks an impossible mean invalid in its cell, names it under the table, and prints the other cells', () => {
    const good = { dataset: 'd', series: 'm', adaptType: 'temporal', n: 3, mean: 0.5 };
    const bad = [good, { dataset: 'd', series: 'm', adaptType: 'all', n: 3, mean: 1.2 }];
    const text = perTypeTable(bad, 't');
    expect(text).toContain('50.0% (3)');
    expect(text).toContain('invalid (1.2)');
    expect(text).toMatch(/1 cell\(s\) invalid .*d \/ m \/ all: 1\.2/);
    expect(perTypeTable([good, { ...bad[1]!, mean: Number.NaN }], 't')).toMatch(
      /invalid \(NaN\)[\s\S]*d \/ m \/ all: NaN/,
    );
  });

  it('builds a faceted, method-offset bar spec from rows without touching them', () => {
    const rows = [{ dataset: 'd', series: 'm', adaptType: 'temporal', n: 3, mean: 0.5 }];
    const spec = recallByTypeSpec(rows, { title: 'T' });
    expect(spec).toMatchObject({
      title: 'T',
      data: { values: [{ dataset: 'd', method: 'm', type: 'temporal', mean: 0.5, n: 3 }] },
      encoding: {
        facet: { field: 'dataset' },
        x: { field: 'type' },
        xOffset: { field: 'method' },
        color: { field: 'method' },
      },
    });
  });
});
