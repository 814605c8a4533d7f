/**
 * The LLM cache when its files are not what the client wrote: a damaged entry (cut short, a byte changed so it is no
 * longer UTF-8, another key's entry copied over it) is a miss — the call is made again and, in read-write mode, the
 * entry is rewritten — never an error row. A cache folder that cannot take writes but holds every reply (a shared
 * copy on a read-only mount) is refused in read-write mode with a message naming `llm.cache.mode: read-only`, and
 * in that mode serves every reply without a request (the read-only mount is real: root only, as in CI).
 */
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLlmProvider } from './provider.ts';
import { startFakeOpenAiServer, type FakeOpenAiServer } from './testing/fake-openai-server.ts';

const dir = mkdtempSync(join(tmpdir(), 'adaptmr-cache-damage-'));
let server: FakeOpenAiServer;
beforeAll(async () => {
  server = await startFakeOpenAiServer({ chat: (b) => `echo: ${b.messages.at(-1)?.content ?? ''}` });
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const CHAT = '/v1/chat/completions';
const reader = (cacheDir: string, mode: 'read-write' | 'read-only' = 'read-write') =>
  createLlmProvider(
    { cache: { mode, dir: cacheDir }, maxRetries: 0, roles: { reader: { baseURL: server.baseURL, model: 'r' } } },
    {},
  ).forRole('reader');
const ask = (llm: ReturnType<typeof reader>, text: string) =>
  llm.chat({ messages: [{ role: 'user', content: text }] }, { stage: 'reader', calls: [] });
const entries = (cacheDir: string): string[] =>
  readdirSync(join(cacheDir, 'llm'), { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.json'))
    .map((f) => join(cacheDir, 'llm', f))
    .sort();

describe('a damaged cache entry', () => {
  it('is a miss: the call is made again and the entry rewritten, whatever the damage', async () => {
    const cacheDir = join(dir, 'damaged');
    const llm = reader(cacheDir);
    await ask(llm, '巴黎 one');
    await ask(llm, 'two');
    const files = entries(cacheDir);
    const one = files.find((f) => readFileSync(f, 'utf8').includes('巴黎 one'));
    const two = files.find((f) => f !== one);
    const damages: [string, () => void][] = [
      ['cut short', () => truncateSync(one!, 40)],
      [
        'a byte that is not UTF-8',
        () => {
          const b = readFileSync(one!);
          b[b.indexOf(Buffer.from('巴'))] = 0xff;
          writeFileSync(one!, b);
        },
      ],
      ["another key's entry", () => copyFileSync(two!, one!)],
      ['not JSON', () => writeFileSync(one!, '{"version":1,')],
    ];
    for (const [what, damage] of damages) {
      damage();
      server.reset();
      const r = await ask(reader(cacheDir), '巴黎 one');
      expect(r.text, what).toBe('echo: 巴黎 one');
      expect(r.cached, what).toBe(false);
      expect(server.count(CHAT), what).toBe(1);
      // Rewritten: served from the cache again.
      const again = await ask(reader(cacheDir), '巴黎 one');
      expect(again.cached, what).toBe(true);
    }
  });
});

/** A read-only mount of a copy of `from` (root only), or the reason there is none. */
function readOnlyCopy(from: string, at: string): string | undefined {
  mkdirSync(at, { recursive: true });
  const m = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', at], { encoding: 'utf8' });
  if (m.status !== 0) return `cannot mount a tmpfs (${(m.stderr || 'mount failed').trim()}); runs as root, as in CI`;
  spawnSync('cp', ['-r', join(from, 'llm'), at]);
  spawnSync('mount', ['-o', 'remount,ro', at]);
  return undefined;
}

const full = join(dir, 'full');
const mounted = join(dir, 'ro');
const reason = process.platform === 'linux' ? undefined : 'read-only mounts need Linux';

describe.skipIf(reason !== undefined)('a read-only cache folder that holds every reply', () => {
  let cannot: string | undefined;
  beforeAll(async () => {
    const llm = reader(full);
    for (const q of ['a', 'b', 'c']) await ask(llm, q);
    cannot = readOnlyCopy(full, mounted);
  });
  afterAll(() => {
    if (cannot === undefined) spawnSync('umount', [mounted]);
  });

  it('is refused in read-write mode naming llm.cache.mode: read-only, and serves every reply in that mode', async (ctx) => {
    if (cannot !== undefined) ctx.skip(cannot);
    expect(() => reader(mounted)).toThrow(
      /LLM cache folder is not writable \(read-only file system \(EROFS\)\).*set llm\.cache\.mode: read-only to use the replies it holds/u,
    );
    server.reset();
    const llm = reader(mounted, 'read-only');
    for (const q of ['a', 'b', 'c']) expect((await ask(llm, q)).cached).toBe(true);
    expect(server.count(CHAT)).toBe(0);
  });
});
