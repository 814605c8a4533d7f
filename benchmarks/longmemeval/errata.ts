/**
 * LongMemEval answer-key errata: a small pinned overlay, as the LoCoMo audit is for LoCoMo, applied with
 * `gold: { answers: errata }` on `longmemeval-s`, `-m` or `-oracle` (the question ids and texts are the same in the
 * three). Each entry cites the upstream report (GitHub xiaowu0162/LongMemEval issue, by number) and says what
 * changed — `answer`, `evidence` or `both` — checked here against the haystack of longmemeval_s_cleaned:
 *
 * - #37, `eac54add` (evidence): "the milestone I mentioned four weeks ago" (asked 2023-03-28) is the contract signed
 *   on 2023-03-01 (`answer_0d4d0348_2`, its only has_answer turn); `answer_0d4d0348_1` (2023-02-10, 18 days earlier,
 *   no has_answer turn: the website launch) is not evidence. The answer stands. Official retrieval gold already
 *   leaves that session out (no has_answer turn, src/eval/retrieval-gold.ts); evidence-mode gold keeps it.
 * - #40, `370a8ff4` (answer): the flu recovery is dated 2023-01-19 and the 10th outdoor jog 2023-04-10: 81 days, about
 *   11.6 weeks, not the key's 15 (also reported as #19, #26 and #41). The evidence stands.
 * - #40 also reports `gpt4_88806d6e` ("who did I meet first, Mark and Sarah or Tom?", key "Tom"); not applied: in
 *   the cleaned data Tom was met "a few months ago" and Mark and Sarah "about a month ago" (both said on 2023-05-28),
 *   so the key agrees with the haystack.
 *
 * The erratum's `question` is the dataset's text verbatim (typo included): a question whose text differs is refused.
 */
import type { Erratum } from '../../src/core/errata.ts';

export const LONGMEMEVAL_ERRATA_SOURCE = 'GitHub xiaowu0162/LongMemEval issues (longmemeval_s_cleaned)';

interface LmeErratum {
  questionId: string;
  issue: string;
  changes: 'answer' | 'evidence' | 'both';
  question: string;
  originalAnswer: string;
  correctedAnswer: string;
  /** Evidence sessions after the correction (the answer_session_ids the report says are right). */
  correctEvidence: string[];
  errorType: Erratum['errorType'];
}

export const LONGMEMEVAL_ERRATA: readonly LmeErratum[] = [
  {
    questionId: 'eac54add',
    issue: 'xiaowu0162/LongMemEval#37',
    changes: 'evidence',
    question: 'What was the significant buisiness milestone I mentioned four weeks ago?',
    originalAnswer: 'I signed a contract with my first client.',
    correctedAnswer: 'I signed a contract with my first client.',
    correctEvidence: ['answer_0d4d0348_2'],
    errorType: 'WRONG_CITATION',
  },
  {
    questionId: '370a8ff4',
    issue: 'xiaowu0162/LongMemEval#40',
    changes: 'answer',
    question: 'How many weeks had passed since I recovered from the flu when I went on my 10th jog outdoors?',
    originalAnswer: '15',
    correctedAnswer: '11 weeks (81 days, about 11.6 weeks)',
    correctEvidence: ['answer_61d1be50_1', 'answer_61d1be50_2'],
    errorType: 'TEMPORAL_ERROR',
  },
];

/** The overlay by question id, in the shape the judging code reads (an evidence-only erratum changes no answer). */
export async function longMemEvalErrata(): Promise<Map<string, Erratum>> {
  return new Map(
    LONGMEMEVAL_ERRATA.map((e) => [
      e.questionId,
      {
        questionId: e.questionId,
        auditId: e.issue,
        question: e.question,
        originalAnswer: e.originalAnswer,
        correctedAnswer: e.correctedAnswer,
        errorType: e.errorType,
        scoreCorrupting: e.changes !== 'evidence',
        correctEvidence: e.correctEvidence,
        source: LONGMEMEVAL_ERRATA_SOURCE,
      },
    ]),
  );
}
