/**
 * Shared by the benchmark scripts: runs a command as its own process and measures it whole — wall time from spawn
 * to exit, and the process's peak RSS (Node: read at exit through an --import probe, so worker threads count; Python:
 * the largest process of the run, from getrusage of its children). Medians over repeated runs.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { median } from '../src/core/averages.ts';

export const REPO = join(import.meta.dirname, '..');

const RSS_TAG = 'bench-max-rss-kb';
const PROBE = `data:text/javascript,process.on("exit",()=>process.stderr.write("\\n${RSS_TAG} "+process.resourceUsage().maxRSS+"\\n"))`;

export interface Measured {
  wallS: number;
  rssMiB: number;
  stdout: string;
  stderr: string;
}

/** `node bin/adaptmr.js <args>`, measured; throws with its stderr when it fails. */
export function runAdaptmr(args: string[], env: NodeJS.ProcessEnv = process.env): Measured {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, ['--import', PROBE, join(REPO, 'bin', 'adaptmr.js'), ...args], {
    encoding: 'utf8',
    env,
    maxBuffer: 1 << 26,
  });
  const wallS = (performance.now() - t0) / 1000;
  if (r.status !== 0) throw new Error(`adaptmr ${args.join(' ')} failed (exit ${r.status}):\n${r.stderr}`);
  if (r.stderr.includes('running the sources through tsx')) {
    throw new Error(
      'dist/ is missing or older than the sources: run `npm run build` first (the benchmark measures the compiled CLI)',
    );
  }
  const m = r.stderr.match(new RegExp(`${RSS_TAG} (\\d+)`));
  return { wallS, rssMiB: m ? Number(m[1]) / 1024 : NaN, stdout: r.stdout, stderr: r.stderr };
}

/**
 * A Python command, measured; peak RSS is the largest process it ran (its pool workers included). With
 * `maxProcessBytes`, each of its processes gets that address-space limit (RLIMIT_AS), so a run too big for the
 * machine fails with a MemoryError instead of calling in the kernel's OOM killer.
 */
export function runPython(
  args: string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv; maxProcessBytes?: number },
): Measured {
  const limit = opts.maxProcessBytes ? Math.floor(opts.maxProcessBytes) : 0;
  const wrapper = [
    'import resource, subprocess, sys',
    `limit = ${limit}`,
    'cap = (lambda: resource.setrlimit(resource.RLIMIT_AS, (limit, limit))) if limit else None',
    'r = subprocess.run(sys.argv[1:], capture_output=True, text=True, preexec_fn=cap)',
    'sys.stdout.write(r.stdout); sys.stderr.write(r.stderr)',
    `sys.stderr.write("\\n${RSS_TAG} %d\\n" % resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)`,
    'sys.exit(r.returncode)',
  ].join('\n');
  const t0 = performance.now();
  const r = spawnSync('python3', ['-c', wrapper, 'python3', ...args], {
    encoding: 'utf8',
    cwd: opts.cwd,
    env: opts.env,
    maxBuffer: 1 << 26,
  });
  const wallS = (performance.now() - t0) / 1000;
  if (r.status !== 0) throw new Error(`python3 ${args.join(' ')} failed (exit ${r.status}):\n${r.stderr.slice(-2000)}`);
  const m = r.stderr.match(new RegExp(`${RSS_TAG} (\\d+)`));
  return { wallS, rssMiB: m ? Number(m[1]) / 1024 : NaN, stdout: r.stdout, stderr: r.stderr };
}

export { median };

/** Runs `once` warm-up times unmeasured, then `runs` times; the medians and the spread (min–max). */
export function repeat(
  runs: number,
  warmUp: number,
  once: (i: number) => Measured,
): { wallS: number; rssMiB: number; minS: number; maxS: number; last: Measured } {
  for (let i = 0; i < warmUp; i++) once(-1 - i);
  const all = Array.from({ length: runs }, (_, i) => once(i));
  const walls = all.map((m) => m.wallS);
  return {
    wallS: median(walls),
    rssMiB: median(all.map((m) => m.rssMiB)),
    minS: Math.min(...walls),
    maxS: Math.max(...walls),
    last: all[all.length - 1]!,
  };
}

export function loadAverage(): string {
  return existsSync('/proc/loadavg')
    ? spawnSync('cat', ['/proc/loadavg'], { encoding: 'utf8' }).stdout.split(' ').slice(0, 3).join(' ')
    : 'n/a';
}
