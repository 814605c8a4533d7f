// The lock is enforced where a dataset is read: `adaptmr run` on a locked BEAM tier whose chat changed, or that holds
// a chat folder the lock never listed, is refused before any work, as `data info` refuses it; a lock file cut short
// is one line naming it; `--allow-unlocked` runs anyway, records what differs in the run's provenance, and every
// report form marks the run.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InputError } from '../core/errors.ts';
import { runSummary } from '../report/summary.ts';
import { parseExperiment } from '../run/config/load-config.ts';
import { runExperiment } from '../run/runner.ts';
import { openResultStore } from '../store/index.ts';
import { sha256File } from './hash.ts';
import { listingSha256, lockPath, writeLockEntry, type LockedFile } from './lock.ts';

const root = mkdtempSync(join(tmpdir(), 'adaptmr-lock-check-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const chat = (text: string) => [
  {
    batch_number: 1,
    time_anchor: null,
    turns: [
      [
        { role: 'user', id: 0, content: text, time_anchor: 'March-15-2024' },
        { role: 'assistant', id: 1, content: '好的。' },
      ],
    ],
  },
];
const questions = {
  information_extraction: [
    { question: 'Where do I live?', difficulty: 'easy', rubric: ['state: Paris'], source_chat_ids: [0] },
  ],
};

/** A BEAM 100K tier of `n` chats under a fresh data dir, locked as `data pull` would lock the first `locked`. */
async function lockedTier(n: number, locked: number): Promise<{ dataDir: string; tier: string }> {
  const dataDir = mkdtempSync(join(root, 'data-'));
  const tier = join(dataDir, 'beam', 'chats', '100K');
  for (let i = 1; i <= n; i++) {
    mkdirSync(join(tier, String(i), 'probing_questions'), { recursive: true });
    writeFileSync(join(tier, String(i), 'chat.json'), JSON.stringify(chat(`I live in Paris, 住在巴黎 ${i}.`)));
    writeFileSync(join(tier, String(i), 'probing_questions', 'probing_questions.json'), JSON.stringify(questions));
  }
  const files: LockedFile[] = [];
  for (let i = 1; i <= locked; i++)
    for (const rel of [`${i}/chat.json`, `${i}/probing_questions/probing_questions.json`]) {
      const d = await sha256File(join(tier, rel));
      files.push({ path: rel, sha256: d.sha256, bytes: d.bytes });
    }
  await writeLockEntry(dataDir, {
    dataset: 'beam-100k',
    repo: 'mohammadtavakoli78/BEAM',
    revision: 'main',
    commit: 'b2a3ee8ba12d68f83143dda191097dc3e028ddd3',
    path: 'beam/chats/100K',
    sha256: listingSha256(files),
    bytes: files.reduce((s, f) => s + f.bytes, 0),
    fetchedAt: '2026-01-01T00:00:00Z',
    files,
  });
  return { dataDir, tier };
}

const experiment = (name: string) =>
  parseExperiment(
    `name: ${name}\ndatasets: [{ name: beam-100k }]\nmethods: [{ id: bm25, method: bm25, k: 1 }]\n`,
    `${name}.yaml`,
  );

async function run(name: string, dataDir: string, allowUnlocked = false) {
  const out = join(root, `${name}.duckdb`);
  const summary = await runExperiment(experiment(name), {
    out,
    dataDir,
    allowUnlocked,
    progress: false,
    log: () => {},
  });
  return { out, summary };
}

describe('the lock file, enforced by run', () => {
  it('runs a tier that matches its lock', async () => {
    const { dataDir } = await lockedTier(2, 2);
    expect((await run('ok', dataDir)).summary.written).toBe(2);
  });

  it('refuses a changed chat, naming the file and the lock file', async () => {
    const { dataDir, tier } = await lockedTier(2, 2);
    writeFileSync(join(tier, '2', 'chat.json'), JSON.stringify(chat('I live in Rome.')));
    const err = await run('changed', dataDir).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect((err as Error).message).toMatch(/adaptmr-data\.lock\.json \(2\/chat\.json \(sha256 differs\)\)/);
    expect((err as Error).message).toMatch(/--allow-unlocked/);
    expect((err as Error).message).not.toContain('\n');
  });

  it('refuses a chat folder the lock never listed', async () => {
    const { dataDir } = await lockedTier(3, 2);
    await expect(run('extra', dataDir)).rejects.toThrow(/3\/chat\.json \(not in the lock file\)/);
  });

  it('says in one line that a lock file cut short cannot be read', async () => {
    const { dataDir } = await lockedTier(2, 2);
    writeFileSync(lockPath(dataDir), readFileSync(lockPath(dataDir)).subarray(0, 300));
    const err = await run('cut', dataDir).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect((err as Error).message).toMatch(/adaptmr-data\.lock\.json: the lock file is not valid JSON/);
  });

  it('--allow-unlocked runs, records the difference in provenance, and the summary marks the run', async () => {
    const { dataDir } = await lockedTier(3, 2);
    const { out, summary } = await run('allowed', dataDir, true);
    expect(summary.written).toBe(3);
    const store = await openResultStore(out, { readOnly: true });
    const [row] = await store.query<{ h: string }>('SELECT dataset_hashes AS h FROM runs');
    await store.close();
    expect(JSON.parse(row!.h)['beam-100k'].unlocked).toEqual([
      expect.stringMatching(/3\/chat\.json \(not in the lock file\)$/),
      expect.stringMatching(/3\/probing_questions\/probing_questions\.json \(not in the lock file\)$/),
    ]);
    expect(await runSummary(out)).toMatch(/^WARNING — UNLOCKED DATA: .*\n {2}run .*beam-100k: 2 file\(s\)/);
  });
});
