/**
 * `llm.budgetUsd`: the most a run may spend on LLM calls, counted at the experiment's price table over every paid
 * call of the run in the results file (earlier invocations included) plus those of this invocation.
 *
 * Before an LLM request is sent its worst-case cost is reserved (prompt tokens counted with the tokenizer, the whole
 * output limit, no cache discount: src/llm/client.ts); a request whose reservation would take the total past the
 * budget is not sent, and from then on none is. The calls already in flight finish and are recorded; the question
 * that asked is left unwritten (src/core/errors.ts `PostponedError`), so a rerun with a larger budget computes it —
 * its earlier replies from the LLM cache, its recorded calls not written twice (paid-calls.ts) — and the file ends
 * with the rows an uninterrupted run writes. Reservations make the stop safe under concurrency: what is in flight can
 * never add up to more than what was reserved for it.
 */
import { PostponedError } from '../../core/errors.ts';
import type { SpendGuard } from '../../llm/spend.ts';
import type { ResultStore } from '../../store/types.ts';

export class BudgetGuard implements SpendGuard {
  private reserved = 0;
  private nextTicket = 1;
  private readonly tickets = new Map<number, number>();
  /** What was refused first, for the summary; undefined while the run is within its budget. */
  private refused: string | undefined;

  private constructor(
    readonly budgetUsd: number,
    /** Paid so far: recorded in the file before this invocation, plus settled calls of this one. */
    private spentUsd: number,
  ) {}

  /** The guard of a run, counting the paid calls the results file already holds for it. */
  static async open(store: ResultStore, runId: string, budgetUsd: number): Promise<BudgetGuard> {
    const [row] = await store.query<{ spent: number | null }>(
      'SELECT sum(cost_usd) AS spent FROM llm_calls WHERE run_id = $1 AND NOT cached',
      [runId],
    );
    return new BudgetGuard(budgetUsd, Number(row?.spent ?? 0));
  }

  get spent(): number {
    return this.spentUsd;
  }

  /** True once a request was refused: the run starts no new question. */
  get stopped(): boolean {
    return this.refused !== undefined;
  }

  reserve(usd: number, what: string): number {
    const ticket = this.tryReserve(usd, what);
    if (ticket === undefined) {
      throw new PostponedError(
        'budget',
        `${what} not sent: it could take the run past llm.budgetUsd $${this.budgetUsd}`,
      );
    }
    return ticket;
  }

  /** As `reserve`, but answers undefined instead of throwing (the batch stage drops the lines that do not fit). */
  tryReserve(usd: number, what: string): number | undefined {
    if (this.refused !== undefined || this.spentUsd + this.reserved + usd > this.budgetUsd) {
      this.refused ??= `${what} (worst case $${usd.toFixed(4)})`;
      return undefined;
    }
    const ticket = this.nextTicket++;
    this.tickets.set(ticket, usd);
    this.reserved += usd;
    return ticket;
  }

  settle(ticket: number, actualUsd: number): void {
    const held = this.tickets.get(ticket);
    if (held === undefined) return;
    this.tickets.delete(ticket);
    this.reserved -= held;
    this.spentUsd += actualUsd;
  }

  /** Adds money spent outside a reservation's settlement (a Batch API batch, folded: src/run/spend/batch-stage.ts). */
  addSpent(usd: number): void {
    this.spentUsd += usd;
  }

  /** The summary's line once stopped, else undefined. */
  describe(): string | undefined {
    if (this.refused === undefined) return undefined;
    return (
      `stopped by llm.budgetUsd $${this.budgetUsd}: $${this.spentUsd.toFixed(4)} spent (this run, all invocations); ` +
      `not sent: ${this.refused}. Rerun with a larger llm.budgetUsd to continue from here`
    );
  }
}
