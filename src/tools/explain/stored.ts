/**
 * Case studies from a results file (plan §5.5): for one question, what every method of the file stored — ranked
 * units, route and predicted type, the context the reader got, the reader's answer and the judge's verdict — next to
 * each other, with the gold apart (as `explain --experiment` prints it). Nothing is rerun; a context is shown only
 * when the run stored it (runs with a reader always do; otherwise `storeContext: true`).
 */
import { InputError } from '../../core/errors.ts';
import { openResultStore } from '../../store/index.ts';

export interface StoredMethodCase {
  run: string;
  method: string;
  /** Why the method is a stand-in (the `methods` table's `degraded`), shown after its id. */
  degraded: string | null;
  route: string | null;
  predictedType: string | null;
  noMemory: boolean;
  unitIds: string[];
  context: string | null;
  error: string | null;
  answer: string | null;
  /** "correct" / "wrong" per judge call, or null without a judged answer. */
  verdicts: string[] | null;
  answerError: string | null;
  scores: { level: string; metric: string; k: number | null; value: number }[];
}

export interface StoredCase {
  file: string;
  dataset: string;
  question: { id: string; text: string; askedAt: string };
  gold: { adaptType: string; nativeType: string; isAbstention: boolean; answer: string; evidenceSessionIds: string[] };
  methods: StoredMethodCase[];
}

/** The judge verdicts stored as JSON: one entry per judge call holding `correct: boolean[]` (src/eval/qa). */
function verdictsOf(json: string): string[] {
  const parsed: unknown = JSON.parse(json);
  if (!Array.isArray(parsed)) return [];
  return parsed.flatMap((v: unknown) => {
    const correct =
      typeof v === 'object' && v !== null && 'correct' in v ? (v as { correct: unknown }).correct : undefined;
    return Array.isArray(correct) ? correct.map((c) => (c === true ? 'correct' : 'wrong')) : [];
  });
}

type Store = Awaited<ReturnType<typeof openResultStore>>;

/** The question's stored row (its dataset's, when given); a one-line error when it is absent or ambiguous. */
async function storedQuestion(store: Store, file: string, questionId: string, dataset: string | undefined) {
  const qs = await store.query<{
    dataset: string;
    text: string;
    asked_at: string;
    adapt_type: string;
    native_type: string;
    is_abstention: boolean;
    answer: string;
    evidence_session_ids: string[];
  }>(
    `SELECT DISTINCT dataset, text, asked_at, adapt_type, native_type, is_abstention, answer, evidence_session_ids FROM questions WHERE question_id = $1`,
    [questionId],
  );
  const matching = qs.filter((q) => !dataset || q.dataset === dataset);
  if (matching.length === 0)
    throw new InputError(
      `question "${questionId}" is not in the results file${dataset ? ` (dataset ${dataset})` : ''}`,
      file,
    );
  if (new Set(matching.map((q) => q.dataset)).size > 1)
    throw new InputError(`question "${questionId}" is in several datasets; choose one with --dataset`, file);
  return matching[0]!;
}

/** Every stored method's retrieval and answer for the question; `methods`, when given, must all be stored. */
async function storedRetrievals(
  store: Store,
  file: string,
  dataset: string,
  questionId: string,
  methods: readonly string[] | undefined,
) {
  const rows = await store.query<{
    run_id: string;
    method: string;
    route: string | null;
    predicted_type: string | null;
    no_memory: boolean;
    unit_ids: string[];
    context: string | null;
    error: string | null;
    answer: string | null;
    judge_verdicts: string | null;
    answer_error: string | null;
  }>(
    `SELECT r.run_id, r.method, r.route, r.predicted_type, r.no_memory, r.unit_ids, r.context, r.error, a.answer, a.judge_verdicts, a.error AS answer_error
     FROM retrievals r LEFT JOIN answers a ON a.run_id = r.run_id AND a.dataset = r.dataset AND a.question_id = r.question_id AND a.method = r.method
     WHERE r.dataset = $1 AND r.question_id = $2 ORDER BY r.run_id, r.method`,
    [dataset, questionId],
  );
  if (methods && methods.length > 0) {
    const known = [...new Set(rows.map((r) => r.method))];
    const unknown = methods.filter((m) => !known.includes(m));
    if (unknown.length > 0)
      throw new InputError(
        `--methods: ${unknown.join(', ')} not stored for question "${questionId}" (its methods: ${known.join(', ')})`,
        file,
      );
  }
  return rows;
}

export async function loadStoredCase(
  file: string,
  questionId: string,
  dataset?: string,
  methods?: readonly string[],
): Promise<StoredCase> {
  const store = await openResultStore(file, { readOnly: true });
  try {
    const q = await storedQuestion(store, file, questionId, dataset);
    const degraded = new Map(
      (
        await store.query<{ run_id: string; method: string; degraded: string | null }>(
          'SELECT run_id, method, degraded FROM methods',
        )
      ).map((m) => [`${m.run_id}\t${m.method}`, m.degraded]),
    );
    const rows = await storedRetrievals(store, file, q.dataset, questionId, methods);
    const scores = await store.query<{
      run_id: string;
      method: string;
      level: string;
      metric: string;
      k: number | null;
      value: number;
    }>(
      `SELECT run_id, method, level, metric, k, value FROM scores WHERE dataset = $1 AND question_id = $2 AND counted ORDER BY level, metric, k`,
      [q.dataset, questionId],
    );
    return {
      file,
      dataset: q.dataset,
      question: { id: questionId, text: q.text, askedAt: q.asked_at },
      gold: {
        adaptType: q.adapt_type,
        nativeType: q.native_type,
        isAbstention: q.is_abstention,
        answer: q.answer,
        evidenceSessionIds: q.evidence_session_ids,
      },
      methods: rows
        .filter((r) => !methods || methods.length === 0 || methods.includes(r.method))
        .map((r) => ({
          run: r.run_id,
          method: r.method,
          degraded: degraded.get(`${r.run_id}\t${r.method}`) ?? null,
          route: r.route,
          predictedType: r.predicted_type,
          noMemory: r.no_memory,
          unitIds: r.unit_ids,
          context: r.context,
          error: r.error,
          answer: r.answer,
          verdicts: r.judge_verdicts === null ? null : verdictsOf(r.judge_verdicts),
          answerError: r.answer_error,
          scores: scores
            .filter((s) => s.run_id === r.run_id && s.method === r.method)
            .map((s) => ({ level: s.level, metric: s.metric, k: s.k, value: s.value })),
        })),
    };
  } finally {
    await store.close();
  }
}

const RULE = '─'.repeat(100);

export function formatStoredCase(c: StoredCase, opts: { context?: boolean } = {}): string {
  const out = [
    `results ${c.file} · dataset ${c.dataset} · question ${c.question.id}`,
    `asked at ${c.question.askedAt}`,
    `Q: ${c.question.text}`,
  ];
  const runs = new Set(c.methods.map((m) => m.run));
  for (const m of c.methods) {
    out.push(
      '',
      RULE,
      `METHOD ${m.method}${m.degraded ? ` (${m.degraded})` : ''}${runs.size > 1 ? `   (run ${m.run})` : ''}`,
      RULE,
    );
    if (m.error) {
      out.push(`error: ${m.error}`);
      continue;
    }
    out.push(
      `predicted type: ${m.predictedType ?? '–'}    route: ${m.route ?? '–'}    no memory: ${m.noMemory ? 'yes' : 'no'}`,
    );
    out.push(
      `ranked units (${m.unitIds.length}): ${m.unitIds.slice(0, 10).join(', ')}${m.unitIds.length > 10 ? ', …' : ''}`,
    );
    out.push(`answer: ${m.answerError ? `error: ${m.answerError}` : (m.answer ?? '– (no reader in this run)')}`);
    out.push(`verdict: ${m.verdicts === null ? '–' : m.verdicts.length === 0 ? 'not judged' : m.verdicts.join(', ')}`);
    const shown = m.scores.filter((s) => s.level === 'qa' || s.k === 10 || s.k === 5);
    out.push(
      `scores: ${shown.map((s) => `${s.metric}${s.k === null ? '' : `@${s.k}`} ${s.value.toFixed(2)}`).join('  ') || '–'}`,
    );
    if (opts.context === false) {
      out.push(
        `context: not shown (--no-context; ${m.context === null ? 'not stored' : `${m.context.length} characters`})`,
      );
    } else {
      out.push('context (as stored):');
      out.push(
        ...(m.context ?? '(not stored: the run had no reader and storeContext was off)')
          .split('\n')
          .map((l) => `  │ ${l}`),
      );
    }
  }
  out.push('', '═'.repeat(100), 'GOLD', '═'.repeat(100));
  out.push(
    `type: ${c.gold.adaptType} (native ${c.gold.nativeType})    abstention: ${c.gold.isAbstention ? 'yes' : 'no'}`,
  );
  out.push(`answer: ${c.gold.answer}`, `evidence sessions: ${c.gold.evidenceSessionIds.join(', ') || '–'}`);
  return out.join('\n');
}
