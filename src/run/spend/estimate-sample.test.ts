// The sampled estimate's scaling (estimate-sample.ts): a cost that grows with the haystack is scaled by the ratio to
// haystack size, a cost per question by the mean, and either gives the population's exact total when the sample's
// questions are typical of their stratum (standard error 0); a noisy cost gets a standard error that covers its miss.
import { describe, expect, it } from 'vitest';
import type { DryQuestionTally, DryTally } from '../../llm/dry-run.ts';
import type { LoadedExperiment } from '../config/load-config.ts';
import { scaleTallies, type EstimateSample } from './estimate-sample.ts';

/** Two strata of a dataset `d`: A has 6 questions, B 4; two of each are drawn. */
function population(): EstimateSample {
  const members = new Map<string, { stratum: string; size: number }>();
  for (let i = 0; i < 6; i++) members.set(`a${i}`, { stratum: 'A', size: 1_000 * (i + 1) });
  for (let i = 0; i < 4; i++) members.set(`b${i}`, { stratum: 'B', size: 500 * (i + 1) });
  return {
    experiment: { path: 'e.yaml' } as LoadedExperiment,
    datasets: [{ dataset: 'd', members, drawn: ['a1', 'a4', 'b0', 'b3'] }],
    questions: 10,
    drawn: 4,
  };
}

function tally(stage: string): DryTally {
  return {
    dataset: 'd',
    method: 'm',
    stage,
    role: 'reader',
    model: 'x',
    calls: 0,
    hits: 0,
    inputTokens: 0,
    outputTokens: 0,
    paidInputTokens: 0,
    paidOutputTokens: 0,
    outputFrom: new Set(['limit']),
  };
}

function calls(input: number, hit = false): DryQuestionTally {
  return {
    calls: 1,
    hits: hit ? 1 : 0,
    inputTokens: input,
    outputTokens: 500,
    paidInputTokens: hit ? 0 : input,
    paidOutputTokens: hit ? 0 : 500,
  };
}

/** Every question's tallies of stage `stage` by `cost(size, id)`, and the population's exact total input. */
function tallies(
  sample: EstimateSample,
  stage: string,
  cost: (size: number, id: string) => number,
): { perQuestion: Map<string, DryQuestionTally>; exact: number } {
  const perQuestion = new Map<string, DryQuestionTally>();
  let exact = 0;
  for (const [id, m] of sample.datasets[0]!.members) {
    const input = cost(m.size, id);
    perQuestion.set(`d\t${id}\tm\t${stage}`, calls(input));
    exact += input;
  }
  return { perQuestion, exact };
}

describe('scaleTallies', () => {
  it('scales a cost proportional to the haystack by the ratio: the exact total, no error', () => {
    const sample = population();
    // A full-context prompt: 0.25 tokens a character plus nothing fixed, in both strata.
    const { perQuestion, exact } = tallies(sample, 'reader', (size) => size / 4);
    const [row] = scaleTallies([tally('reader')], perQuestion, sample);
    expect(row!.tally.inputTokens).toBe(exact);
    expect(row!.tally.paidInputTokens).toBe(exact);
    expect(row!.tally.calls).toBe(10);
    expect(row!.tally.outputTokens).toBe(5_000);
    expect(row!.relStdErr).toBe(0);
  });

  it('scales a cost per question by the mean: the exact total, no error', () => {
    const sample = population();
    // A judge prompt: the same length whatever the haystack, different per stratum.
    const { perQuestion, exact } = tallies(sample, 'judge', (_size, id) => (id.startsWith('a') ? 840 : 620));
    const [row] = scaleTallies([tally('judge')], perQuestion, sample);
    expect(row!.tally.inputTokens).toBe(exact);
    expect(row!.relStdErr).toBe(0);
  });

  it('a noisy cost: the standard error covers the miss, and questions the sample did not draw count', () => {
    const sample = population();
    const noise: Record<string, number> = { a0: 900, a1: 1_300, a2: 700, a3: 1_100, a4: 950, a5: 1_050 };
    const { perQuestion, exact } = tallies(sample, 'reader', (size, id) => size / 4 + (noise[id] ?? 300));
    const [row] = scaleTallies([tally('reader')], perQuestion, sample);
    expect(row!.relStdErr).toBeGreaterThan(0);
    expect(Math.abs(row!.tally.inputTokens - exact)).toBeLessThanOrEqual(3 * row!.relStdErr * row!.tally.inputTokens);
    // A question the sample did not draw has no effect; a drawn one does.
    perQuestion.set('d\ta0\tm\treader', calls(1e9));
    expect(scaleTallies([tally('reader')], perQuestion, sample)[0]!.tally.inputTokens).toBe(row!.tally.inputTokens);
    perQuestion.set('d\ta1\tm\treader', calls(1e9));
    expect(scaleTallies([tally('reader')], perQuestion, sample)[0]!.tally.inputTokens).toBeGreaterThan(1e9);
  });

  it('repeats of an earlier request (cache hits) are scaled as the sample found them', () => {
    const sample = population();
    const perQuestion = new Map<string, DryQuestionTally>();
    for (const [id, m] of sample.datasets[0]!.members)
      perQuestion.set(`d\t${id}\tm\treader`, calls(m.size, id === 'a1'));
    const [row] = scaleTallies([tally('reader')], perQuestion, sample);
    expect(row!.tally.calls).toBe(10);
    // Half of stratum A's sample was a repeat: 3 of its 6 questions are estimated repeats.
    expect(row!.tally.hits).toBe(3);
    expect(row!.tally.paidInputTokens).toBeLessThan(row!.tally.inputTokens);
  });
});
