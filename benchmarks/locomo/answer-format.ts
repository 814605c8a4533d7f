/**
 * The LoCoMo audit's answer files as a published-answer format (`BenchmarkQa.answerFormats`, src/core/benchmark.ts):
 * `adaptmr score-answers --format locomo-audit` reads `eval_results.json` files of dial481/locomo-audit through it,
 * and names a file that is byte for byte one of the pinned audit files (audit.ts).
 */
import type { AnswerFormat } from '../../src/core/benchmark.ts';
import { LOCOMO_AUDIT_COMMIT, LOCOMO_AUDIT_FILES, LOCOMO_AUDIT_REPO, readAuditAnswers } from './audit.ts';

export const locomoAuditFormat: AnswerFormat = {
  read(file) {
    const { results, answers } = readAuditAnswers(file);
    const meta = results.metadata;
    return {
      meta: {
        answerModel: meta?.answer_model ?? null,
        answerPrompt: meta?.answer_prompt ?? null,
        judgeModel: meta?.judge_model ?? null,
      },
      answers,
    };
  },
  pinnedName(sha256) {
    const hit = Object.entries(LOCOMO_AUDIT_FILES).find(([, f]) => f.sha256 === sha256);
    return hit ? `${LOCOMO_AUDIT_REPO}@${LOCOMO_AUDIT_COMMIT.slice(0, 7)} ${hit[0]}` : null;
  },
};
