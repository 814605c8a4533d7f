/**
 * The shared palette: enough distinguishable colours for 20+ methods, one colour per method id whatever else is shown
 * (the same in every chart, report and notebook), distinct within every committed experiment, gold-type routing marked.
 */
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { REPO_ROOT } from '../run/record/provenance.ts';
import {
  METHOD_COLORS,
  PALETTE,
  assignColors,
  fnv1a,
  colorScale,
  markedLabel,
  methodColor,
  methodIdOf,
  upperBoundEncoding,
  UPPER_BOUND_MARK,
} from './palette.ts';

/** sRGB hex → CIELAB (D65), the standard formulas (IEC 61966-2-1, CIE 15). */
function lab(hex: string): [number, number, number] {
  const c = [1, 3, 5]
    .map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
    .map((v) => (v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
  const [r, g, b] = c as [number, number, number];
  const x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
  const y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  const z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
  const f = (t: number): number => (t > 216 / 24389 ? Math.cbrt(t) : ((24389 / 27) * t + 16) / 116);
  return [116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))];
}

const methods20 = [
  'unified-embedding',
  'bm25-session',
  'bm25-turn',
  'full-context',
  'strategy-factual',
  'strategy-temporal',
  'strategy-update',
  'strategy-multi-hop',
  'strategy-abstention',
  'adaptmr-single',
  'adaptmr-fusion',
  'adaptmr-oracle',
  'ablation-random-strategy',
  'ablation-no-entity-rerank',
  'ablation-no-temporal-strategy',
  'ablation-no-update-strategy',
  'ablation-no-multi-hop-strategy',
  'ablation-no-abstention-strategy',
  'mem0',
  'zep',
];

describe('palette', () => {
  it('has at least 20 colours, all pairwise apart (CIE76 ΔE ≥ 15)', () => {
    expect(PALETTE.length).toBeGreaterThanOrEqual(20);
    let min = Infinity;
    for (let i = 0; i < PALETTE.length; i++) {
      for (let j = i + 1; j < PALETTE.length; j++) {
        const [a, b] = [lab(PALETTE[i]!), lab(PALETTE[j]!)];
        min = Math.min(min, Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]));
      }
    }
    expect(min).toBeGreaterThanOrEqual(15);
  });

  it('gives the methods of every committed experiment file pairwise different colours', () => {
    const dir = join(REPO_ROOT, 'experiments');
    let files = 0;
    for (const f of readdirSync(dir).filter((x) => x.endsWith('.yaml'))) {
      const doc = parseYaml(readFileSync(join(dir, f), 'utf8')) as {
        methods?: { id: string }[];
        base?: { methods?: { id: string }[] };
      };
      const ids = (doc.methods ?? doc.base?.methods ?? []).map((m) => m.id);
      const byColor = new Map<string, string[]>();
      for (const id of ids) byColor.set(methodColor(id), [...(byColor.get(methodColor(id)) ?? []), id]);
      const clashes = [...byColor.values()].filter((v) => v.length > 1);
      expect(clashes, `${f}: add these ids to METHOD_COLORS with distinct colours`).toEqual([]);
      files++;
    }
    expect(files).toBeGreaterThan(10);
  });

  it('gives a method the same colour whatever other methods are shown with it (added or removed)', () => {
    const all = [...methods20, 'my-new-method', 'another-one', 'bm25', 'unified-embedding'];
    const full = colorScale(all);
    const colourIn = (s: { domain: string[]; range: string[] }, name: string): string =>
      s.range[s.domain.indexOf(name)]!;
    // Every subset that drops one method, every single method alone, and the set with methods added.
    for (const dropped of all) {
      const fewer = colorScale(all.filter((m) => m !== dropped));
      for (const m of all)
        if (m !== dropped) expect(colourIn(fewer, m), `${m} without ${dropped}`).toBe(colourIn(full, m));
    }
    for (const m of all) expect(colourIn(colorScale([m]), m)).toBe(colourIn(full, m));
    const more = colorScale([...all, 'zzz-added-1', 'aaa-added-2', 'adaptmr-from-somewhere']);
    for (const m of all) expect(colourIn(more, m)).toBe(colourIn(full, m));
    // The order of the input does not matter either.
    expect(colorScale([...all].reverse())).toEqual(full);
  });

  it('colours a series label by its method id, marks and all', () => {
    expect(methodIdOf('bm25 (turn, run-1) (offline) (gold-type routing)')).toBe('bm25');
    expect(methodColor('bm25 (offline)')).toBe(methodColor('bm25'));
    expect(methodColor(markedLabel('adaptmr-oracle', true))).toBe(METHOD_COLORS['adaptmr-oracle']);
    expect(methodColor('unified-embedding')).toBe('#848482');
  });

  it('gives an id outside the table a colour from its hash alone: a palette colour or a shade of one', () => {
    const c = methodColor('some-method-nobody-committed');
    expect(c).toBe(methodColor('some-method-nobody-committed'));
    expect(c).toMatch(/^#[0-9A-F]{6}$/u);
    const slot = PALETTE[fnv1a('some-method-nobody-committed') % PALETTE.length]!;
    const [r, g, b] = [1, 3, 5].map((i) => parseInt(slot.slice(i, i + 2), 16));
    const shades = [
      slot,
      ...[0.75].map((f) => [r!, g!, b!].map((v) => Math.round(v * f))),
      [r!, g!, b!].map((v) => Math.round(v + (255 - v) * 0.25)),
    ].map((x) =>
      typeof x === 'string'
        ? x
        : `#${x
            .map((v) => v.toString(16).padStart(2, '0'))
            .join('')
            .toUpperCase()}`,
    );
    expect(shades).toContain(c);
    // Over many ids, all three shades occur, so two unknown ids share a colour less often than the palette alone allows.
    const seen = new Set(Array.from({ length: 200 }, (_, i) => methodColor(`m-${i}`)));
    expect(seen.size).toBeGreaterThan(PALETTE.length);
  });

  it('builds a vega-lite scale with matching domain and range', () => {
    const s = colorScale(['b', 'a', 'b']);
    expect(s.domain).toEqual(['a', 'b']);
    expect(s.range).toHaveLength(2);
    expect(s.range[0]).not.toBe(s.range[1]);
  });

  it('marks upper-bound labels once and outlines their marks', () => {
    expect(markedLabel('adaptmr-oracle', true)).toBe(`adaptmr-oracle ${UPPER_BOUND_MARK}`);
    expect(markedLabel(markedLabel('x', true), true)).toBe(`x ${UPPER_BOUND_MARK}`);
    expect(markedLabel('bm25', false)).toBe('bm25');
    expect(JSON.stringify(upperBoundEncoding())).toContain('datum.upperBound');
  });
});

describe('charts use the palette', () => {
  it('colours the per-type bars by the shared assignment and outlines the oracle', async () => {
    const { recallByTypeSpec } = await import('./recall-by-type-spec.ts');
    const { specToSvg } = await import('./render-chart.ts');
    const rows = [
      { dataset: 'd', series: 'bm25', adaptType: 'all', n: 3, mean: 0.5 },
      { dataset: 'd', series: 'adaptmr-oracle', adaptType: 'all', n: 3, mean: 0.9, upperBound: true },
    ];
    const svg = await specToSvg(recallByTypeSpec(rows));
    const colors = assignColors(['bm25', `adaptmr-oracle ${UPPER_BOUND_MARK}`]);
    expect(svg.toLowerCase()).toContain(`fill="${colors.get('bm25')!.toLowerCase()}"`);
    expect(svg).toContain(`adaptmr-oracle ${UPPER_BOUND_MARK}`);
    expect(svg).toMatch(/stroke="#000000"[^>]*stroke-dasharray="3,2"|stroke-dasharray="3,2"[^>]*stroke="#000000"/);
  });
});
