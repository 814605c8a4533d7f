/**
 * Child process for kill-resume.test.ts: opens the results file, writes fake questions one transaction each from
 * `start` upward (skipping completed ones), and prints each question id after its COMMIT, until killed or `end`.
 * Usage: tsx kill-writer.fixture.ts <file.duckdb> <start> <end>
 */
import { fakeBatch } from './testing/fake-batch.ts';
import { openResultStore } from './open-store.ts';
import { completedKey } from './types.ts';

const [path, startArg, endArg] = process.argv.slice(2);
if (!path || !startArg || !endArg) throw new Error('usage: kill-writer.fixture.ts <file> <start> <end>');
const METHODS = ['bm25', 'dense', 'adaptmr'];
const store = await openResultStore(path);
await store.upsertRun({
  runId: 'kill',
  name: 'kill',
  configJson: '{}',
  configHash: 'h',
  gitCommit: null,
  gitDirty: null,
  packageVersions: {},
  datasetHashes: {},
  seed: 0,
  startedAt: '2026-01-01T00:00:00Z',
  status: 'running',
});
const done = await store.completedKeys('kill');
for (let i = Number(startArg); i < Number(endArg); i++) {
  if (done.has(completedKey('fake', `q${i}`, METHODS[0] ?? ''))) continue;
  await store.writeQuestion(fakeBatch('kill', i, METHODS));
  process.stdout.write(`q${i}\n`);
}
await store.close();
