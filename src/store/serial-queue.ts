/**
 * A promise queue that runs tasks one at a time in call order. The store sends every use of its single DuckDB
 * connection through one queue, so the runner may write several questions concurrently without their
 * transactions interleaving on the connection.
 */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();

  /** Runs `task` after every task queued before it has settled; its result or error goes to this caller only. */
  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task);
    // The chain must survive a failed task; the failure is still delivered through `result`.
    this.tail = result.catch(() => undefined);
    return result;
  }

  /** Resolves once everything queued so far has settled. */
  async idle(): Promise<void> {
    await this.tail;
  }
}
