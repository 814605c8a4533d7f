/**
 * A compute worker thread: builds the experiment's methods and embedder itself (same config, same registries, no
 * shared state), reads its share of the dataset — folder files claimed one at a time, or array-file records the
 * runner posts — and for each selected question runs `computeQuestion` and posts the rows to the runner, which
 * writes them. Decoding (gunzip, JSON.parse), indexing and ranking thus run on every core, and only the small
 * result rows cross threads, never a haystack.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { errorMessage, InputError } from '../../core/errors.ts';
import { parseJsonBytes, readSourceRecordsSync, type DataIssue, type RawRecord } from '../../data/index.ts';
import { embedders, useWordVectorsSlot } from '../../index/index.ts';
import { installBenchmarks } from '../benchmark-registry.ts';
import { createMethods } from '../methods/create-methods.ts';
import { IndexCache } from '../index-cache.ts';
import { computeRecord, unreadData, type ComputeState } from '../run-dataset.ts';
import type { FromWorker, ToWorker, WorkerInit, WorkerStart } from './protocol.ts';

const port = parentPort!;
const send = (m: FromWorker): void => port.postMessage(m);

/**
 * Messages in arrival order: `init` (a worker started before the experiment was read) and `start` are taken here,
 * record messages are queued until `runRecords` consumes them (the port delivers as soon as it is listened to).
 */
const inbox: ToWorker[] = [];
let deliver: ((m: ToWorker) => void) | undefined;
port.on('message', (m: ToWorker) => (deliver ? deliver(m) : inbox.push(m)));
function nextMessage(): Promise<ToWorker> {
  const queued = inbox.shift();
  if (queued) return Promise.resolve(queued);
  return new Promise((resolve) => {
    deliver = (m) => {
      deliver = undefined;
      resolve(m);
    };
  });
}

/** The experiment and dataset: given at start, or — a worker started early (spawn.ts `prewarmComputeWorker`) — sent. */
async function receiveInit(): Promise<WorkerInit> {
  const m = await nextMessage();
  if (m.type !== 'init') throw new Error(`compute worker: expected the init message, got ${m.type}`);
  return m.init;
}
// The benchmarks' readers, loaded while the experiment is still being read (a pre-warmed worker).
await installBenchmarks();
const init: WorkerInit = (workerData as WorkerInit | null) ?? (await receiveInit());
const unwritten = new Int32Array(init.unwritten);
const selected = new Set(init.selected);
const issues: DataIssue[] = [];
if (init.wordVectors) useWordVectorsSlot(init.wordVectors);

async function setUp(start: Promise<WorkerStart>): Promise<ComputeState> {
  const { config } = init;
  const methods = await createMethods(config, init.path, init.configHash);
  // No embedding cache here: only uncached embedders run in workers (parallel/eligible.ts).
  const embedder = await embedders.create(config.embedder.name, config.embedder.options, {}, `${init.path}: embedder`);
  const specs = new Set(config.methods.map((m) => JSON.stringify(m.index))).size;
  const { done, retry } = await start;
  return {
    config,
    runId: init.runId,
    methods,
    done: new Set(done),
    retry: new Set(retry),
    indexes: new IndexCache(embedder, 2 * specs),
    llm: undefined,
  };
}

async function awaitStart(): Promise<WorkerStart> {
  const m = await nextMessage();
  if (m.type !== 'start') throw new Error(`compute worker: expected the start message, got ${m.type}`);
  return m;
}

/** Waits (blocking this thread only) while the writer is behind, so unwritten rows stay bounded. */
function waitForWriter(): void {
  for (let v = Atomics.load(unwritten, 0); v >= init.maxUnwritten; v = Atomics.load(unwritten, 0)) {
    Atomics.wait(unwritten, 0, v, 200);
  }
}

async function processRecord(state: ComputeState, record: RawRecord): Promise<void> {
  for await (const { batch, failed } of computeRecord(init.source, record, selected, state, issues, waitForWriter)) {
    if (!batch) {
      send({ type: 'skipped' });
      continue;
    }
    Atomics.add(unwritten, 0, 1);
    send({ type: 'batch', batch, failed });
  }
}

async function runFolder(state: ComputeState, files: string[]): Promise<void> {
  const next = new Int32Array(init.nextFile);
  const parse = unreadData(state.methods);
  for (let i = Atomics.add(next, 0, 1); i < files.length; i = Atomics.add(next, 0, 1)) {
    for (const record of readSourceRecordsSync(init.source, files[i]!, parse)) await processRecord(state, record);
  }
}

/** Array files: records arrive as JSON bytes from the runner, which reads and splits the file. */
async function runRecords(state: ComputeState): Promise<void> {
  const parse = unreadData(state.methods);
  for (let m = await nextMessage(); m.type !== 'end'; m = await nextMessage()) {
    if (m.type !== 'record') throw new Error(`compute worker: unexpected ${m.type} message`);
    let raw: unknown;
    try {
      raw = parseJsonBytes(m.bytes, parse);
    } catch (err) {
      throw new InputError(`not valid JSON in element ${m.index} (${errorMessage(err)})`, m.file);
    }
    await processRecord(state, { raw, file: m.file, index: m.index });
    send({ type: 'record-done' });
  }
}

const started = awaitStart();
started.catch(() => undefined); // a failing setUp is reported first; this only keeps the rejection handled
try {
  const state = await setUp(started);
  send({ type: 'ready' });
  if (init.files) await runFolder(state, init.files);
  else await runRecords(state);
  send({ type: 'done', issues });
} catch (err) {
  send({
    type: 'failed',
    message: err instanceof Error && !(err instanceof InputError) ? (err.stack ?? err.message) : errorMessage(err),
    input: err instanceof InputError,
  });
}
port.close();
