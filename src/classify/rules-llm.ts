/**
 * `rules+llm` (plan §2.2 option C): the keyword layer decides the questions any cue matches; only the rest go to
 * the few-shot LLM. Counts how many went each way (`routeCounts`), which evaluation reports.
 */
import type { Classifier, Ctx } from '../core/interfaces.ts';
import type { Query } from '../core/types.ts';
import type { LlmClassifier } from './llm/llm-classifier.ts';
import type { Classification } from './result.ts';
import type { RulesClassifier } from './rules.ts';

export class RulesLlmClassifier implements Classifier {
  readonly name = 'rules+llm';
  readonly usesLlm = true;
  readonly routeCounts = { rules: 0, llm: 0 };
  constructor(
    private readonly rules: RulesClassifier,
    private readonly llm: LlmClassifier,
  ) {}

  async classify(query: Query, ctx?: Ctx): Promise<Classification> {
    const r = this.rules.explain(query.text);
    if (r.decided) {
      this.routeCounts.rules += 1;
      return { type: r.type, probs: r.probs, source: 'rules', route: 'rules' };
    }
    this.routeCounts.llm += 1;
    return { ...(await this.llm.classify(query, ctx)), route: 'llm' };
  }
}
