// Full-context baseline: the whole haystack oldest first, truncated from the old end to the token budget, with the
// truncation recorded in notes.
import { describe, expect, it } from 'vitest';
import type { Embedder, IndexSpec } from '../../src/core/interfaces.ts';
import { renderUnits } from '../../src/core/render.ts';
import type { Session } from '../../src/core/types.ts';
import { createMemoryIndex } from '../../src/index/memory-index.ts';
import { countTokens } from '../../src/llm/tokens.ts';
import { createFullContextMethod, fullContextEntry, FullContextOptionsSchema } from './full-context-method.ts';

// The method never embeds; an embedder that refuses proves it.
const noEmbedder: Embedder = {
  id: 'none',
  dim: 1,
  embed: () => Promise.reject(new Error('full-context must not embed')),
};
const spec: IndexSpec = { granularity: 'session', roles: ['user', 'assistant'], includeCaptions: false };

function session(id: string, day: number, text: string): Session {
  const at = `2023-05-${String(day).padStart(2, '0')}T10:00:00Z`;
  return {
    id,
    at,
    turns: [
      { id: `${id}#1`, sessionId: id, index: 0, role: 'user', text, at },
      { id: `${id}#2`, sessionId: id, index: 1, role: 'assistant', text: 'Noted.', at },
    ],
  };
}

// Haystack given out of date order on purpose: the method must sort.
const haystack = [
  session('s3', 3, 'I adopted a cat named Miso.'),
  session('s1', 1, 'I live in Rome and work as a nurse.'),
  session('s5', 5, 'Miso knocked over my plant today.'),
  session('s2', 2, 'My sister visited from Lisbon.'),
  session('s4', 4, 'I started learning the cello.'),
];
const query = { id: 'q', text: 'What is my cat called?', askedAt: '2023-06-01T00:00:00Z' };

describe('full-context baseline', () => {
  it('gives the whole haystack oldest first when it fits', async () => {
    const method = createFullContextMethod(FullContextOptionsSchema.parse({}));
    const out = await method.run(query, createMemoryIndex(haystack, spec, noEmbedder), { seed: 1, calls: [] });
    expect(out.retrieval.units.map((u) => u.unit.id)).toEqual(['s1', 's2', 's3', 's4', 's5']);
    expect(out.retrieval.context).toBe(renderUnits(out.retrieval.units));
    expect(out.retrieval.notes).toEqual({
      truncated: false,
      keptUnits: 5,
      droppedUnits: 0,
      tokens: countTokens(out.retrieval.context),
      maxContextTokens: 126_500,
    });
  });

  it('keeps the newest units within the budget and records the truncation', async () => {
    const index = createMemoryIndex(haystack, spec, noEmbedder);
    const newestTwo = index.units
      .filter((u) => u.sessionId === 's4' || u.sessionId === 's5')
      .map((unit) => ({ unit, score: 0 }));
    newestTwo.sort((a, b) => a.unit.at.localeCompare(b.unit.at));
    const budget = countTokens(renderUnits(newestTwo)); // exactly the two newest sessions
    const method = createFullContextMethod(FullContextOptionsSchema.parse({ maxContextTokens: budget }));
    const out = await method.run(query, index, { seed: 1, calls: [] });
    expect(out.retrieval.units.map((u) => u.unit.id)).toEqual(['s4', 's5']);
    expect(out.retrieval.notes).toEqual({
      truncated: true,
      keptUnits: 2,
      droppedUnits: 3,
      tokens: budget,
      maxContextTokens: budget,
    });

    const one = await createFullContextMethod(FullContextOptionsSchema.parse({ maxContextTokens: budget - 1 })).run(
      query,
      index,
      { seed: 1, calls: [] },
    );
    expect(one.retrieval.units.map((u) => u.unit.id)).toEqual(['s5']);
    expect((one.retrieval.notes as { tokens: number }).tokens).toBeLessThanOrEqual(budget - 1);
  });

  it('is a registry entry with strict options', async () => {
    expect(fullContextEntry.name).toBe('full-context');
    expect(fullContextEntry.optionsSchema.safeParse({ maxContextTokens: 10, typo: 1 }).success).toBe(false);
    const m = await fullContextEntry.create(
      { maxContextTokens: 1000, withDates: true },
      { id: 'fc', index: spec, k: 5, seed: 1, runKey: 'test', llmRoles: [] },
    );
    expect(m.capabilities).toEqual({ output: 'units', ranks: false });
  });
});
