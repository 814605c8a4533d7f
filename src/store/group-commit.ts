/**
 * Group commit, shared by the two places a run's question rows go: the DuckDB results file (result-store.ts) and the
 * row spool of a fresh run (spool.ts). Making rows durable costs a sync (a WAL commit, an fdatasync) far above the
 * rows themselves, so the items that arrive while one write is under way, or within `lingerMs` of the first, are
 * written together; each caller's promise settles when its item's group is durable.
 */
import type { SerialQueue } from './serial-queue.ts';

/**
 * Writes one group; resolves with one entry per item, `undefined` for an item written and its error for one that was
 * not (a writer may retry a failed group item by item so that an error reaches only the item that caused it).
 */
export type GroupWriter<T> = (items: readonly T[]) => Promise<readonly unknown[]>;

export class GroupCommit<T> {
  private readonly pending: { item: T; resolve: () => void; reject: (err: unknown) => void }[] = [];
  private lingerTimer: NodeJS.Timeout | undefined;

  constructor(
    /** The writer's one queue: a group is written after whatever the writer queued before it. */
    private readonly queue: SerialQueue,
    private readonly write: GroupWriter<T>,
    private readonly lingerMs: number,
    /** Items per group at most, so one write's memory stays bounded. */
    private readonly maxGroup: number,
  ) {}

  add(item: T): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ item, resolve, reject });
      if (this.pending.length >= this.maxGroup) this.schedule(0);
      else if (this.pending.length === 1) this.schedule(this.lingerMs);
    });
  }

  /** Writes what is queued now, without waiting for more (the producers are done, or the writer closes). */
  flushNow(): void {
    if (this.pending.length > 0 || this.lingerTimer !== undefined) this.schedule(0);
  }

  private schedule(delayMs: number): void {
    clearTimeout(this.lingerTimer);
    this.lingerTimer = undefined;
    const flush = (): void => void this.queue.run(() => this.flushPending());
    if (delayMs === 0) flush();
    else
      this.lingerTimer = setTimeout(() => {
        this.lingerTimer = undefined;
        flush();
      }, delayMs);
  }

  private async flushPending(): Promise<void> {
    const group = this.pending.splice(0, this.maxGroup);
    if (this.pending.length > 0) void this.queue.run(() => this.flushPending());
    if (group.length === 0) return;
    let outcomes: readonly unknown[];
    try {
      outcomes = await this.write(group.map((g) => g.item));
    } catch (err) {
      outcomes = group.map(() => err);
    }
    group.forEach((g, i) => (outcomes[i] === undefined ? g.resolve() : g.reject(outcomes[i])));
  }
}
