/**
 * Admission control shared by every role of one provider: at most `concurrency` requests in flight (p-limit) and,
 * optionally, request starts spaced evenly to stay under `requestsPerMinute`. Each HTTP attempt takes a slot;
 * a request waiting out a backoff holds none, so one rate-limited question does not stall the others.
 */
import pLimit, { type LimitFunction } from 'p-limit';
import { sleep } from './backoff.ts';

export class Scheduler {
  private readonly limit: LimitFunction;
  private readonly intervalMs: number;
  private nextStart = 0;

  constructor(concurrency: number, requestsPerMinute?: number) {
    this.limit = pLimit(concurrency);
    this.intervalMs = requestsPerMinute ? 60_000 / requestsPerMinute : 0;
  }

  run<T>(fn: () => Promise<T>): Promise<T> {
    return this.limit(async () => {
      if (this.intervalMs > 0) {
        const now = Date.now();
        const start = Math.max(now, this.nextStart);
        this.nextStart = start + this.intervalMs;
        if (start > now) await sleep(start - now);
      }
      return fn();
    });
  }
}
