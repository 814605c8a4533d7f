/**
 * The judging pass over a run's stored answers: every answer gets a verdict from every judge of the panel on every
 * gold version the run has, and the leniency probes (known-wrong answers for a stratified sample of questions) get a
 * verdict from every judge. It reads only the results file — no retrieval, no reader — and writes only what is
 * missing, so it is resumable and idempotent: `adaptmr run` calls it after its questions (the panel's first judge has
 * already scored each answer on the headline version there), `adaptmr rejudge` with new judges.
 *
 * - A question whose answer no gold version changes has one verdict per judge, copied to the other versions without
 *   a call (the prompt would be the same).
 * - Probes are judged against the original gold answer (the answer they were made wrong against); their answers are
 *   stored once (`probe_answers`) and reused by every later pass, whatever judges it brings.
 * - Calls go through the LLM cache; a paid call is recorded in `llm_calls` as it returns (durable accounting), the
 *   verdicts in groups with their cached calls. A judge call that stays broken leaves its verdict missing (the
 *   summary counts it; a rerun retries it) and the pass goes on.
 */
import pLimit from 'p-limit';
import { InputError, errorMessage } from '../../core/errors.ts';
import { withPaidCallSink, type CallRecord } from '../../core/calls.ts';
import { clientFor, type LlmProvider } from '../../core/llm.ts';
import type { AdaptType } from '../../core/types.ts';
import { shuffledByType } from '../../data/sample.ts';
import { loadAuditProbes } from '../../data/locomo-audit.ts';
import {
  judgeAnswer,
  isJudged,
  promptFor,
  protocolOfNativeTypes,
  type PanelJudge,
  type QaProtocol,
} from '../../eval/qa/panel.ts';
import { normalised, probesFor, PROBE_KINDS, type ProbeKind, type ProbeQuestion } from '../../eval/qa/probes/index.ts';
import type { AnswerVerdictRow, LlmCallRow, ProbeAnswerRow, ResultStore } from '../../store/types.ts';
import type { Benchmark } from '../../core/benchmark.ts';
import { benchmarkOfNativeTypes, benchmarkPrompt, judgeWithBenchmark, unjudgeableWhy } from './benchmark-panel.ts';

export interface ProbeSettings {
  perType: number;
  seed: number;
  source: 'rules' | 'audit';
}

export interface JudgePassOptions {
  runId: string;
  panel: readonly PanelJudge[];
  /** Call-record stage of a judge's calls. */
  stageOf: (judgeId: string) => string;
  llm: LlmProvider;
  repeats: number;
  judgeAdversarial: boolean;
  /** Make probe answers for datasets that have none yet. */
  probes?: ProbeSettings | undefined;
  /** Data directory (the audit's probe files). */
  dataDir?: string | undefined;
  /** Verdicts written per transaction. */
  groupSize?: number;
  log?: (line: string) => void;
}

export interface JudgePassSummary {
  judged: number;
  copied: number;
  probesAdded: number;
  failed: number;
  firstError?: string;
}

interface QuestionInfo {
  dataset: string;
  questionId: string;
  text: string;
  nativeType: string;
  adaptType: string;
  isAbstention: boolean;
  answer: string;
  /** What a benchmark's judge reads besides the gold (`questions.judge_evidence`), or null. */
  judgeEvidence: string | null;
}

interface Target {
  dataset: string;
  questionId: string;
  method: string;
  probe: string;
  hypothesis: string;
}

const key = (...parts: string[]): string => parts.join('\t');

/** Refuses a judge id the run already used with another model or prompt (its verdicts would be mixed). */
function checkJudgeIds(
  existing: readonly { judge: string; model: string; prompt: string; dataset: string }[],
  panel: readonly PanelJudge[],
  protocols: Map<string, QaProtocol>,
): void {
  for (const j of panel) {
    const clash = existing.find(
      (v) =>
        v.judge === j.id &&
        (v.model !== j.model || (protocols.has(v.dataset) && v.prompt !== promptFor(j, protocols.get(v.dataset)!))),
    );
    if (clash) {
      throw new InputError(
        `judge "${j.id}" already judged this run with model ${clash.model} and prompt ${clash.prompt}; give the new judge another id`,
        `--judge ${j.id}`,
      );
    }
  }
}

/** What the pass knows of the run before it asks anything: its questions, their protocol and gold versions, the verdicts it has. */
interface RunKnowledge {
  question: Map<string, QuestionInfo>;
  questions: QuestionInfo[];
  protocols: Map<string, QaProtocol>;
  /** Datasets judged with their benchmark's own judge (benchmark-panel.ts). */
  benchmarks: Map<string, Benchmark>;
  goldOf: Map<string, string>;
  /** Questions some gold version changes (their answers are judged on each version). */
  changed: Set<string>;
  versionsOf: (dataset: string) => string[];
  have: Map<string, VerdictRecord>;
  /** Answers (dataset, question, method) some judge has judged: a benchmark judge's are the ones it judges. */
  judged: Set<string>;
}

type VerdictRecord = {
  dataset: string;
  question_id: string;
  method: string;
  probe: string;
  judge: string;
  gold: string;
  model: string;
  prompt: string;
  correct: boolean[];
  raw: string[];
};

/** A verdict to ask: a target, a judge and a gold version, copied to `copyTo` versions (they give the same prompt). */
interface Task {
  target: Target;
  judge: PanelJudge;
  version: string;
  copyTo: string[];
}

export async function judgePass(store: ResultStore, o: JudgePassOptions): Promise<JudgePassSummary> {
  const log = o.log ?? (() => {});
  const summary: JudgePassSummary = { judged: 0, copied: 0, probesAdded: 0, failed: 0 };
  if (o.panel.length === 0) return summary;
  const known = await readRun(store, o, log);
  const targets = await answerTargets(store, o.runId);
  const newProbes = o.probes ? await makeProbes(store, o, known) : [];
  summary.probesAdded = newProbes.length;
  targets.push(...(await probeTargets(store, o.runId, newProbes)));
  const { tasks, copies } = planVerdicts(targets, known, o);
  if (tasks.length + copies.length + newProbes.length === 0) return summary;
  log(
    `judging: ${tasks.length} verdicts to ask (${o.panel.map((j) => j.id).join(', ')}), ${copies.length} copied across gold versions${newProbes.length > 0 ? `, ${newProbes.length} probe answers` : ''}`,
  );
  summary.copied = copies.length;
  await askJudges(
    store,
    o,
    known,
    tasks,
    { verdicts: copies.map((c) => ({ ...c.from, gold: c.to })), probeAnswers: newProbes },
    summary,
  );
  if (summary.failed > 0)
    log(`judging: ${summary.failed} verdict(s) failed (first: ${summary.firstError}); run again to retry them`);
  return summary;
}

/** The run's questions with their protocols, its gold versions, and the verdicts it has (their judge ids checked). */
async function readRun(store: ResultStore, o: JudgePassOptions, log: (line: string) => void): Promise<RunKnowledge> {
  const questions = (
    await store.query<{
      dataset: string;
      question_id: string;
      text: string;
      native_type: string;
      adapt_type: string;
      is_abstention: boolean;
      answer: string;
      judge_evidence: string | null;
    }>(
      'SELECT dataset, question_id, text, native_type, adapt_type, is_abstention, answer, judge_evidence FROM questions WHERE run_id = $1 ORDER BY dataset, question_id',
      [o.runId],
    )
  ).map(
    (q): QuestionInfo => ({
      dataset: q.dataset,
      questionId: q.question_id,
      text: q.text,
      nativeType: q.native_type,
      adaptType: q.adapt_type,
      isAbstention: q.is_abstention,
      answer: q.answer,
      judgeEvidence: q.judge_evidence,
    }),
  );
  const { protocols, benchmarks } = judgingOf(questions, log);
  const goldRows = await store.query<{ dataset: string; question_id: string; version: string; answer: string }>(
    'SELECT dataset, question_id, version, answer FROM gold_versions WHERE run_id = $1',
    [o.runId],
  );
  const existing = await store.query<VerdictRecord>(
    'SELECT dataset, question_id, method, probe, judge, gold, model, prompt, correct, raw FROM answer_verdicts WHERE run_id = $1',
    [o.runId],
  );
  checkJudgeIds(existing, o.panel, protocols);
  return {
    question: new Map(questions.map((q) => [key(q.dataset, q.questionId), q])),
    questions,
    protocols,
    benchmarks,
    goldOf: new Map(goldRows.map((g) => [key(g.dataset, g.question_id, g.version), g.answer])),
    changed: new Set(goldRows.map((g) => key(g.dataset, g.question_id))),
    versionsOf: (dataset) =>
      [
        'original',
        ...new Set(goldRows.filter((g) => g.dataset === dataset && g.version !== 'original').map((g) => g.version)),
      ].sort(),
    have: new Map(existing.map((v) => [key(v.dataset, v.question_id, v.method, v.probe, v.judge, v.gold), v])),
    judged: new Set(existing.filter((v) => v.probe === '').map((v) => key(v.dataset, v.question_id, v.method))),
  };
}

/**
 * Per dataset, the panel's prompts (LongMemEval, LoCoMo) or its benchmark's own judge, by labels; a dataset whose
 * judge needs evidence the file lacks is left to its first judge, said in one line.
 */
function judgingOf(
  questions: readonly QuestionInfo[],
  log: (line: string) => void,
): { protocols: Map<string, QaProtocol>; benchmarks: Map<string, Benchmark> } {
  const protocols = new Map<string, QaProtocol>();
  const benchmarks = new Map<string, Benchmark>();
  for (const dataset of new Set(questions.map((q) => q.dataset))) {
    const mine = questions.filter((q) => q.dataset === dataset);
    const natives = mine.map((q) => q.nativeType);
    const p = protocolOfNativeTypes(natives);
    const b = p ? null : benchmarkOfNativeTypes(natives);
    const why = b ? unjudgeableWhy(b, mine) : null;
    if (p) protocols.set(dataset, p);
    else if (b && !why) benchmarks.set(dataset, b);
    else if (b) log(`judging: dataset ${dataset} is not judged again: ${why}`);
    else
      log(
        `judging: dataset ${dataset} follows neither the LongMemEval nor the LoCoMo labels, nor those of a benchmark whose own judge a panel asks; only its first judge judges it`,
      );
  }
  return { protocols, benchmarks };
}

/** The run's answers (not failed) to judge. */
async function answerTargets(store: ResultStore, runId: string): Promise<Target[]> {
  return (
    await store.query<{ dataset: string; question_id: string; method: string; answer: string }>(
      'SELECT dataset, question_id, method, answer FROM answers WHERE run_id = $1 AND error IS NULL AND answer IS NOT NULL ORDER BY dataset, question_id, method',
      [runId],
    )
  ).map((a) => ({ dataset: a.dataset, questionId: a.question_id, method: a.method, probe: '', hypothesis: a.answer }));
}

/** The probe answers to judge: those stored by earlier passes, then the new ones. */
async function probeTargets(
  store: ResultStore,
  runId: string,
  newProbes: readonly ProbeAnswerRow[],
): Promise<Target[]> {
  const probeRows = await store.query<{ dataset: string; question_id: string; probe: string; answer: string }>(
    'SELECT dataset, question_id, probe, answer FROM probe_answers WHERE run_id = $1 ORDER BY dataset, question_id, probe',
    [runId],
  );
  return [
    ...probeRows,
    ...newProbes.map((n) => ({ dataset: n.dataset, question_id: n.questionId, probe: n.probe, answer: n.answer })),
  ].map((p) => ({ dataset: p.dataset, questionId: p.question_id, method: '', probe: p.probe, hypothesis: p.answer }));
}

/** What to ask: per target and judge, each missing version; a question no version changes is asked once. */
function planVerdicts(
  targets: readonly Target[],
  k: RunKnowledge,
  o: JudgePassOptions,
): { tasks: Task[]; copies: { from: AnswerVerdictRow; to: string }[] } {
  const tasks: Task[] = [];
  const copies: { from: AnswerVerdictRow; to: string }[] = [];
  for (const t of targets) {
    const q = k.question.get(key(t.dataset, t.questionId));
    const protocol = k.protocols.get(t.dataset);
    if (!q) continue;
    if (!protocol) {
      // A benchmark judge's dataset: the method answers its own judge judged (letters are scored exactly),
      // and the probes (made only for such questions).
      if (!k.benchmarks.has(t.dataset)) continue;
      if (t.probe === '' && !k.judged.has(key(t.dataset, t.questionId, t.method))) continue;
    } else if (!isJudged(protocol, q.nativeType, o.judgeAdversarial)) continue;
    const versions = t.probe === '' ? k.versionsOf(t.dataset) : ['original'];
    for (const judge of o.panel) {
      const got = (v: string) => k.have.get(key(t.dataset, t.questionId, t.method, t.probe, judge.id, v));
      const missing = versions.filter((v) => !got(v));
      if (missing.length === 0) continue;
      if (!k.changed.has(key(t.dataset, t.questionId))) {
        const source = versions.map(got).find((v) => v !== undefined);
        if (source) {
          for (const v of missing) copies.push({ from: verdictRow(source), to: v });
        } else {
          tasks.push({ target: t, judge, version: missing[0]!, copyTo: missing.slice(1) });
        }
      } else {
        for (const v of missing) tasks.push({ target: t, judge, version: v, copyTo: [] });
      }
    }
  }
  return { tasks, copies };
}

/**
 * Asks the judges (32 calls at once), writing verdicts in groups of `groupSize` with the cached calls; `first` holds
 * the rows to write with the first group (copied verdicts, new probe answers).
 */
async function askJudges(
  store: ResultStore,
  o: JudgePassOptions,
  k: RunKnowledge,
  tasks: readonly Task[],
  first: { verdicts: AnswerVerdictRow[]; probeAnswers: ProbeAnswerRow[] },
  summary: JudgePassSummary,
): Promise<void> {
  const groupSize = o.groupSize ?? 200;
  let pending: AnswerVerdictRow[] = first.verdicts;
  let pendingCalls: LlmCallRow[] = [];
  let pendingProbes: ProbeAnswerRow[] = first.probeAnswers;
  const flush = async (): Promise<void> => {
    if (pending.length === 0 && pendingProbes.length === 0 && pendingCalls.length === 0) return;
    const rows = { verdicts: pending, probeAnswers: pendingProbes, llmCalls: pendingCalls };
    pending = [];
    pendingProbes = [];
    pendingCalls = [];
    await store.writeJudging(o.runId, rows);
  };
  const limit = pLimit(32);
  let writing: Promise<void> = Promise.resolve();
  await Promise.all(
    tasks.map((task) =>
      limit(async () => {
        const { rows, calls } = await askJudge(store, o, k, task, summary);
        pending.push(...rows);
        pendingCalls.push(...calls);
        if (pending.length >= groupSize) writing = writing.then(flush);
        await writing;
      }),
    ),
  );
  await writing;
  await flush();
}

/** One verdict asked (its rows, the copies included, or none when the call failed) and its cached calls. */
async function askJudge(
  store: ResultStore,
  o: JudgePassOptions,
  k: RunKnowledge,
  task: Task,
  summary: JudgePassSummary,
): Promise<{ rows: AnswerVerdictRow[]; calls: LlmCallRow[] }> {
  const { target: t, judge } = task;
  const q = k.question.get(key(t.dataset, t.questionId))!;
  const protocol = k.protocols.get(t.dataset)!;
  const callKey = {
    dataset: t.dataset,
    questionId: t.questionId,
    method: t.probe === '' ? t.method : `probe:${t.probe}`,
  };
  const calls: CallRecord[] = withPaidCallSink([], (rec) => store.writeCalls(o.runId, [{ ...callKey, ...rec }]));
  const benchmark = k.benchmarks.get(t.dataset);
  const prompt = benchmark ? benchmarkPrompt(benchmark) : promptFor(judge, protocol);
  const llm = clientFor(o.llm, 'judge', judge.model);
  const options = { calls, repeats: o.repeats, stage: o.stageOf(judge.id) };
  let rows: AnswerVerdictRow[] = [];
  try {
    const result = benchmark
      ? await judgeWithBenchmark(benchmark, q, t.hypothesis, llm, options)
      : await judgeAnswer(
          {
            protocol,
            questionId: q.questionId,
            nativeType: q.nativeType,
            question: q.text,
            gold: k.goldOf.get(key(t.dataset, t.questionId, task.version)) ?? q.answer,
            hypothesis: t.hypothesis,
          },
          promptFor(judge, protocol),
          llm,
          options,
        );
    const row: AnswerVerdictRow = {
      dataset: t.dataset,
      questionId: t.questionId,
      method: t.method,
      probe: t.probe,
      judge: judge.id,
      gold: task.version,
      model: judge.model,
      prompt,
      correct: result.correct,
      raw: result.raw,
    };
    rows = [row, ...task.copyTo.map((v) => ({ ...row, gold: v }))];
    summary.judged++;
    summary.copied += task.copyTo.length;
  } catch (err) {
    summary.failed++;
    summary.firstError ??= `${t.dataset}/${t.questionId}${t.probe ? ` (probe ${t.probe})` : ` (${t.method})`}, judge ${judge.id}: ${errorMessage(err)}`;
  }
  return { rows, calls: calls.filter((c) => c.cached).map((c) => ({ ...callKey, ...c })) };
}

function verdictRow(v: VerdictRecord): AnswerVerdictRow {
  return {
    dataset: v.dataset,
    questionId: v.question_id,
    method: v.method,
    probe: v.probe,
    judge: v.judge,
    gold: v.gold,
    model: v.model,
    prompt: v.prompt,
    correct: v.correct,
    raw: v.raw,
  };
}

/** What one dataset's probes are made from: the questions its judge judges, the gold to make them against, the rules. */
interface ProbeSpec {
  eligible: QuestionInfo[];
  goldOf: (q: QuestionInfo) => string;
  rules: 'all' | 'neighbour';
  protocol?: QaProtocol;
}

/**
 * Per dataset the run judges, how its probes are made: a panel protocol's judged questions against their gold; a
 * benchmark judge's questions that some judge judged (a letter scored exactly has none), against what the
 * benchmark's `qa.probes` says (its folder: a rubric as an answer, a cue with the neighbour rule only, …).
 */
function probeSpecs(k: RunKnowledge, o: JudgePassOptions): Map<string, ProbeSpec> {
  const specs = new Map<string, ProbeSpec>();
  for (const [dataset, protocol] of k.protocols) {
    const eligible = k.questions.filter(
      (q) => q.dataset === dataset && isJudged(protocol, q.nativeType, o.judgeAdversarial),
    );
    specs.set(dataset, { eligible, goldOf: (q) => q.answer, rules: 'all', protocol });
  }
  const judged = new Set([...k.judged].map((a) => a.split('\t').slice(0, 2).join('\t')));
  for (const [dataset, b] of k.benchmarks) {
    const making = b.qa.probes;
    const goldOf = (q: QuestionInfo) => (making ? making.goldOf(q) : q.answer);
    const eligible = k.questions.filter(
      (q) => q.dataset === dataset && judged.has(key(dataset, q.questionId)) && goldOf(q).trim() !== '',
    );
    specs.set(dataset, { eligible, goldOf, rules: making?.specific ?? 'all' });
  }
  return specs;
}

/**
 * Probe answers for the datasets of the run that have none yet: per dataset, a stratified sample (per AdaptMR type,
 * seeded) of the questions its judge judges, each with the probes the rules (or, on LoCoMo with `source: audit`,
 * the audit's files) give; a question that yields no probe is passed over for the next in the shuffled order.
 */
async function makeProbes(store: ResultStore, o: JudgePassOptions, k: RunKnowledge): Promise<ProbeAnswerRow[]> {
  const settings = o.probes!;
  const done = new Set(
    (
      await store.query<{ dataset: string }>('SELECT DISTINCT dataset FROM probe_answers WHERE run_id = $1', [o.runId])
    ).map((r) => r.dataset),
  );
  const out: ProbeAnswerRow[] = [];
  const specs = probeSpecs(k, o);
  for (const dataset of [...specs.keys()].sort()) {
    if (done.has(dataset)) continue;
    const { eligible, goldOf, rules, protocol } = specs.get(dataset)!;
    const pool: ProbeQuestion[] = eligible.map((q) => ({
      questionId: q.questionId,
      question: q.text,
      gold: goldOf(q),
      adaptType: q.adaptType,
      isAbstention: q.isAbstention,
    }));
    const byId = new Map(pool.map((p) => [p.questionId, p]));
    const audit =
      settings.source === 'audit' && protocol === 'locomo' ? await auditProbes(o.dataDir, eligible) : undefined;
    const shuffled = shuffledByType(
      eligible.map((q) => ({ questionId: q.questionId, adaptType: q.adaptType as AdaptType })),
      settings.seed,
      (t) => `probe:${t}`,
    );
    for (const ids of shuffled.values()) {
      let taken = 0;
      for (const id of ids) {
        if (taken >= settings.perType) break;
        const q = byId.get(id)!;
        const probes = audit
          ? PROBE_KINDS.flatMap((kind) => {
              const a = audit.get(kind)?.get(id);
              return a && normalised(a.answer) !== normalised(q.gold)
                ? [{ kind, answer: a.answer, source: a.source }]
                : [];
            })
          : probesFor(q, pool, rules);
        if (probes.length === 0) continue;
        taken++;
        for (const p of probes)
          out.push({ dataset, questionId: id, probe: p.kind, source: p.source, answer: p.answer });
      }
    }
  }
  return out;
}

/** The audit's probe answers of the run's LoCoMo questions, each checked against the question text stored. */
async function auditProbes(
  dataDir: string | undefined,
  questions: readonly QuestionInfo[],
): Promise<Map<ProbeKind, Map<string, { answer: string; source: string }>>> {
  if (!dataDir) throw new InputError('qa.probes.source audit needs the data directory (the LoCoMo audit files)');
  const out = new Map<ProbeKind, Map<string, { answer: string; source: string }>>();
  for (const kind of PROBE_KINDS) {
    const { answers } = await loadAuditProbes(dataDir, kind);
    const mine = new Map<string, { answer: string; source: string }>();
    for (const q of questions) {
      const a = answers.get(q.questionId);
      if (!a) continue;
      if (a.question !== q.text) {
        throw new InputError(
          `the audit's ${a.auditId} asks "${a.question}", the run's question is "${q.text}"`,
          `question ${q.questionId}`,
        );
      }
      mine.set(q.questionId, { answer: a.answer, source: `locomo-audit:${kind === 'specific' ? 'v1' : 'v2'}` });
    }
    out.set(kind, mine);
  }
  return out;
}

/**
 * Verdict rows for answers written before judge panels (schema version 2): their `answers.judge_verdicts` JSON
 * (`[{ correct, raw }]`, one entry per judge pass) becomes rows of the run's one judge on the original gold version,
 * so a re-judged old file compares the old judge with the new ones. Answers that already have verdict rows are left.
 */
export async function backfillLegacyVerdicts(
  store: ResultStore,
  runId: string,
  judge: { id: string; model: string },
): Promise<number> {
  const rows = await store.query<{
    dataset: string;
    question_id: string;
    method: string;
    judge_verdicts: string;
    native_type: string;
  }>(
    `SELECT a.dataset, a.question_id, a.method, a.judge_verdicts, q.native_type FROM answers a
     JOIN questions q ON q.run_id = a.run_id AND q.dataset = a.dataset AND q.question_id = a.question_id
     WHERE a.run_id = $1 AND a.error IS NULL AND NOT EXISTS (SELECT 1 FROM answer_verdicts v WHERE v.run_id = a.run_id
       AND v.dataset = a.dataset AND v.question_id = a.question_id AND v.method = a.method AND v.probe = '')`,
    [runId],
  );
  const protocols = new Map<string, QaProtocol | null>();
  const verdicts: AnswerVerdictRow[] = [];
  for (const r of rows) {
    const { correct, raw } = legacyPasses(
      r.judge_verdicts,
      `${store.path}: ${r.dataset}/${r.question_id} (${r.method})`,
    );
    if (correct.length === 0) continue;
    if (!protocols.has(r.dataset)) {
      const natives = await store.query<{ native_type: string }>(
        'SELECT DISTINCT native_type FROM questions WHERE run_id = $1 AND dataset = $2',
        [runId, r.dataset],
      );
      protocols.set(r.dataset, protocolOfNativeTypes(natives.map((n) => n.native_type)));
    }
    const protocol = protocols.get(r.dataset);
    if (!protocol) continue;
    verdicts.push({
      dataset: r.dataset,
      questionId: r.question_id,
      method: r.method,
      probe: '',
      judge: judge.id,
      gold: 'original',
      model: judge.model,
      prompt: promptFor({ id: judge.id, model: judge.model }, protocol),
      correct,
      raw: raw.length === correct.length ? raw : correct.map(() => ''),
    });
  }
  if (verdicts.length > 0) await store.writeJudging(runId, { verdicts });
  return verdicts.length;
}

/** An old `answers.judge_verdicts` cell (`[{ correct, raw }]`, one entry per judge pass) as flat verdicts and replies. */
function legacyPasses(cell: string, where: string): { correct: boolean[]; raw: string[] } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(cell);
  } catch {
    throw new InputError('answers.judge_verdicts is not JSON', where);
  }
  const passes = Array.isArray(parsed) ? (parsed as { correct?: unknown; raw?: unknown }[]) : [];
  const correct = passes.flatMap((p) =>
    Array.isArray(p.correct) ? p.correct.filter((c): c is boolean => typeof c === 'boolean') : [],
  );
  const raw = passes.flatMap((p) => (Array.isArray(p.raw) ? p.raw.map(String) : []));
  return { correct, raw };
}
