/**
 * Durable accounting of paid calls: a question's rows are committed together once it is done, but a call
 * it paid for is recorded the moment it returns — its llm_calls row committed in a transaction of its own, through
 * the sink the clients call (`recordCall`, src/core/calls.ts) — so a run killed mid-question still accounts for every
 * call the endpoint answered. On resume that question is computed again and its earlier replies come from the LLM
 * cache; such a replay of a call already recorded as paid is not written a second time (it is the same call), so
 * llm_calls ends with what one uninterrupted run writes: each paid call once, with `cached = false`.
 */
import { withCallOwner, withPaidCallSink, type CallRecord } from '../../core/calls.ts';
import { completedKey, type LlmCallRow, type ResultStore } from '../../store/types.ts';

type Key = Pick<LlmCallRow, 'dataset' | 'questionId' | 'method'>;
type PriorCall = Pick<CallRecord, 'stage' | 'model' | 'promptTokens' | 'completionTokens'>;

export class PaidCallLedger {
  private constructor(
    private readonly store: ResultStore,
    private readonly runId: string,
    /** Paid calls an earlier (killed) process recorded for (question, method) results not yet complete. */
    private readonly prior: Map<string, PriorCall[]>,
  ) {}

  /** Loads the paid calls recorded for the run's incomplete results (`done` = complete keys). */
  static async open(store: ResultStore, runId: string, done: ReadonlySet<string>): Promise<PaidCallLedger> {
    const rows = await store.query<{
      dataset: string;
      question_id: string;
      method: string;
      stage: string;
      model: string;
      p: number;
      c: number;
    }>(
      `SELECT dataset, question_id, method, stage, model, prompt_tokens AS p, completion_tokens AS c
       FROM llm_calls WHERE run_id = $1 AND NOT cached AND error IS NULL`,
      [runId],
    );
    const prior = new Map<string, PriorCall[]>();
    for (const r of rows) {
      const key = completedKey(r.dataset, r.question_id, r.method);
      if (done.has(key)) continue;
      const list = prior.get(key) ?? [];
      list.push({ stage: r.stage, model: r.model, promptTokens: Number(r.p), completionTokens: Number(r.c) });
      prior.set(key, list);
    }
    return new PaidCallLedger(store, runId, prior);
  }

  /**
   * The `calls` list for one (question, method), whose paid calls are committed as they return, and the function
   * giving the rows still to write with the question: calls not yet recorded, minus replays of recorded ones.
   */
  open(key: Key): { calls: CallRecord[]; batchRows: () => LlmCallRow[] } {
    const recorded = new Set<CallRecord>();
    const calls = withCallOwner(
      withPaidCallSink([], async (record) => {
        await this.store.writeCalls(this.runId, [{ ...key, ...record }]);
        recorded.add(record);
      }),
      key,
    );
    const prior = this.prior.get(completedKey(key.dataset, key.questionId, key.method)) ?? [];
    const batchRows = (): LlmCallRow[] =>
      calls.filter((c) => !recorded.has(c) && !(c.cached && consumeReplay(prior, c))).map((c) => ({ ...key, ...c }));
    return { calls, batchRows };
  }
}

/** Whether `call` (a cache hit) replays a recorded paid call: same stage, model and token counts; that one is used up. */
function consumeReplay(prior: PriorCall[], call: CallRecord): boolean {
  const i = prior.findIndex(
    (p) =>
      p.stage === call.stage &&
      p.model === call.model &&
      p.promptTokens === call.promptTokens &&
      p.completionTokens === call.completionTokens,
  );
  if (i < 0 || call.error !== undefined) return false;
  prior.splice(i, 1);
  return true;
}

/** Without a results file: a plain list, every call written with the question. */
export function plainCalls(key: Key): { calls: CallRecord[]; batchRows: () => LlmCallRow[] } {
  const calls = withCallOwner([], key);
  return { calls, batchRows: () => calls.map((c) => ({ ...key, ...c })) };
}
