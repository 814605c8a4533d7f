/**
 * The LoCoMo audit's leniency probe answers (dial481/locomo-audit@9493fb4 `ap-baseline/v1|v2`, audit.ts) as published
 * probes of this benchmark (`BenchmarkQa.publishedProbes`, `qa.probes.source: audit`): v1 "specific-but-wrong", v2
 * "vague-but-topical", each checked against the question text the run stored.
 */
import { InputError } from '../../src/core/errors.ts';
import { loadAuditProbes, PROBE_FILES } from './audit.ts';

type Kind = keyof typeof PROBE_FILES;

/** The audit's probe answers of the run's LoCoMo questions, by probe kind. */
export async function auditProbes(
  dataDir: string,
  questions: readonly { questionId: string; text: string }[],
): Promise<Map<Kind, Map<string, { answer: string; source: string }>>> {
  const out = new Map<Kind, Map<string, { answer: string; source: string }>>();
  for (const kind of Object.keys(PROBE_FILES) as Kind[]) {
    const { answers } = await loadAuditProbes(dataDir, kind);
    const mine = new Map<string, { answer: string; source: string }>();
    for (const q of questions) {
      const a = answers.get(q.questionId);
      if (!a) continue;
      if (a.question !== q.text) {
        throw new InputError(
          `the audit's ${a.auditId} asks "${a.question}", the run's question is "${q.text}"`,
          `question ${q.questionId}`,
        );
      }
      mine.set(q.questionId, { answer: a.answer, source: `locomo-audit:${kind === 'specific' ? 'v1' : 'v2'}` });
    }
    out.set(kind, mine);
  }
  return out;
}
