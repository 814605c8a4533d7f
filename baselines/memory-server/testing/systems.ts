/**
 * The five memory-server APIs as test subjects: how to start each stand-in, the method options pointing at it, and
 * what the stand-in stores (one identifying key per stored message, to count duplicates; the namespaces still there).
 */
import { startMem0OssStandIn, startMem0PlatformStandIn } from '../../mem0/testing/mem0-servers.ts';
import { startGraphitiStandIn, startZepV3StandIn, startZepV4StandIn } from '../../zep/testing/zep-servers.ts';
import type { Loopback } from './loopback.ts';

export const TEST_KEY = 'mem-test-key-7c1e92ab';
export const KEY_ENV = 'ADAPTMR_MEMSERVER_TEST_KEY';

export interface System {
  name: string;
  method: 'mem0' | 'zep';
  api: string;
  output: 'units' | 'text';
  /** Whether the API authenticates (Graphiti does not). */
  auth: boolean;
  start(processingPolls?: number): Promise<Subject>;
}

export interface Subject {
  server: Loopback;
  options: Record<string, unknown>;
  /** One key per stored message (unit id, or batch + text for Mem0). */
  stored(): string[];
  /** Namespaces (users, groups) with something left on the server. */
  namespaces(): string[];
  /** Add requests seen (batches sent). */
  adds(): number;
  setNeverFinish(v: boolean): void;
}

const common = (baseUrl: string, auth: boolean) => ({ baseUrl, ...(auth ? { apiKeyEnv: KEY_ENV } : {}), pollMs: 1 });

export const SYSTEMS: System[] = [
  {
    name: 'mem0 oss',
    method: 'mem0',
    api: 'oss',
    output: 'text',
    auth: true,
    async start() {
      const s = await startMem0OssStandIn(TEST_KEY);
      return {
        server: s,
        options: { api: 'oss', ...common(s.baseUrl, true) },
        stored: () => s.memories.map((m) => `${String(m.metadata.batch)}|${m.memory}`),
        namespaces: () => s.users(),
        adds: () => s.count(/^POST \/memories$/),
        setNeverFinish: () => undefined,
      };
    },
  },
  {
    name: 'mem0 platform',
    method: 'mem0',
    api: 'platform',
    output: 'text',
    auth: true,
    async start(polls) {
      const s = await startMem0PlatformStandIn(TEST_KEY, polls);
      return {
        server: s,
        options: { api: 'platform', ...common(s.baseUrl, true) },
        stored: () => s.memories.map((m) => `${String(m.metadata.batch)}|${m.memory}`),
        namespaces: () => s.users(),
        adds: () => s.count(/^POST \/v3\/memories\/add\/$/),
        setNeverFinish: (v) => void (s.neverFinish = v),
      };
    },
  },
  ...(['v3', 'v4', 'graphiti'] as const).map(
    (api): System => ({
      name: `zep ${api}`,
      method: 'zep',
      api,
      output: 'units',
      auth: api !== 'graphiti',
      async start(polls) {
        const s =
          api === 'v3'
            ? await startZepV3StandIn(TEST_KEY, polls)
            : api === 'v4'
              ? await startZepV4StandIn(TEST_KEY, polls)
              : await startGraphitiStandIn(polls);
        return {
          server: s,
          options: { api, ...common(s.baseUrl, api !== 'graphiti') },
          stored: () =>
            s.episodes.map((e) =>
              api === 'graphiti' ? (e.name ?? '') : `${String(e.metadata.unit_id)}/${String(e.metadata.part ?? 0)}`,
            ),
          namespaces: () => s.owners(),
          adds: () => s.count(api === 'graphiti' ? /^POST \/messages$/ : /^POST .*\/threads\/[^/]+\/messages$/),
          setNeverFinish: (v) => void (s.neverFinish = v),
        };
      },
    }),
  ),
];
