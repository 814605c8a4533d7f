/**
 * Reads what a bundle is written from: the results file's runs, methods, questions and, per question and method,
 * the retrieval, answer, score rows, judges' verdicts and LLM usage, plus the per-type CIs. Rows are grouped by
 * (run, dataset, question, method) once, in a fixed order, so every file of the bundle comes out the same for the
 * same rows.
 */
import type { ResultStore } from '../../store/index.ts';

export interface RunFacts {
  run_id: string;
  name: string;
  config_json: string;
  config_hash: string;
  git_commit: string | null;
  git_dirty: boolean | null;
  package_versions: string;
  dataset_hashes: string;
  seed: number;
  started_at: string;
  ended_at: string | null;
  status: string;
}
export interface MethodFact {
  run_id: string;
  method: string;
  kind: string;
  granularity: string;
  k: number;
  output: string;
  upper_bound: boolean;
  degraded: string | null;
  capabilities: string;
}
export interface QuestionFact {
  run_id: string;
  dataset: string;
  question_id: string;
  text: string;
  asked_at: string;
  native_type: string;
  adapt_type: string;
  is_abstention: boolean;
  evidence_session_ids: string[];
  evidence_turn_ids: string[];
  answer: string;
  /** Schema 4: evidence a later session superseded (NULL when not recorded). */
  superseded_session_ids?: string[] | null;
  superseded_turn_ids?: string[] | null;
}
export type Row = Record<string, unknown>;

export interface Results {
  runs: RunFacts[];
  methods: MethodFact[];
  questions: QuestionFact[];
  /** Keyed by `keyOf(run, dataset, question, method)`. */
  retrievals: Map<string, Row>;
  answers: Map<string, Row>;
  scores: Map<string, Row[]>;
  verdicts: Map<string, Row[]>;
  usage: Map<string, Row>;
  /** score_cis rows with native_type 'all', keyed by `run\tdataset\tmethod`. */
  cis: Map<string, Row[]>;
}

export const keyOf = (...parts: string[]): string => parts.join('\t');

function group(rows: Row[], cols: string[]): Map<string, Row[]> {
  const out = new Map<string, Row[]>();
  for (const r of rows) {
    const key = keyOf(...cols.map((c) => String(r[c])));
    const list = out.get(key);
    if (list) list.push(r);
    else out.set(key, [r]);
  }
  return out;
}
const single = (m: Map<string, Row[]>): Map<string, Row> => new Map([...m].map(([k, v]) => [k, v[0]!]));
const QK = ['run_id', 'dataset', 'question_id', 'method'];

export async function loadResults(store: ResultStore): Promise<Results> {
  const q = <T>(sql: string): Promise<T[]> => store.query<T>(sql);
  const [runs, methods, questions, retrievals, answers, scores, verdicts, usage, cis] = await Promise.all([
    q<RunFacts>('SELECT * FROM runs ORDER BY run_id'),
    q<MethodFact>('SELECT * FROM methods ORDER BY run_id, method'),
    q<QuestionFact>('SELECT * FROM questions ORDER BY run_id, dataset, question_id'),
    q<Row>('SELECT * FROM retrievals'),
    q<Row>('SELECT * FROM answers'),
    q<Row>('SELECT * FROM scores ORDER BY ALL'),
    q<Row>(`SELECT * FROM answer_verdicts WHERE probe = '' ORDER BY ALL`),
    q<Row>(`SELECT run_id, dataset, question_id, method, sum(prompt_tokens)::BIGINT AS prompt_tokens,
      sum(completion_tokens)::BIGINT AS completion_tokens, sum(cached_tokens)::BIGINT AS cached_tokens, count(*)::BIGINT AS calls
      FROM llm_calls GROUP BY ALL`),
    q<Row>(`SELECT * FROM score_cis WHERE native_type = 'all' ORDER BY ALL`),
  ]);
  return {
    runs,
    methods,
    questions,
    retrievals: single(group(retrievals, QK)),
    answers: single(group(answers, QK)),
    scores: group(scores, QK),
    verdicts: group(verdicts, QK),
    usage: single(group(usage, QK)),
    cis: group(cis, ['run_id', 'dataset', 'method']),
  };
}
