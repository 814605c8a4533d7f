/**
 * The benchmarks of this process, for the layers below the benchmark registry (src/data reads a dataset through its
 * benchmark's reader, the config checks dataset names, reports label and colour them): the registry
 * (src/run/benchmark-registry.ts `installBenchmarks`) puts them here at start-up, since nothing under src/run may be
 * imported from below it. Asking before they are installed is a bug of the entry point, and says so.
 */
import type { AnswerFormat, Benchmark, BenchmarkDataset } from './benchmark.ts';
import { InputError } from './errors.ts';
import { unknownName } from './registry.ts';

const benchmarks = new Map<string, Benchmark>();
const datasets = new Map<string, { benchmark: Benchmark; dataset: BenchmarkDataset }>();

/** Makes these benchmarks (and their datasets) known; installing the same benchmark again is a no-op. */
export function installBenchmarks(list: readonly Benchmark[]): void {
  for (const b of list) {
    if (benchmarks.get(b.name) === b) continue;
    benchmarks.set(b.name, b);
    for (const d of b.datasets) datasets.set(d.name, { benchmark: b, dataset: d });
  }
}

function installed(): Map<string, Benchmark> {
  if (benchmarks.size === 0) {
    throw new Error(
      'no benchmark is installed: the entry point must call installBenchmarks() of src/run/benchmark-registry.ts first',
    );
  }
  return benchmarks;
}

/** Every installed benchmark, in registry order. */
export function installedBenchmarks(): Benchmark[] {
  return [...installed().values()];
}

/** The benchmark of this name (a source's format), or undefined. */
export function benchmarkNamed(name: string): Benchmark | undefined {
  return installed().get(name);
}

/** The benchmark and dataset entry of a named dataset, or undefined (also before any is installed). */
export function datasetEntry(name: string): { benchmark: Benchmark; dataset: BenchmarkDataset } | undefined {
  return datasets.get(name);
}

/** Every named dataset a config may give, in registry order. */
export function datasetNames(): string[] {
  installed();
  return [...datasets.keys()];
}

/** The formats a user-given path may have (`datasets[].path` with `format`). */
export function pathFormats(): string[] {
  return installedBenchmarks()
    .filter((b) => b.pathFormat)
    .map((b) => b.name);
}

/** The published-answer formats of the installed benchmarks (`score-answers --format`), in registry order. */
export function answerFormatNames(): string[] {
  return installedBenchmarks().flatMap((b) => Object.keys(b.qa.answerFormats ?? {}));
}

/** The published-answer format of this name; an unknown name is one line with "did you mean" and the known ones. */
export function answerFormat(name: string, where = '--format'): Promise<AnswerFormat> {
  const owner = installedBenchmarks().find((b) => b.qa.answerFormats && Object.hasOwn(b.qa.answerFormats, name));
  const load = owner?.qa.answerFormats?.[name];
  if (!load) return Promise.reject(new InputError(unknownName('answer format', name, answerFormatNames()), where));
  return load();
}
