/**
 * Starting a compute worker thread and holding its events until the pool listens. Kept apart from pool.ts, which
 * imports the whole compute pipeline: `adaptmr run` imports this module first, to start one worker before it even
 * reads the experiment (`prewarmComputeWorker`), so the worker's ~0.15 s of module loading overlaps the runner's.
 */
import { Worker } from 'node:worker_threads';
import type { FromWorker, ToWorker, WorkerInit } from './protocol.ts';

/**
 * Young-generation size of a worker's heap. V8's default lets each worker's heap grow by ~100 MB while it parses
 * haystacks that are garbage a few milliseconds later; 8 MB keeps a worker near 60–80 MB for the same CPU time
 * (measured on LongMemEval S: peak RSS 431 → 336 MB with two workers, user CPU within noise).
 */
const YOUNG_GENERATION_MB = 8;

/**
 * The worker script: compiled JavaScript beside this module (dist/src/run/parallel/, or dist/bundle/, where the
 * bundle writes its worker entry next to every chunk: scripts/bundle.mjs), or the TypeScript source loaded through
 * tsx (tests, dev). Without `init` the worker waits for an `init` message (a prewarmed worker).
 */
export function startWorker(init: WorkerInit | undefined): Worker {
  const self = import.meta.url;
  const resourceLimits = { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB };
  const workerData = init ?? null;
  if (!self.endsWith('.ts')) return new Worker(new URL('./worker.js', self), { workerData, resourceLimits });
  const entry = new URL('./worker.ts', self).href;
  const tsx = import.meta.resolve('tsx/esm/api');
  const boot = `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(entry)}); })`;
  return new Worker(boot, { eval: true, workerData, resourceLimits });
}

type WorkerEvent = { kind: 'message'; m: FromWorker } | { kind: 'error'; err: Error } | { kind: 'exit'; code: number };

/** A worker's events, kept from its start until the runner listens (a worker may fail or exit while booting). */
export class Mailbox {
  private readonly queue: WorkerEvent[] = [];
  private handler: ((e: WorkerEvent) => void) | undefined;

  constructor(readonly worker: Worker) {
    worker.on('message', (m: FromWorker) => this.push({ kind: 'message', m }));
    worker.on('error', (err) => this.push({ kind: 'error', err }));
    worker.on('exit', (code) => this.push({ kind: 'exit', code }));
  }

  listen(handler: (e: WorkerEvent) => void): void {
    this.handler = handler;
    for (const e of this.queue.splice(0)) handler(e);
  }

  private push(e: WorkerEvent): void {
    if (this.handler) this.handler(e);
    else this.queue.push(e);
  }
}

/**
 * A compute worker started before the experiment is read (`adaptmr run`, unless `--workers 0`): loading its modules
 * takes ~0.15 s, which then overlaps the runner reading the config, the questions and its own modules instead of
 * coming after them. The first pool adopts it; a run that uses no workers (LLM calls, few questions) terminates
 * it. Unreferenced until adopted, so it never keeps the process alive.
 */
let warm: Mailbox | undefined;

export function prewarmComputeWorker(): void {
  if (warm) return;
  warm = new Mailbox(startWorker(undefined));
  warm.worker.unref();
}

export function adoptWarmWorker(init: WorkerInit): Mailbox | undefined {
  const box = warm;
  warm = undefined;
  box?.worker.ref();
  box?.worker.postMessage({ type: 'init', init } satisfies ToWorker);
  return box;
}

/** Terminates the prewarmed worker if no pool adopted it. */
export async function releaseWarmWorker(): Promise<void> {
  const box = warm;
  warm = undefined;
  await box?.worker.terminate();
}
