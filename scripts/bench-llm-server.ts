/**
 * Worker-thread host of the loopback fake OpenAI server for scripts/bench-llm.ts, so the server's own CPU (HTTP
 * parsing, JSON, timers) is not spent on the event loop of the client being measured — as with a real endpoint,
 * which runs elsewhere. workerData: { delayMs }. Posts { baseURL } once listening; 'close' closes the server and
 * ends the thread.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { startFakeOpenAiServer } from '../src/llm/testing/fake-openai-server.ts';

const server = await startFakeOpenAiServer({ delayMs: (workerData as { delayMs: number }).delayMs });
parentPort!.on('message', (m: string) => {
  if (m === 'close') void server.close().then(() => parentPort!.close());
});
parentPort!.postMessage({ baseURL: server.baseURL });
