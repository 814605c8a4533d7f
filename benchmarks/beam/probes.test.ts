// BEAM's rubric as the answer its leniency probes are made against: leads dropped, "avoid" items left out, bare items
// kept (rubric items written by hand in BEAM's three lead forms).
import { describe, expect, it } from 'vitest';
import { rubricAsAnswer } from './probes.ts';

describe('rubricAsAnswer', () => {
  it('drops the "LLM response should …:" lead and the items saying what to avoid', () => {
    const rubric = [
      'LLM response should state: 8 weeks',
      'LLM response should mention: from January 15, 2024 till March 15, 2024',
      'LLM response should avoid: recommending Django',
      'Core functionality',
      'llm response should contain:   code blocks  ',
    ].join('\n');
    expect(rubricAsAnswer(rubric)).toBe(
      '8 weeks; from January 15, 2024 till March 15, 2024; Core functionality; code blocks',
    );
    expect(rubricAsAnswer('LLM response should avoid: jargon')).toBe('');
  });
});
