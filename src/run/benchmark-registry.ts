/**
 * The registry of every benchmark an experiment can name a dataset of (benchmarks/<name>/, src/core/benchmark.ts):
 * one line per benchmark, its module imported when a run first needs it (as the method registry's entries), so a run
 * loads only the benchmarks of its datasets. The one module outside benchmarks/ that imports them.
 */
import type { Benchmark } from '../core/benchmark.ts';
import { installBenchmarks as install } from '../core/benchmarks-installed.ts';
import { InputError } from '../core/errors.ts';
import { unknownName } from '../core/registry.ts';

const ENTRIES: Readonly<Record<string, () => Promise<Benchmark>>> = {
  longmemeval: async () => (await import('../../benchmarks/longmemeval/index.ts')).longMemEval,
  locomo: async () => (await import('../../benchmarks/locomo/index.ts')).locomo,
  beam: async () => (await import('../../benchmarks/beam/index.ts')).beam,
  memdaily: async () => (await import('../../benchmarks/memdaily/index.ts')).memDaily,
  'locomo-plus': async () => (await import('../../benchmarks/locomo-plus/index.ts')).locomoPlus,
};

/** Every benchmark's name (its folder under benchmarks/ and the source format of its datasets). */
export const BENCHMARK_NAMES: readonly string[] = Object.freeze(Object.keys(ENTRIES));

const loaded = new Map<string, Promise<Benchmark>>();

/** The benchmark of this name; an unknown name is an InputError with "did you mean". */
export function loadBenchmark(name: string): Promise<Benchmark> {
  const entry = ENTRIES[name];
  if (!entry) return Promise.reject(new InputError(unknownName('benchmark', name, [...BENCHMARK_NAMES])));
  let benchmark = loaded.get(name);
  if (!benchmark) {
    benchmark = entry().then((b) => {
      if (b.name !== name) throw new Error(`benchmarks/${name} declares the name "${b.name}"`);
      return b;
    });
    loaded.set(name, benchmark);
  }
  return benchmark;
}

/** Every benchmark, loaded (the conformance suite, `adaptmr data` listings). */
export function allBenchmarks(): Promise<Benchmark[]> {
  return Promise.all(BENCHMARK_NAMES.map(loadBenchmark));
}

/**
 * Loads every benchmark and makes it known to the layers below (src/core/benchmarks-installed.ts): dataset names in
 * configs, readers in src/data. The CLI, the compute workers and the test setup call it first.
 */
export async function installBenchmarks(): Promise<void> {
  install(await allBenchmarks());
}
