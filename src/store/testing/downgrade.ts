/**
 * Test helper: what turns a freshly created (current-version) results file back into a version-2 one, so the
 * migration tests can open it as an older harness left it. Every addition of version 3 is undone here, in one place.
 */
export const V3_TO_V2_SQL =
  'DROP TABLE answer_verdicts; DROP TABLE probe_answers; DROP TABLE gold_versions; DROP TABLE cutoff_answers; ' +
  'ALTER TABLE answers DROP COLUMN answer_tokens; ALTER TABLE llm_calls DROP COLUMN batch; ALTER TABLE llm_calls DROP COLUMN cached_tokens;';
