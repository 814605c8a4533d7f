/**
 * Test helper: what turns a freshly created (current-version) results file back into an older one, so the migration
 * tests can open it as an older harness left it. Every addition of a version is undone here, in one place.
 */
/** Current (6) → version 5: questions without the judge's evidence. */
export const V6_TO_V5_SQL = 'ALTER TABLE questions DROP COLUMN judge_evidence; ';

/** Current → version 4: questions without the haystack sizes either. */
export const V5_TO_V4_SQL =
  V6_TO_V5_SQL +
  'ALTER TABLE questions DROP COLUMN haystack_sessions; ALTER TABLE questions DROP COLUMN haystack_turns; ';

/** Current → version 3: questions without the superseded-evidence columns either. */
export const V4_TO_V3_SQL =
  V5_TO_V4_SQL +
  'ALTER TABLE questions DROP COLUMN superseded_session_ids; ALTER TABLE questions DROP COLUMN superseded_turn_ids; ';

/** Current → version 2 (version 4's additions undone first). */
export const V3_TO_V2_SQL =
  V4_TO_V3_SQL +
  'DROP TABLE answer_verdicts; DROP TABLE probe_answers; DROP TABLE gold_versions; DROP TABLE cutoff_answers; ' +
  'ALTER TABLE answers DROP COLUMN answer_tokens; ALTER TABLE llm_calls DROP COLUMN batch; ALTER TABLE llm_calls DROP COLUMN cached_tokens;';
