/**
 * Cost-estimate benchmark (docs/cost.md): times `adaptmr run <experiment> --estimate` as it is by default (a
 * stratified sample of the questions computed, the rest scaled: src/run/spend/estimate-sample.ts) over several runs, and the
 * full rendering of every prompt (`--estimate-sample 0`, the estimate as it was before) once, each a fresh process
 * measured whole; prints their medians and the ratio, then compares the two estimates per method and model (tokens
 * and list dollars) and in total. The default experiment is the full LLM experiment 3 (its samples removed: all of
 * LongMemEval S and LoCoMo), whose full rendering takes ~30 minutes here; `--exact-rows <file>` reuses the JSON rows
 * of an earlier `--estimate-sample 0 --json` run instead (its time given with `--exact-seconds`).
 *
 *   npm run bench:estimate
 *   npm run bench:estimate -- --repeats 3 --exact-rows before.jsonl --exact-seconds 1680
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadAverage, median, REPO, runAdaptmr, type Measured } from './bench-process.ts';

interface Row {
  method: string;
  model: string;
  inputTokens: number;
  outputTokens: number;
  usdList: number;
}

const rowsOf = (jsonl: string): Row[] =>
  jsonl
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Row);

function flag(args: string[], name: string): string | undefined {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
}

/** The full experiment 3: the committed file without its samples. */
function fullExperiment(): string {
  const text = readFileSync(join(REPO, 'experiments/exp3-adaptmr-vs-baselines-llm.yaml'), 'utf8');
  const yaml = join(REPO, '.bench-estimate-exp3-full.yaml');
  writeFileSync(
    yaml,
    text
      .split('\n')
      .filter((l) => !/^\s*sample:/u.test(l))
      .join('\n'),
  );
  return yaml;
}

/** Per method and model: tokens and list dollars of both estimates, and how far the sampled one is. */
function compare(sampled: Row[], exact: Row[]): string[] {
  const sum = (rows: Row[]) => {
    const out = new Map<string, { tokens: number; usd: number }>();
    for (const r of rows) {
      const key = `${r.method} / ${r.model}`;
      const t = out.get(key) ?? { tokens: 0, usd: 0 };
      t.tokens += r.inputTokens + r.outputTokens;
      t.usd += r.usdList;
      out.set(key, t);
    }
    return out;
  };
  const a = sum(sampled);
  const b = sum(exact);
  const pct = (x: number, y: number) => (y === 0 ? (x === 0 ? '0.0%' : 'n/a') : `${((100 * (x - y)) / y).toFixed(1)}%`);
  const lines = ['  method / model: tokens sampled vs all (diff), list $ sampled vs all (diff)'];
  for (const [key, e] of [...b].sort()) {
    const s = a.get(key) ?? { tokens: 0, usd: 0 };
    lines.push(
      `  ${key}: ${s.tokens.toLocaleString('en-US')} vs ${e.tokens.toLocaleString('en-US')} (${pct(s.tokens, e.tokens)}), $${s.usd.toFixed(2)} vs $${e.usd.toFixed(2)} (${pct(s.usd, e.usd)})`,
    );
  }
  const total = (m: Map<string, { tokens: number; usd: number }>) =>
    [...m.values()].reduce((t, x) => ({ tokens: t.tokens + x.tokens, usd: t.usd + x.usd }), { tokens: 0, usd: 0 });
  const ta = total(a);
  const tb = total(b);
  lines.push(
    `  total: ${ta.tokens.toLocaleString('en-US')} vs ${tb.tokens.toLocaleString('en-US')} tokens (${pct(ta.tokens, tb.tokens)}), $${ta.usd.toFixed(2)} vs $${tb.usd.toFixed(2)} (${pct(ta.usd, tb.usd)})`,
  );
  return lines;
}

function main(): void {
  const args = process.argv.slice(2);
  const repeats = Number(flag(args, '--repeats') ?? 3);
  const yaml = flag(args, '--experiment') ?? fullExperiment();
  try {
    console.log(`adaptmr run ${yaml} --estimate — load average ${loadAverage()}`);
    const runs: Measured[] = [];
    for (let i = 0; i < repeats; i++) {
      runs.push(runAdaptmr(['run', yaml, '--estimate', '--json', '--no-progress']));
      console.log(
        `  sampled, run ${i + 1}: ${runs.at(-1)!.wallS.toFixed(1)} s, peak RSS ${runs.at(-1)!.rssMiB.toFixed(0)} MiB`,
      );
    }
    const after = median(runs.map((r) => r.wallS));
    const exactRows = flag(args, '--exact-rows');
    let before: number;
    let exact: Row[];
    if (exactRows) {
      exact = rowsOf(readFileSync(exactRows, 'utf8'));
      before = Number(flag(args, '--exact-seconds') ?? Number.NaN);
    } else {
      const m = runAdaptmr(['run', yaml, '--estimate', '--estimate-sample', '0', '--json', '--no-progress']);
      exact = rowsOf(m.stdout);
      before = m.wallS;
    }
    console.log(
      `estimate: every prompt rendered ${before.toFixed(0)} s; sampled (median of ${repeats}) ${after.toFixed(1)} s; ${(before / after).toFixed(1)}× faster`,
    );
    for (const line of compare(rowsOf(runs.at(-1)!.stdout), exact)) console.log(line);
  } finally {
    if (!flag(args, '--experiment')) rmSync(yaml, { force: true });
  }
}

main();
