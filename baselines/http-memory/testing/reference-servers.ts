/**
 * Test helpers for the http-memory reference servers: the Python one started as its users start it
 * (`python3 server.py --port 0`, the URL read from its first line), and a counting proxy in front of any server
 * that can rewrite a reply — to count the requests a run makes, or to give a server one deliberate fault.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../../../src/core/package-root.ts';

export const PYTHON_SERVER = join(PACKAGE_ROOT, 'examples', 'http-memory-python', 'server.py');

export interface Running {
  url: string;
  close(): Promise<void>;
}

/** Starts examples/http-memory-python/server.py on a free port; fails with one line when python3 is missing. */
export async function startPythonServer(env: Record<string, string> = {}): Promise<Running> {
  const probe = spawnSync('python3', ['--version'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0)
    throw new Error('python3 is needed to test the Python reference http-memory server (examples/http-memory-python)');
  const child = spawn('python3', [PYTHON_SERVER, '--port', '0'], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.on('exit', (code) => reject(new Error(`server.py exited (${code}): ${stderr.trim()}`)));
  });
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

export interface Proxy extends Running {
  /** Requests forwarded so far. */
  readonly requests: number;
}

/**
 * A proxy to `target`; `rewrite(method, path, status, body)` may change a reply (return undefined to pass it on).
 * Bodies are JSON both ways.
 */
export async function startProxy(
  target: string,
  rewrite?: (
    method: string,
    path: string,
    status: number,
    body: unknown,
    sent: unknown,
  ) => { status: number; body: unknown } | undefined,
): Promise<Proxy> {
  let requests = 0;
  const to = new URL(target);
  const server = createServer((req, res) => {
    requests++;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const sentRaw = Buffer.concat(chunks);
      const up = httpRequest(
        { host: to.hostname, port: to.port, path: req.url, method: req.method, headers: req.headers },
        (upRes) => {
          const back: Buffer[] = [];
          upRes.on('data', (c: Buffer) => back.push(c));
          upRes.on('end', () => {
            const raw = Buffer.concat(back).toString('utf8');
            let status = upRes.statusCode ?? 502;
            let text = raw;
            if (rewrite) {
              const parse = (s: string): unknown => (s === '' ? undefined : (JSON.parse(s) as unknown));
              const changed = rewrite(
                req.method ?? 'GET',
                new URL(req.url ?? '/', 'http://x').pathname,
                status,
                parse(raw),
                parse(sentRaw.toString('utf8')),
              );
              if (changed) {
                status = changed.status;
                text = JSON.stringify(changed.body);
              }
            }
            res.writeHead(status, { 'content-type': 'application/json' }).end(text);
          });
        },
      );
      up.on('error', (err) =>
        res.writeHead(502, { 'content-type': 'application/json' }).end(JSON.stringify({ error: String(err) })),
      );
      up.end(sentRaw);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get requests() {
      return requests;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
