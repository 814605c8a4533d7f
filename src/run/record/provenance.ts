/**
 * What a run records about where it came from (docs/design.md §3): git commit and dirty flag, the installed versions of
 * the packages that shape results, and the Node version; dataset file digests (from src/data) with paths relative to
 * the dataset, and the model / calibration files the methods read, with their sha256.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { promisify } from 'node:util';
import type { ExperimentConfig } from '../../core/config.ts';
import { PACKAGE_ROOT } from '../../core/package-root.ts';
import type { FileDigest } from '../../data/hash.ts';
import type { DatasetSource } from '../../data/source.ts';

const exec = promisify(execFile);

export const REPO_ROOT = PACKAGE_ROOT;

/**
 * The checkout's commit and whether tracked files differ from it, from one `git status --porcelain=v2 --branch`
 * (its `# branch.oid` header line and its change lines). One child process, not two: starting one forks this
 * process, and every page the process then writes faults once more (copy-on-write), on every thread — ~0.05–0.1 s of
 * a LongMemEval S run's set-up went to the two forks this used to make.
 */
export async function gitState(cwd = REPO_ROOT): Promise<{ commit: string | null; dirty: boolean | null }> {
  try {
    const { stdout } = await exec('git', ['status', '--porcelain=v2', '--branch', '--untracked-files=no'], { cwd });
    const lines = stdout.split('\n').filter((l) => l !== '');
    const oid = lines.find((l) => l.startsWith('# branch.oid '))?.slice('# branch.oid '.length);
    return { commit: oid && oid !== '(initial)' ? oid : null, dirty: lines.some((l) => !l.startsWith('#')) };
  } catch {
    // Not a git checkout (e.g. an npm tarball): record the absence rather than guess.
    return { commit: null, dirty: null };
  }
}

/** Installed versions of the project's direct dependencies, read from node_modules (not the ranges in package.json). */
export async function packageVersions(root = REPO_ROOT): Promise<Record<string, string>> {
  const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as {
    version: string;
    dependencies?: Record<string, string>;
  };
  const names = Object.keys(pkg.dependencies ?? {}).sort();
  const versions = await Promise.all(
    names.map(async (name) => {
      try {
        return (
          JSON.parse(await readFile(join(root, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }
        ).version;
      } catch {
        return 'missing';
      }
    }),
  );
  const out: Record<string, string> = { 'adaptmr-bench': pkg.version, node: process.version };
  names.forEach((name, i) => (out[name] = versions[i]!));
  return out;
}

/** A path as a results file may carry it: relative to `root` when inside it, else the file name (never absolute). */
export function portablePath(path: string, root: string): string {
  const rel = relative(root, resolve(root, path));
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel.split(sep).join('/') : basename(path);
}

/**
 * A dataset's file digests for `runs.dataset_hashes`: each file named relative to the dataset's folder (its file
 * name for a single-file dataset), so a results file names no path of the machine that wrote it.
 */
export function datasetDigests(source: DatasetSource, digests: readonly FileDigest[]): { files: FileDigest[] } {
  const root = source.kind === 'file' ? dirname(source.path) : source.path;
  return { files: digests.map((d) => ({ ...d, path: portablePath(d.path, root) })) };
}

/** Option names that name an input file of a method or the embedder (ONNX models, calibration and threshold files). */
const FILE_OPTION = /^(model|.*File)$/;

export interface InputFile {
  /** Where it is configured: `embedder`, or `<dataset> / <method id>`. */
  user: string;
  /** The option's path inside the options (`classifier.options.model`). */
  option: string;
  /** As configured when relative, else relative to the working folder or the file name. */
  path: string;
  sha256: string;
  bytes: number;
}

function fileOptions(value: unknown, at: string, out: { option: string; path: string }[]): void {
  if (Array.isArray(value)) value.forEach((v, i) => fileOptions(v, `${at}.${i}`, out));
  else if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) {
      const option = at === '' ? k : `${at}.${k}`;
      if (typeof v === 'string' && FILE_OPTION.test(k) && v !== '' && existsSync(v) && statSync(v).isFile())
        out.push({ option, path: v });
      else fileOptions(v, option, out);
    }
  }
}

/**
 * The model and calibration files a run reads (ONNX classifier models, abstention thresholds, classifier
 * calibrations — every existing file an option named `model` or `…File` points at, per dataset since a dataset
 * entry may swap them), with their sha256, so a results file says exactly which model produced it.
 */
export async function inputFileDigests(
  configs: readonly { dataset: string; config: ExperimentConfig }[],
  cwd = process.cwd(),
): Promise<InputFile[]> {
  const found: { user: string; option: string; path: string }[] = [];
  const seen = new Set<string>();
  const add = (user: string, options: unknown): void => {
    const list: { option: string; path: string }[] = [];
    fileOptions(options, '', list);
    for (const f of list) {
      const key = `${user}\t${f.option}\t${f.path}`;
      if (!seen.has(key)) found.push({ user, ...f });
      seen.add(key);
    }
  };
  const first = configs[0]?.config;
  if (first) add('embedder', first.embedder.options);
  for (const { dataset, config } of configs) for (const m of config.methods) add(`${dataset} / ${m.id}`, m.options);
  const digests = new Map<string, Promise<string>>();
  const hash = (path: string): Promise<string> => {
    let p = digests.get(path);
    if (!p) digests.set(path, (p = readFile(path).then((b) => createHash('sha256').update(b).digest('hex'))));
    return p;
  };
  return Promise.all(
    found.map(async (f) => ({
      user: f.user,
      option: f.option,
      path: isAbsolute(f.path) ? portablePath(f.path, cwd) : f.path.split(sep).join('/'),
      sha256: await hash(f.path),
      bytes: statSync(f.path).size,
    })),
  );
}
