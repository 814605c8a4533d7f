/**
 * The memory-server images behind a bundle's methods, pinned by digest. A method that talks to a server (mem0,
 * zep, http-memory) names its image with `--image <method>=<name>@sha256:<digest>`, or gets the one the project's
 * compose file runs for its api (compose/mem0.yaml for mem0 `api: oss`, compose/graphiti.yaml for zep
 * `api: graphiti`). A reference without a digest (a tag such as `:latest`, or a hosted service with no image) is
 * refused unless `--allow-unpinned`, which the manifest then records. A digest the server itself reported
 * in its health reply (http-memory `/health` `image`; shown by `adaptmr doctor`, kept as the method's `server-image`
 * checkpoint of the run) is recorded beside it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { InputError } from '../../core/errors.ts';
import { PACKAGE_ROOT } from '../../core/package-root.ts';
import { methodEntry, type Config } from './config-facts.ts';
import type { MethodFact } from './load-results.ts';

export const SERVER_KINDS = new Set(['mem0', 'zep', 'http-memory']);
export const DIGEST = /@sha256:[0-9a-f]{64}$/u;

export interface ImageRecord {
  run_id: string;
  method: string;
  kind: string;
  image: string | null;
  /** Where the reference came from: `--image`, `compose/<file> service <name>`, or why there is none. */
  source: string;
  pinned: boolean;
  reported_digest: string | null;
}

/** The compose service a method's api runs on, when the project ships one. */
function composeRef(kind: string, api: unknown): { file: string; service: string } | undefined {
  if (kind === 'mem0' && (api ?? 'oss') === 'oss') return { file: 'compose/mem0.yaml', service: 'mem0' };
  if (kind === 'zep' && (api ?? 'graphiti') === 'graphiti') return { file: 'compose/graphiti.yaml', service: 'graph' };
  return undefined;
}

export function composeImage(file: string, service: string): string | null {
  const doc = parse(readFileSync(join(PACKAGE_ROOT, file), 'utf8')) as {
    services?: Record<string, { image?: string }>;
  };
  return doc.services?.[service]?.image ?? null;
}

/** `--image` values `method=ref`, by method. */
export function parseImageFlags(values: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const v of values) {
    const at = v.indexOf('=');
    if (at <= 0) throw new InputError(`expected <method>=<image>@sha256:<digest>, got "${v}"`, '--image');
    out.set(v.slice(0, at), v.slice(at + 1));
  }
  return out;
}

export function imageRecords(
  methods: readonly MethodFact[],
  configs: ReadonlyMap<string, Config>,
  flags: ReadonlyMap<string, string>,
  reported: ReadonlyMap<string, string>,
): ImageRecord[] {
  return methods
    .filter((m) => SERVER_KINDS.has(m.kind))
    .map((m) => {
      const options = (methodEntry(configs.get(m.run_id) ?? {}, m.method).options ?? {}) as Config;
      const flag = flags.get(m.method);
      const compose = composeRef(m.kind, options.api);
      const image = flag ?? (compose ? composeImage(compose.file, compose.service) : null);
      const source = flag
        ? '--image'
        : compose
          ? `${compose.file} service ${compose.service}`
          : `no image: api ${String(options.api ?? 'default')} is a hosted service or the user's own server`;
      return {
        run_id: m.run_id,
        method: m.method,
        kind: m.kind,
        image,
        source,
        pinned: image !== null && DIGEST.test(image),
        reported_digest: reported.get(`${m.run_id}\t${m.method}`) ?? null,
      };
    });
}

/** Refuses unpinned images unless allowed; names the first. */
export function checkPinned(images: readonly ImageRecord[], allowUnpinned: boolean): void {
  const bad = images.find((i) => !i.pinned);
  if (bad && !allowUnpinned) {
    throw new InputError(
      `method ${bad.method} (run ${bad.run_id}) runs ${bad.image ?? 'no pinned image'} (${bad.source}), not pinned by digest; ` +
        'pass --image <method>=<name>@sha256:<digest>, or --allow-unpinned (recorded in the manifest)',
      '--image',
    );
  }
}
