/**
 * A judge's independent requests (its repeats, the items of a rubric) sent together rather than one after another. In
 * a synchronous run they share the scheduler's concurrency; in a Batch API run every one of them is queued in the
 * same pass (a postponed request rejects, but only after its siblings were handed to the queue too), so n repeats
 * cost one batch round instead of n. Results keep the order of `tasks`; the first failure is rethrown once all
 * have settled, so no request is left running unobserved.
 */
export async function allInOrder<T>(tasks: readonly (() => Promise<T>)[]): Promise<T[]> {
  const settled = await Promise.allSettled(tasks.map((t) => t()));
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((s) => (s as PromiseFulfilledResult<T>).value);
}
