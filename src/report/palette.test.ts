/**
 * The shared palette: enough distinguishable colours for 20+ methods, one colour per name whatever else is shown,
 * upper-bound methods marked.
 */
import { describe, expect, it } from 'vitest';
import { PALETTE, assignColors, fnv1a, colorScale, markedLabel, upperBoundEncoding, UPPER_BOUND_MARK } from './palette.ts';

/** sRGB hex → CIELAB (D65), the standard formulas (IEC 61966-2-1, CIE 15). */
function lab(hex: string): [number, number, number] {
  const c = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((v) => (v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
  const [r, g, b] = c as [number, number, number];
  const x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
  const y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  const z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
  const f = (t: number): number => (t > 216 / 24389 ? Math.cbrt(t) : (24389 / 27 * t + 16) / 116);
  return [116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))];
}

const methods20 = [
  'unified-embedding', 'bm25-session', 'bm25-turn', 'full-context', 'strategy-factual', 'strategy-temporal',
  'strategy-update', 'strategy-multi-hop', 'strategy-abstention', 'adaptmr-single', 'adaptmr-fusion', 'adaptmr-oracle',
  'ablation-random-strategy', 'ablation-no-entity-rerank', 'ablation-no-temporal-strategy', 'ablation-no-update-strategy',
  'ablation-no-multi-hop-strategy', 'ablation-no-abstention-strategy', 'mem0', 'zep',
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

  it('gives 20 methods 20 different colours', () => {
    const colors = assignColors(methods20);
    expect(new Set(colors.values()).size).toBe(20);
  });

  it('does not depend on the input order', () => {
    const a = assignColors(methods20);
    const b = assignColors([...methods20].reverse());
    expect([...b.entries()].sort()).toEqual([...a.entries()].sort());
  });

  it('adding a method whose preferred colour is free changes no other method\'s colour', () => {
    let checked = 0;
    for (const added of methods20) {
      const others = methods20.filter((m) => m !== added);
      const before = assignColors(others);
      const preferred = PALETTE[fnv1a(added) % PALETTE.length]!;
      if ([...before.values()].includes(preferred)) continue;
      checked++;
      const after = assignColors(methods20);
      expect(after.get(added)).toBe(preferred);
      for (const m of others) expect(after.get(m)).toBe(before.get(m));
    }
    expect(checked).toBeGreaterThan(0);
    expect(assignColors(['adaptmr-single']).get('adaptmr-single')).toBe(assignColors(['bm25-session', 'adaptmr-single']).get('adaptmr-single'));
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
