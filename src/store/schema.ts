/**
 * The DuckDB schema of a results file: one table per record kind, a `meta` table holding the schema version, and
 * the `scores_by_type` view every report and notebook reads. Bump SCHEMA_VERSION on any incompatible change: files
 * of another version are refused on open (see open-store.ts) rather than misread.
 */

export const SCHEMA_VERSION = 6;

/** Tables in write order; `export` writes these plus the view. */
export const TABLES = [
  'meta',
  'runs',
  'methods',
  'questions',
  'retrievals',
  'scores',
  'answers',
  'cutoff_answers',
  'answer_verdicts',
  'probe_answers',
  'gold_versions',
  'llm_calls',
  'checkpoints',
  'classifier_eval',
  'classifier_type_scores',
  'classifier_confusion',
  'classifier_predictions',
  'score_cis',
  'comparisons',
  'judge_agreement',
  'judge_comparisons',
  'verdicts',
] as const;
export type TableName = (typeof TABLES)[number];
export const VIEWS = ['scores_by_type'] as const;

/** Classifier evaluations (`adaptmr classifier eval`, src/store/classifier-eval.ts). */
export const CLASSIFIER_EVAL_SCHEMA = `
CREATE TABLE IF NOT EXISTS classifier_eval (
  eval_id VARCHAR PRIMARY KEY, created_at VARCHAR, classifier VARCHAR, label VARCHAR, upper_bound BOOLEAN,
  dataset VARCHAR, protocol VARCHAR, train_dataset VARCHAR, folds INTEGER, seed INTEGER, n INTEGER,
  accuracy DOUBLE, macro_f1 DOUBLE, accuracy_without_abstention DOUBLE, macro_f1_without_abstention DOUBLE,
  abstention_n INTEGER, abstention_flagged INTEGER, abstention_with_surface_cue INTEGER, abstention_cue_on_others INTEGER,
  latency_p50_ms DOUBLE, latency_p95_ms DOUBLE, latency_mean_ms DOUBLE,
  routed_rules INTEGER, routed_llm INTEGER, sources VARCHAR);
CREATE TABLE IF NOT EXISTS classifier_type_scores (
  eval_id VARCHAR, type VARCHAR, precision DOUBLE, recall DOUBLE, f1 DOUBLE, support INTEGER, predicted INTEGER);
CREATE TABLE IF NOT EXISTS classifier_confusion (
  eval_id VARCHAR, gold VARCHAR, predicted VARCHAR, count INTEGER);
CREATE TABLE IF NOT EXISTS classifier_predictions (
  eval_id VARCHAR, question_id VARCHAR, dataset VARCHAR, fold INTEGER, gold VARCHAR, native_type VARCHAR,
  is_abstention BOOLEAN, predicted VARCHAR, p_factual DOUBLE, p_temporal DOUBLE, p_update DOUBLE, p_multi_hop DOUBLE,
  p_abstention DOUBLE, source VARCHAR, route VARCHAR, latency_ms DOUBLE);
`;

// Added in version 2: each method's identity and declared capabilities per run (reports show "n/a" for methods
// that return no unit ids, and mark degraded and upper-bound methods), and durable markers methods keep across a
// kill (e.g. memory-server ingestion batches already sent).
const DDL_V2 = `
CREATE TABLE methods (
  run_id VARCHAR NOT NULL, method VARCHAR NOT NULL, kind VARCHAR NOT NULL, granularity VARCHAR NOT NULL,
  k INTEGER NOT NULL, output VARCHAR NOT NULL, upper_bound BOOLEAN NOT NULL, degraded VARCHAR,
  capabilities VARCHAR NOT NULL, PRIMARY KEY (run_id, method));
CREATE TABLE checkpoints (
  run_id VARCHAR NOT NULL, method VARCHAR NOT NULL, key VARCHAR NOT NULL, value VARCHAR NOT NULL,
  PRIMARY KEY (run_id, method, key));
${CLASSIFIER_EVAL_SCHEMA}
`;

/** Version 1 → 2, run in one transaction on open (a v1 file keeps every row; retrievals.k stays NULL there; the view
 * is recreated with the deterministic mean). */
export function migrateV1ToV2Sql(): string {
  return `${DDL_V2}
ALTER TABLE retrievals ADD COLUMN k INTEGER;
DROP VIEW IF EXISTS scores_by_type;
${DDL_STATS}
${DDL_VIEW}
UPDATE meta SET value = '2' WHERE key = 'schema_version';`;
}

// Added in version 3: judge panels, gold versions and leniency probes (docs/qa-and-judges.md).
//   answer_verdicts one row per judged answer × judge × gold version; `method` is '' and `probe` names the probe kind
//                  for a known-wrong probe answer (probe_answers), `probe` is '' for a method's own answer. `correct`
//                  and `raw` hold one entry per judge repeat. The first judge of a run's panel, on the run's headline
//                  gold version, is the one the `accuracy` score rows (and answers.judge_verdicts) carry.
//   probe_answers  the known-wrong answers judged for a stratified sample of questions (kind 'specific' | 'vague').
//   gold_versions  a question's gold answer under each version where they differ (LoCoMo `original` | `errata`).
//   answers.answer_tokens  o200k tokens of the answer (NULL in files written before version 3).
// Added in version 3: the reader's answers at each `qa.ks` cutoff of one retrieval (the method's own answer stays in
// `answers`; accuracy by cutoff is in `scores` with k = the cutoff).
// batch and cached_tokens added in version 3.
const LLM_CALLS_DDL = `CREATE TABLE llm_calls (
  run_id VARCHAR NOT NULL, dataset VARCHAR NOT NULL, question_id VARCHAR NOT NULL, method VARCHAR NOT NULL,
  stage VARCHAR NOT NULL, model VARCHAR NOT NULL, prompt_tokens INTEGER NOT NULL, completion_tokens INTEGER NOT NULL,
  latency_ms DOUBLE NOT NULL, cached BOOLEAN NOT NULL, cost_usd DOUBLE NOT NULL, error VARCHAR,
  batch BOOLEAN NOT NULL DEFAULT false, cached_tokens INTEGER NOT NULL DEFAULT 0);`;

const DDL_V3 = `
CREATE TABLE answer_verdicts (
  run_id VARCHAR NOT NULL, dataset VARCHAR NOT NULL, question_id VARCHAR NOT NULL, method VARCHAR NOT NULL,
  probe VARCHAR NOT NULL, judge VARCHAR NOT NULL, gold VARCHAR NOT NULL, model VARCHAR NOT NULL, prompt VARCHAR NOT NULL,
  correct BOOLEAN[] NOT NULL, raw VARCHAR[] NOT NULL,
  PRIMARY KEY (run_id, dataset, question_id, method, probe, judge, gold));
CREATE TABLE probe_answers (
  run_id VARCHAR NOT NULL, dataset VARCHAR NOT NULL, question_id VARCHAR NOT NULL, probe VARCHAR NOT NULL,
  source VARCHAR NOT NULL, answer VARCHAR NOT NULL,
  PRIMARY KEY (run_id, dataset, question_id, probe));
CREATE TABLE gold_versions (
  run_id VARCHAR NOT NULL, dataset VARCHAR NOT NULL, question_id VARCHAR NOT NULL, version VARCHAR NOT NULL,
  answer VARCHAR NOT NULL, note VARCHAR,
  PRIMARY KEY (run_id, dataset, question_id, version));
CREATE TABLE cutoff_answers (
  run_id VARCHAR NOT NULL, dataset VARCHAR NOT NULL, question_id VARCHAR NOT NULL, method VARCHAR NOT NULL,
  cutoff INTEGER NOT NULL, answer VARCHAR, judge_verdicts VARCHAR NOT NULL, context_tokens INTEGER, error VARCHAR,
  PRIMARY KEY (run_id, dataset, question_id, method, cutoff));
`;

/**
 * Version 2 → 3, run in one transaction on open. Additive only (every v2 row is kept): the judge-panel tables and
 * `answers.answer_tokens` (NULL for old rows); the cutoff answers table; llm_calls gains `batch` (answered through the
 * Batch API, priced at the batch price) and `cached_tokens` (prompt tokens the provider served from its prompt cache),
 * both at the end so the appender's column order is the same in migrated and fresh files (old rows: false, 0).
 */
export function migrateV2ToV3Sql(): string {
  // DuckDB refuses to commit two ALTERs of one table with rows in one transaction ("another transaction has altered
  // this table"), so llm_calls is copied into its version-3 layout instead.
  return `${DDL_V3}
ALTER TABLE answers ADD COLUMN answer_tokens INTEGER;
${LLM_CALLS_DDL.replace('CREATE TABLE llm_calls', 'CREATE TABLE llm_calls_v3')}
INSERT INTO llm_calls_v3 SELECT run_id, dataset, question_id, method, stage, model, prompt_tokens, completion_tokens,
  latency_ms, cached, cost_usd, error, false, 0 FROM llm_calls;
DROP TABLE llm_calls;
ALTER TABLE llm_calls_v3 RENAME TO llm_calls;
${DDL_STATS}
UPDATE meta SET value = '3' WHERE key = 'schema_version';`;
}

// Added in version 4: the superseded evidence of a question (src/data/supersession.ts), [] when the dataset marks
// none, NULL in files written before version 4 (not recorded).
// Added in version 5: the size of the question's haystack at each retrieval level — its sessions and its turns — so
// the chance rate of a random top-k is computable per question (src/eval/verdicts/chance.ts); NULL in older files.
// Added in version 6: `judge_evidence`, the text a benchmark's judge reads besides the gold answer (LoCoMo-Plus's cue,
// `Gold.evidenceText`), so a stored run can be judged again; NULL where the benchmark has none or the file is older.
const QUESTIONS_DDL = `CREATE TABLE questions (
  run_id VARCHAR NOT NULL, dataset VARCHAR NOT NULL, question_id VARCHAR NOT NULL, text VARCHAR NOT NULL,
  asked_at VARCHAR NOT NULL, native_type VARCHAR NOT NULL, adapt_type VARCHAR NOT NULL, is_abstention BOOLEAN NOT NULL,
  evidence_session_ids VARCHAR[] NOT NULL, evidence_turn_ids VARCHAR[] NOT NULL, answer VARCHAR NOT NULL,
  superseded_session_ids VARCHAR[], superseded_turn_ids VARCHAR[], haystack_sessions INTEGER, haystack_turns INTEGER,
  judge_evidence VARCHAR, PRIMARY KEY (run_id, dataset, question_id));`;

/**
 * Version 3 → 4, run in one transaction on open. Additive: questions gains `superseded_session_ids` and
 * `superseded_turn_ids` (NULL for old rows), copied into the new layout as llm_calls was (DuckDB refuses two ALTERs
 * of one table in one transaction).
 */
export function migrateV3ToV4Sql(): string {
  return `${QUESTIONS_DDL.replace('CREATE TABLE questions', 'CREATE TABLE questions_v4')}
INSERT INTO questions_v4 (run_id, dataset, question_id, text, asked_at, native_type, adapt_type, is_abstention,
  evidence_session_ids, evidence_turn_ids, answer) SELECT run_id, dataset, question_id, text, asked_at, native_type,
  adapt_type, is_abstention, evidence_session_ids, evidence_turn_ids, answer FROM questions;
DROP TABLE questions;
ALTER TABLE questions_v4 RENAME TO questions;
${DDL_VIEW}
UPDATE meta SET value = '4' WHERE key = 'schema_version';`;
}

/**
 * Version 4 → 5, run in one transaction on open. Additive: questions gains `haystack_sessions` and `haystack_turns`
 * (NULL for old rows: their chance rate is "not computable"), by a copy as in version 4.
 */
export function migrateV4ToV5Sql(): string {
  return `${QUESTIONS_DDL.replace('CREATE TABLE questions', 'CREATE TABLE questions_v5')}
INSERT INTO questions_v5 (${V4_COLUMNS}) SELECT ${V4_COLUMNS} FROM questions;
DROP TABLE questions;
ALTER TABLE questions_v5 RENAME TO questions;
${DDL_VIEW}
UPDATE meta SET value = '5' WHERE key = 'schema_version';`;
}

/** The columns of questions in version 4 (each later version's copy names its columns: new ones stay NULL). */
const V4_COLUMNS = `run_id, dataset, question_id, text, asked_at, native_type, adapt_type, is_abstention,
  evidence_session_ids, evidence_turn_ids, answer, superseded_session_ids, superseded_turn_ids`;

/**
 * Version 5 → 6, run in one transaction on open. Additive: questions gains `judge_evidence` (NULL for old rows: a
 * judge that reads it cannot be asked again), by a copy as in version 4.
 */
export function migrateV5ToV6Sql(): string {
  const columns = `${V4_COLUMNS}, haystack_sessions, haystack_turns`;
  return `${QUESTIONS_DDL.replace('CREATE TABLE questions', 'CREATE TABLE questions_v6')}
INSERT INTO questions_v6 (${columns}) SELECT ${columns} FROM questions;
DROP TABLE questions;
ALTER TABLE questions_v6 RENAME TO questions;
${DDL_VIEW}
UPDATE meta SET value = '6' WHERE key = 'schema_version';`;
}

// JSON-valued columns (config, package versions, type probabilities, notes, judge verdicts) are VARCHAR holding
// JSON text: open-ended shapes stay lossless without DuckDB's JSON extension. Id lists are native VARCHAR[] so
// SQL can unnest them. Times are ISO 8601 strings exactly as the dataset/runner gave them (cast with ::TIMESTAMP).
const DDL_TABLES = `
CREATE TABLE meta (key VARCHAR PRIMARY KEY, value VARCHAR NOT NULL);

CREATE TABLE runs (
  run_id VARCHAR PRIMARY KEY, name VARCHAR NOT NULL, config_json VARCHAR NOT NULL, config_hash VARCHAR NOT NULL,
  git_commit VARCHAR, git_dirty BOOLEAN, package_versions VARCHAR NOT NULL, dataset_hashes VARCHAR NOT NULL,
  seed BIGINT NOT NULL, started_at VARCHAR NOT NULL, ended_at VARCHAR, status VARCHAR NOT NULL);
${DDL_V2}
-- Gold, once per run and question. native_type is the dataset's own label verbatim (LoCoMo category number as a
-- string) so any AdaptMR type mapping can be recomputed (docs/design.md §2).
${QUESTIONS_DDL}

CREATE TABLE retrievals (
  run_id VARCHAR NOT NULL, dataset VARCHAR NOT NULL, question_id VARCHAR NOT NULL, method VARCHAR NOT NULL,
  granularity VARCHAR NOT NULL, unit_ids VARCHAR[] NOT NULL, unit_session_ids VARCHAR[] NOT NULL,
  scores DOUBLE[] NOT NULL, no_memory BOOLEAN NOT NULL, context VARCHAR, latency_ms DOUBLE NOT NULL,
  predicted_type VARCHAR, type_probs VARCHAR, route VARCHAR, notes VARCHAR, error VARCHAR, k INTEGER,
  PRIMARY KEY (run_id, dataset, question_id, method));

-- Long format: metric ids never embed k (docs/design.md §8); k is NULL for QA metrics (accuracy, f1, bleu1).
-- counted = false keeps a row for inspection but out of official averages (e.g. LongMemEval _abs questions).
CREATE TABLE scores (
  run_id VARCHAR NOT NULL, dataset VARCHAR NOT NULL, question_id VARCHAR NOT NULL, method VARCHAR NOT NULL,
  granularity VARCHAR NOT NULL, level VARCHAR NOT NULL, metric VARCHAR NOT NULL, k INTEGER, value DOUBLE NOT NULL,
  counted BOOLEAN NOT NULL, excluded_why VARCHAR);

CREATE TABLE answers (
  run_id VARCHAR NOT NULL, dataset VARCHAR NOT NULL, question_id VARCHAR NOT NULL, method VARCHAR NOT NULL,
  answer VARCHAR, judge_verdicts VARCHAR NOT NULL, context_tokens INTEGER, error VARCHAR, answer_tokens INTEGER,
  PRIMARY KEY (run_id, dataset, question_id, method));

${LLM_CALLS_DDL}
${DDL_V3}
`;

// The plan experiments' verdicts (src/eval/verdicts, docs/statistics.md): one row per claim an experiment tests, with
// its comparator, Holm family and the reason a claim is not reached. Derived, recomputed with the statistics.
const DDL_VERDICTS = `
CREATE TABLE IF NOT EXISTS verdicts (
  experiment VARCHAR NOT NULL, dataset VARCHAR NOT NULL, claim VARCHAR NOT NULL, method_a VARCHAR, method_b VARCHAR,
  metric VARCHAR, level VARCHAR, k INTEGER, adapt_type VARCHAR NOT NULL, n INTEGER NOT NULL, estimate DOUBLE,
  ci_low DOUBLE, ci_high DOUBLE, p_value DOUBLE, p_holm DOUBLE, family VARCHAR, family_size INTEGER, mde DOUBLE,
  verdict VARCHAR NOT NULL, reason VARCHAR NOT NULL, flags VARCHAR DEFAULT '');
-- Added later (an older file gets it on its next writable open): what the verdicts show, per experiment and dataset,
-- by the rules of src/eval/verdicts/findings.ts; supporting_claims names the verdict rows each finding rests on.
CREATE TABLE IF NOT EXISTS findings (
  experiment VARCHAR NOT NULL, dataset VARCHAR NOT NULL, finding VARCHAR NOT NULL, supporting_claims VARCHAR NOT NULL);
ALTER TABLE verdicts ADD COLUMN IF NOT EXISTS flags VARCHAR DEFAULT '';
`;

// Statistics, derived from the rows above and recomputed whenever they change (stats-tables.ts): a
// bootstrap CI per scores_by_type cell, and paired comparisons of methods. Added without a version bump — a file
// without them gets them on its next writable open (open-store.ts), and readers of older harnesses ignore them.
const DDL_STATS = `
CREATE TABLE IF NOT EXISTS score_cis (
  run_id VARCHAR NOT NULL, dataset VARCHAR NOT NULL, method VARCHAR NOT NULL, granularity VARCHAR NOT NULL,
  level VARCHAR NOT NULL, metric VARCHAR NOT NULL, k INTEGER, adapt_type VARCHAR NOT NULL, native_type VARCHAR NOT NULL,
  n INTEGER NOT NULL, mean DOUBLE NOT NULL, ci_low DOUBLE NOT NULL, ci_high DOUBLE NOT NULL, ci_method VARCHAR NOT NULL,
  bootstrap VARCHAR NOT NULL, units INTEGER NOT NULL, resamples INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS comparisons (
  run VARCHAR NOT NULL, dataset VARCHAR NOT NULL, method_a VARCHAR NOT NULL, method_b VARCHAR NOT NULL,
  level VARCHAR NOT NULL, metric VARCHAR NOT NULL, k INTEGER, adapt_type VARCHAR NOT NULL, n_pairs INTEGER NOT NULL,
  mean_diff DOUBLE NOT NULL, ci_low DOUBLE NOT NULL, ci_high DOUBLE NOT NULL, p_value DOUBLE NOT NULL, p_holm DOUBLE NOT NULL,
  test VARCHAR NOT NULL, family VARCHAR NOT NULL, n_excluded INTEGER NOT NULL, run_b VARCHAR NOT NULL,
  ci_method VARCHAR NOT NULL, bootstrap VARCHAR NOT NULL, resamples INTEGER NOT NULL, family_size INTEGER);
-- Judge panels (src/eval/qa/agreement): per dataset, pair of judges and AdaptMR type (plus 'all'), over the answers
-- both judged on each run's headline gold version; judge_a = judge_b = 'all' is Fleiss' kappa over every judge
-- (3 or more) on the answers all of them judged.
CREATE TABLE IF NOT EXISTS judge_agreement (
  dataset VARCHAR NOT NULL, judge_a VARCHAR NOT NULL, judge_b VARCHAR NOT NULL, adapt_type VARCHAR NOT NULL,
  n INTEGER NOT NULL, agreement DOUBLE NOT NULL, kappa DOUBLE);
-- The paired comparisons of judged accuracy (comparisons, level qa) recomputed under each judge of the panel.
CREATE TABLE IF NOT EXISTS judge_comparisons (
  judge VARCHAR NOT NULL, run VARCHAR NOT NULL, dataset VARCHAR NOT NULL, method_a VARCHAR NOT NULL, method_b VARCHAR NOT NULL,
  adapt_type VARCHAR NOT NULL, n_pairs INTEGER NOT NULL, mean_diff DOUBLE NOT NULL, ci_low DOUBLE NOT NULL,
  ci_high DOUBLE NOT NULL, p_value DOUBLE NOT NULL, p_holm DOUBLE NOT NULL, test VARCHAR NOT NULL, run_b VARCHAR NOT NULL);
ALTER TABLE comparisons ADD COLUMN IF NOT EXISTS family_size INTEGER;
${DDL_VERDICTS}`;

const KEYS = 's.run_id, s.dataset, s.method, s.granularity, s.level, s.metric, s.k';

/**
 * scores_by_type — the per-type averages contract (columns exactly: run_id, dataset, method, granularity, level,
 * metric, k, adapt_type, native_type, n, mean, then ci_low, ci_high, ci_method, bootstrap from `score_cis`: NULL
 * until the statistics are computed, and for a cell whose n no longer matches, i.e. stale statistics). Only `counted` score rows enter. Three grouping sets per
 * (run, dataset, method, granularity, level, metric, k):
 *   - adapt_type × native_type            one row per dataset label inside each AdaptMR type;
 *   - adapt_type, native_type = 'all'     the per-AdaptMR-type average;
 *   - adapt_type = 'all', native_type = 'all'   the official overall average (mean over all counted questions).
 * k is NULL for QA metrics; GROUP BY keeps NULL as its own group, so those rows survive with k IS NULL.
 */
const DDL_VIEW = `
CREATE OR REPLACE VIEW scores_by_type AS
-- Per-type averages over counted rows; see schema.ts for the three grouping sets and the 'all' convention.
WITH cells AS (
SELECT ${KEYS},
  CASE WHEN GROUPING(q.adapt_type) = 1 THEN 'all' ELSE q.adapt_type END AS adapt_type,
  CASE WHEN GROUPING(q.native_type) = 1 THEN 'all' ELSE q.native_type END AS native_type,
  COUNT(*) AS n,
  -- Summed in question order, so the mean is bit-identical however the rows were written (concurrent runs and group
  -- commits write questions in varying order, and float addition is not associative).
  AVG(s.value ORDER BY s.question_id) AS mean
FROM scores s
JOIN questions q ON q.run_id = s.run_id AND q.dataset = s.dataset AND q.question_id = s.question_id
WHERE s.counted
GROUP BY GROUPING SETS (
  (${KEYS}, q.adapt_type, q.native_type),
  (${KEYS}, q.adapt_type),
  (${KEYS}))
)
SELECT cells.*, c.ci_low, c.ci_high, c.ci_method, c.bootstrap
FROM cells LEFT JOIN score_cis c
  ON c.run_id = cells.run_id AND c.dataset = cells.dataset AND c.method = cells.method AND c.granularity = cells.granularity
 AND c.level = cells.level AND c.metric = cells.metric AND c.k IS NOT DISTINCT FROM cells.k
 AND c.adapt_type = cells.adapt_type AND c.native_type = cells.native_type AND c.n = cells.n;
`;

/** Adds the statistics tables and the CI columns of scores_by_type to a file that lacks them. */
export const UPGRADE_STATS_SQL = `${DDL_STATS}\n${DDL_VIEW}`;

/** The current definition of the view (replaces an older one, e.g. when comparing files written by other versions). */
export function scoresByTypeViewSql(): string {
  return `${DDL_STATS}\n${DDL_VIEW}`;
}

/** Statements creating a fresh results file, including the version row. */
export function createSchemaSql(): string {
  return `${DDL_TABLES}\n${DDL_STATS}\n${DDL_VIEW}\nINSERT INTO meta VALUES ('schema_version', '${SCHEMA_VERSION}');`;
}
