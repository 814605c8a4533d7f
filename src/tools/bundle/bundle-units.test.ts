// The parts of a results bundle that need no dataset: the vendored Every Eval Ever schemas (bytes pinned), an
// instance line with Chinese text validating, Ed25519 signing and its failures, deterministic UUIDv4 names, image
// pinning (`:latest` refused), verify's exact comparison, and the board's grouping reasons and escaping.
import { generateKeyPairSync } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { PACKAGE_ROOT } from '../../core/package-root.ts';
import { sha256 } from '../../core/hash.ts';
import type { BoardEntry } from '../board/entries.ts';
import { groupEntries } from '../board/groups.ts';
import { boardPage } from '../board/page.ts';
import { firstDifference } from '../verify/checks.ts';
import { instanceLine } from './eee-instance.ts';
import { eeeValidators, SCHEMA_DIR } from './eee-schema.ts';
import { evaluationUuid } from './ids.ts';
import { recordedCommand } from './commands.ts';
import { checkPinned, DIGEST, imageRecords } from './images.ts';
import type { MethodFact } from './load-results.ts';
import { loadSigningKey, publicKeyInfo, SIGNING_KEY_ENV, signatureValid, signManifest } from './sign.ts';

const saved = process.env[SIGNING_KEY_ENV];
afterEach(() => {
  if (saved === undefined) delete process.env[SIGNING_KEY_ENV];
  else process.env[SIGNING_KEY_ENV] = saved;
});

describe('Every Eval Ever schemas', () => {
  it('are the upstream files of evaleval/every_eval_ever@9bce4136, byte for byte (sha256 from git show)', () => {
    const hash = (f: string) => sha256(readFileSync(join(SCHEMA_DIR, f)));
    expect(hash('eval.schema.json')).toBe('215f04c9a0d7a13f83c49ccd85f97018f39ad1e49af7a3a561841418e9ee08c9');
    expect(hash('instance_level_eval.schema.json')).toBe(
      'b16b7fa7f0aa32763444179d94ffb2336ddb12c3fd2903835fe491666c1ff3e6',
    );
  });

  const line = instanceLine({
    key: { runId: 'r', dataset: 'memdaily', method: 'bm25' },
    question: {
      run_id: 'r',
      dataset: 'memdaily',
      question_id: 'q1',
      text: '我上周三在哪里吃的午饭？',
      asked_at: '2024-05-01',
      native_type: 'simple',
      adapt_type: 'factual',
      is_abstention: false,
      evidence_session_ids: ['s1'],
      evidence_turn_ids: [],
      answer: '公司食堂',
    },
    retrieval: {
      unit_ids: ['s1', 's2'],
      unit_session_ids: ['s1', 's2'],
      scores: [2.5, 1],
      no_memory: false,
      context: null,
      latency_ms: 3,
      k: 2,
      error: null,
    },
    answer: undefined,
    scores: [{ level: 'session', metric: 'recall_any', k: 1, value: 1, counted: true, excluded_why: null }],
    verdicts: [],
    usage: undefined,
    headline: { level: 'session', metric: 'recall_any', k: 1 },
    evaluationName: 'memdaily recall_any@1 (session level) [all]',
    contentSha256: 'c'.repeat(64),
  });

  it('an instance line with Chinese text validates; the ranked units travel as the tool reply', () => {
    expect(eeeValidators().instance(line)).toBeUndefined();
    expect(JSON.stringify(line)).toContain('我上周三在哪里吃的午饭？');
    const tool = (line.messages as { role: string; content: string }[]).find((m) => m.role === 'tool')!;
    expect((JSON.parse(tool.content) as { units: { id: string }[] }).units.map((u) => u.id)).toEqual(['s1', 's2']);
    expect((line.evaluation as { score: number }).score).toBe(1);
  });

  it('a line with a field the schema does not have is refused, naming it', () => {
    expect(eeeValidators().instance({ ...line, gold: 'x' })).toMatch(/additional properties \(gold\)/u);
  });
});

describe('signing', () => {
  const { privateKey } = generateKeyPairSync('ed25519');
  const other = generateKeyPairSync('ed25519').privateKey;
  const bytes = Buffer.from('{"a":1}\n');

  it('signs and verifies with one key; another key or one changed byte fails', () => {
    const sig = signManifest(bytes, privateKey);
    expect(signatureValid(bytes, sig, publicKeyInfo(privateKey).publicKey)).toBe(true);
    expect(signatureValid(bytes, sig, publicKeyInfo(other).publicKey)).toBe(false);
    expect(signatureValid(Buffer.from('{"a":2}\n'), sig, publicKeyInfo(privateKey).publicKey)).toBe(false);
    expect(publicKeyInfo(privateKey).fingerprint).toMatch(/^[0-9a-f]{64}$/u);
  });

  it('never records the key in the manifest command, whatever the flag holds', () => {
    const pem = String(privateKey.export({ type: 'pkcs8', format: 'pem' }));
    const line = recordedCommand(['bundle', 'r.duckdb', '--out', 'b', '--sign-key', pem, `--sign-key=${pem}`]);
    expect(line).toBe('adaptmr bundle r.duckdb --out b --sign-key <key> --sign-key=<key>');
  });

  it('reads the key from ADAPTMR_SIGNING_KEY as PEM text; refuses a non-Ed25519 key; none means unsigned', () => {
    delete process.env[SIGNING_KEY_ENV];
    expect(loadSigningKey(undefined)).toBeUndefined();
    process.env[SIGNING_KEY_ENV] = String(privateKey.export({ type: 'pkcs8', format: 'pem' }));
    expect(loadSigningKey(undefined)?.asymmetricKeyType).toBe('ed25519');
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey;
    process.env[SIGNING_KEY_ENV] = String(rsa.export({ type: 'pkcs8', format: 'pem' }));
    expect(() => loadSigningKey(undefined)).toThrow(/an rsa key; a bundle is signed with Ed25519/u);
  });
});

describe('names and pins', () => {
  it('names a result by a deterministic UUIDv4', () => {
    const a = evaluationUuid({ runId: 'r', dataset: 'locomo', method: 'bm25' });
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/u);
    expect(evaluationUuid({ runId: 'r', dataset: 'locomo', method: 'bm25' })).toBe(a);
    expect(evaluationUuid({ runId: 'r', dataset: 'locomo', method: 'bm25x' })).not.toBe(a);
  });

  const mem0: MethodFact = {
    run_id: 'r',
    method: 'mem0',
    kind: 'mem0',
    granularity: 'session',
    k: 10,
    output: 'text',
    upper_bound: false,
    degraded: null,
    capabilities: '{}',
  };
  const configs = new Map([['r', { methods: [{ id: 'mem0', method: 'mem0', options: { api: 'oss' } }] }]]);

  it('refuses a tag without a digest unless --allow-unpinned; accepts a digest', () => {
    const latest = imageRecords([mem0], configs, new Map([['mem0', 'mem0/mem0-api-server:latest']]), new Map());
    expect(latest[0]!.pinned).toBe(false);
    expect(() => checkPinned(latest, false)).toThrow(/mem0\/mem0-api-server:latest \(--image\), not pinned by digest/u);
    expect(() => checkPinned(latest, true)).not.toThrow();
    const pinned = imageRecords(
      [mem0],
      configs,
      new Map([['mem0', `mem0/mem0-api-server@sha256:${'a'.repeat(64)}`]]),
      new Map(),
    );
    expect(pinned[0]!.pinned).toBe(true);
  });

  it("the project's compose file for a method's api is pinned by digest", () => {
    const fromCompose = imageRecords([mem0], configs, new Map(), new Map());
    expect(fromCompose[0]!.source).toBe('compose/mem0.yaml service mem0');
    expect(fromCompose[0]!.pinned).toBe(true);
  });

  it('every image of every compose file is named by digest', () => {
    const dir = join(PACKAGE_ROOT, 'compose');
    const images = readdirSync(dir).flatMap((f) => {
      const doc = parse(readFileSync(join(dir, f), 'utf8')) as { services: Record<string, { image?: string }> };
      return Object.entries(doc.services).map(([name, s]) => `${f} ${name} ${s.image ?? '(build)'}`);
    });
    expect(images.length).toBeGreaterThanOrEqual(6);
    expect(images.filter((i) => !DIGEST.test(i))).toEqual([]);
  });
});

describe("verify's comparison", () => {
  it('is exact and names the path', () => {
    expect(firstDifference({ a: [1, { b: 0.1 + 0.2 }] }, { a: [1, { b: 0.3 }] })).toMatch(
      /^a\[1\]\.b: 0\.30000000000000004 ≠ recomputed 0\.3$/u,
    );
    expect(firstDifference(0, -0)).toBeDefined();
    expect(firstDifference('[1,2]', '[1,3]', 'm')).toBe('m[1]: 2 ≠ recomputed 3');
    expect(firstDifference({ x: 1n }, { x: 1 })).toBeUndefined();
  });
});

describe('board', () => {
  const entry = (bundle: string, method: string, over: Partial<BoardEntry['key']> = {}): BoardEntry => ({
    bundle,
    runId: 'r',
    dataset: 'locomo',
    method,
    flags: [],
    mark: 'unsigned',
    why: '',
    headline: {
      id: 'turn/recall_any@10/',
      name: 'recall_any@10 (turn level)',
      basis: 'at least one evidence turn in the top 10',
    },
    cells: new Map([['all', { mean: 0.5, low: 0.4, high: 0.6, n: 10 }]]),
    key: {
      dataset: 'locomo',
      content_sha256: 'a'.repeat(64),
      questions: 10,
      sample: { perType: 2 },
      k: [10],
      reader: null,
      judges: [],
      ...over,
    },
  });

  it('shares a table only among equal keys and says the first difference of the rest', () => {
    const groups = groupEntries([
      entry('b1', 'bm25'),
      entry('b2', 'rae'),
      entry('b3', 'x', { k: [5] }),
      entry('b4', 'y', { reader: 'gpt-4o-2024-08-06' }),
      entry('b5', 'z', { judges: ['j:gpt-4o-mini-2024-07-18:default'] }),
      entry('b6', 'w', { sample: { perType: 3 } }),
    ]);
    expect(groups[0]!.entries.map((e) => e.method)).toEqual(['bm25', 'rae']);
    expect(groups.slice(1).map((g) => g.apart.split(':')[0])).toEqual([
      'other k',
      'other reader',
      'other judge panel',
      'other sample',
    ]);
  });

  it('escapes what a bundle brings and runs no script', () => {
    const page = boardPage(groupEntries([entry('b1', '<img src=x onerror=alert(1)>')]), '/tmp/board.html', 'now');
    expect(page).not.toContain('<img src=x');
    expect(page).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(page).not.toContain('<script');
  });
});
