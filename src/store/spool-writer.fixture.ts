/**
 * Child process for spool.test.ts: a run writing its questions to a row spool, as `adaptmr run` does for a new
 * results file. Writes fake questions `start`…`end` one group each, printing each id once it is on disk; then, with
 * `hold`, waits (writer open) until killed, else closes the spool without folding it (a run killed just before).
 * Usage: tsx spool-writer.fixture.ts <file.duckdb> <start> <end> [hold]
 */
import { fakeBatch } from './testing/fake-batch.ts';
import { SpoolWriter } from './spool.ts';

const [path, startArg, endArg, hold] = process.argv.slice(2);
if (!path || !startArg || !endArg) throw new Error('usage: spool-writer.fixture.ts <file> <start> <end> [hold]');
const METHODS = ['bm25', 'dense'];
const run = {
  runId: 'spooled',
  name: 'spooled',
  configJson: '{}',
  configHash: 'h',
  gitCommit: null,
  gitDirty: null,
  packageVersions: {},
  datasetHashes: {},
  seed: 0,
  startedAt: '2026-01-01T00:00:00Z',
  status: 'running' as const,
};
const spool = SpoolWriter.create(
  path,
  { run, methods: [], checkpoints: [{ method: '(run)', key: 'warmup', value: '{}' }] },
  5,
);
for (let i = Number(startArg); i < Number(endArg); i++) {
  const written = spool.writeQuestion(fakeBatch('spooled', i, METHODS));
  spool.commitQueued();
  await written;
  process.stdout.write(`q${i}\n`);
}
if (hold) setInterval(() => {}, 1000);
else await spool.close();
