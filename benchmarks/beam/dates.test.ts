// BEAM's batch anchors (dates.ts).
import { describe, expect, it } from 'vitest';
import { parseBeamAnchor } from './dates.ts';

describe('parseBeamAnchor (python %B-%d-%Y)', () => {
  it('reads BEAM batch anchors and rejects other shapes or impossible dates', () => {
    expect(parseBeamAnchor('March-15-2024')).toBe('2024-03-15T00:00:00Z');
    expect(parseBeamAnchor('November-5-2023')).toBe('2023-11-05T00:00:00Z');
    expect(parseBeamAnchor('February-30-2024')).toBeUndefined();
    expect(parseBeamAnchor('Mar-15-2024')).toBeUndefined();
    expect(parseBeamAnchor('2024-03-15')).toBeUndefined();
  });
});
