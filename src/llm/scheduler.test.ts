// The scheduler under a fake clock (no real timing): request starts spaced by 60 000 / requestsPerMinute ms, and at
// most `concurrency` tasks in flight.
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { Scheduler } from './scheduler.ts';

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
});
afterEach(() => {
  vi.useRealTimers();
});

it('spaces request starts evenly under requestsPerMinute', async () => {
  const s = new Scheduler(8, 60); // one start per 1000 ms
  const starts: number[] = [];
  const all = Promise.all([0, 1, 2].map(() => s.run(async () => void starts.push(Date.now()))));
  await vi.advanceTimersByTimeAsync(5000);
  await all;
  expect(starts).toEqual([0, 1000, 2000]);
});

it('keeps at most `concurrency` tasks in flight', async () => {
  const s = new Scheduler(2);
  let inFlight = 0;
  let peak = 0;
  const task = () =>
    s.run(async () => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      await new Promise((r) => setTimeout(r, 100));
      inFlight--;
    });
  const all = Promise.all(Array.from({ length: 6 }, task));
  await vi.advanceTimersByTimeAsync(1000);
  await all;
  expect(peak).toBe(2);
});
