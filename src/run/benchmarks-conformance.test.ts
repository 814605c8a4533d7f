/**
 * The benchmark conformance suite: every entry of the benchmark registry, on its committed fixture (a few items the
 * project wrote in the benchmark's own format), through the same loader a run uses. Each benchmark loads (catalogue
 * and instances agree), maps every native type it has, has gold for every question it scores, scores a right answer
 * above a wrong one through its QA protocol with a loopback judge (one that answers as the protocol's judge would,
 * recognising the right answer by a marker only the right answer carries), and rejects a malformed item with a
 * one-line error naming the file and the item. Registry and benchmark declarations agree on names and datasets.
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { AnswerScores, AnswerToScore, Benchmark } from '../core/benchmark.ts';
import { datasetNames } from '../core/benchmarks-installed.ts';
import type { ChatRequest, ChatResult, LlmClient } from '../core/llm.ts';
import type { Instance } from '../core/types.ts';
import type { DatasetFormat, DatasetSource } from '../data/source.ts';
import { readCatalog, readInstances } from '../data/load.ts';
import type { DataIssue } from '../data/issues.ts';
import { allBenchmarks, BENCHMARK_NAMES, loadBenchmark } from './benchmark-registry.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const tmp = mkdtempSync(join(tmpdir(), 'adaptmr-bench-conformance-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const RIGHT = '✓right-答案';
const WRONG = '✗wrong unrelated 无关';

/** The fixture of a benchmark as a source a run would read (a copy under `at` when given). */
function fixtureSource(b: Benchmark, at?: string): DatasetSource {
  const folder = join(ROOT, 'benchmarks', b.name);
  const path = at ?? join(folder, b.fixture.path);
  const companion = b.fixture.companion ? join(folder, b.fixture.companion) : undefined;
  return {
    name: b.datasets[0]?.name ?? b.name,
    format: b.name as DatasetFormat,
    path,
    kind: b.fixture.kind,
    ...(companion ? { companion: { path: companion, root: dirname(companion) } } : {}),
  };
}

async function load(src: DatasetSource): Promise<{ instances: Instance[]; issues: DataIssue[] }> {
  const issues: DataIssue[] = [];
  const instances: Instance[] = [];
  for await (const inst of readInstances(src, { issues })) instances.push(inst);
  return { instances, issues };
}

/** A judge that replies as the protocol's judge would: right when the prompt holds the right answer's marker. */
function loopbackJudge(replies: { right: string; wrong: string }): LlmClient {
  return {
    role: 'judge',
    model: 'loopback',
    async chat(request: ChatRequest): Promise<ChatResult> {
      const prompt = request.messages.map((m) => (typeof m.content === 'string' ? m.content : '')).join('\n');
      const text = prompt.includes(RIGHT) ? replies.right : replies.wrong;
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      const usage = { promptTokens: 0, completionTokens: 0, latencyMs: 0, costUsd: 0 };
      return { text, ...(json !== undefined ? { json } : {}), model: 'loopback', cached: false, ...usage };
    },
  };
}

/** One number per scoring: the judge's mean (graded scores where given), else exact accuracy, else F1. */
function headline(s: AnswerScores): number {
  if (s.judge) {
    const v = s.judge.scores ?? s.judge.correct.map((c) => (c ? 1 : 0));
    return v.reduce((a, x) => a + x, 0) / v.length;
  }
  return s.metrics?.accuracy ?? s.f1 ?? Number.NaN;
}

function toScore(b: Benchmark, inst: Instance, hypothesis: string, choice?: string): AnswerToScore {
  const { gold, query } = inst;
  return {
    protocol: b.qa.protocol,
    questionId: query.id,
    nativeType: gold.nativeType,
    question: query.text,
    gold: gold.answer,
    hypothesis,
    ...(gold.rubric ? { rubric: gold.rubric } : {}),
    ...(choice !== undefined ? { correctChoice: choice } : {}),
    ...(gold.evidenceText !== undefined ? { evidenceText: gold.evidenceText } : {}),
  };
}

describe('the benchmark registry', () => {
  it('names each benchmark once, by its own name, and every config dataset name belongs to one benchmark', async () => {
    const all = await allBenchmarks();
    expect(all.map((b) => b.name)).toEqual([...BENCHMARK_NAMES]);
    const datasets = all.flatMap((b) => b.datasets.map((d) => d.name));
    expect(new Set(datasets).size).toBe(datasets.length);
    // Installed (the CLI's and the tests' start-up) as the registry declares them: what configs may name.
    expect(datasetNames()).toEqual(datasets);
  });

  it('an unknown benchmark is one line with "did you mean"', async () => {
    await expect(loadBenchmark('locomo-pluss')).rejects.toThrow(
      /^unknown benchmark "locomo-pluss"\. Did you mean "locomo-plus"\?/,
    );
  });
});

describe.each(BENCHMARK_NAMES.map((name) => [name]))('benchmark %s', (name) => {
  it('loads its fixture: catalogue and instances agree, ids unique, every native type mapped', async () => {
    const b = await loadBenchmark(name);
    const src = fixtureSource(b);
    const { instances } = await load(src);
    expect(instances.length).toBeGreaterThanOrEqual(2);
    const catalogue = await readCatalog(src);
    expect(catalogue.map((c) => c.questionId).sort()).toEqual(instances.map((i) => i.query.id).sort());
    expect(new Set(instances.map((i) => i.query.id)).size).toBe(instances.length);
    for (const inst of instances) {
      const mapped = b.mapType(inst.gold.nativeType, inst.query.id);
      expect(mapped, `${inst.query.id}: native type "${inst.gold.nativeType}"`).toBeDefined();
      expect(inst.gold.reportAs).toBe(mapped?.reportAs);
      expect(inst.haystack.length).toBeGreaterThan(0);
    }
    expect(b.mapType('no-such-native-type-ζ', 'x')).toBeUndefined();
  });

  it('has gold for every question it scores', async () => {
    const b = await loadBenchmark(name);
    const { instances } = await load(fixtureSource(b));
    const scored = instances.filter((i) => b.qa.excluded(i.gold.nativeType) === null);
    expect(scored.length).toBeGreaterThan(0);
    for (const { gold, query } of scored) {
      const has = gold.answer.trim() !== '' || (gold.rubric?.length ?? 0) > 0 || (gold.evidenceText ?? '') !== '';
      expect(has, `${query.id} has no gold`).toBe(true);
    }
  });

  it('scores a right answer above a wrong one through its protocol (loopback judge)', async () => {
    const b = await loadBenchmark(name);
    const { instances } = await load(fixtureSource(b));
    const judge = b.fixture.judgeReplies ? loopbackJudge(b.fixture.judgeReplies) : undefined;
    const inst = instances.find((i) => b.qa.excluded(i.gold.nativeType) === null)!;
    const choice = inst.gold.correctChoice;
    const wrongChoice = choice === undefined ? undefined : choice === 'A' ? 'B' : 'A';
    const right = choice ?? `${inst.gold.answer || inst.gold.evidenceText || ''} ${RIGHT}`;
    const options = { calls: [] };
    const good = await b.qa.score(toScore(b, inst, right, choice), judge, options);
    const bad = await b.qa.score(toScore(b, inst, wrongChoice ?? WRONG, choice), judge, options);
    expect(headline(good)).toBeGreaterThan(headline(bad));
    expect(b.qa.judgePrompts.length > 0 || choice !== undefined).toBe(true);
  });

  it('rejects a malformed item with one line naming the file and the item', async () => {
    const b = await loadBenchmark(name);
    const copy = join(tmp, name, basename(b.fixture.path));
    cpSync(join(ROOT, 'benchmarks', name, b.fixture.path), copy, { recursive: true });
    const broken = b.fixture.malformed.file === '' ? copy : join(copy, b.fixture.malformed.file);
    writeFileSync(broken, b.fixture.malformed.text);
    const error = await load(fixtureSource(b, copy)).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(Error);
    const message = (error as Error).message;
    expect(message).not.toContain('\n');
    expect(message).toContain(basename(broken));
    expect(message).toContain(b.fixture.malformed.item);
  });
});
