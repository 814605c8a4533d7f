// Every test process knows the benchmarks, as the CLI does from its first line (src/run/benchmark-registry.ts).
import { installBenchmarks } from '../src/run/benchmark-registry.ts';

await installBenchmarks();
