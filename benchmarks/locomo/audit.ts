/**
 * The LoCoMo audit (dial481/locomo-audit, CC BY-NC 4.0, so pulled and never committed): answer-key errata,
 * judge-leniency probe answers and full-context baseline runs with real GPT answers and judge verdicts, keyed to
 * snap-research/locomo `data/locomo10.json`.
 *
 * - Files are pinned to one upstream commit with their sha256 (below); `adaptmr data pull locomo-audit` fetches them
 *   from GitHub raw (`--locomo-url` / ADAPTMR_LOCOMO_URL as for LoCoMo), records them in the lock file, and every read
 *   through `auditFile` checks the pinned sha256 again, wherever on the data search path the file was found.
 * - Keying (`auditToLocomoId`): `locomo_<i>_qa<j>` = sample `<i>` of locomo10.json (0-based, in file order), item
 *   `<j>` of its full `qa` array (category 5 included) = this project's LoCoMo id `<sample_id>:q<j>`. The callers
 *   check each keyed item's question text against LoCoMo's before using it (LoCoMo has duplicate question texts, so
 *   text is never the key).
 */
import { decodeFailure, parseJsonBytes } from '../../src/data/json-decode.ts';
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { z } from 'zod';
import { describeNetworkError, InputError, ServiceCallError } from '../../src/core/errors.ts';
import { downloadTo } from '../../src/data/download.ts';
import { sha256Memoised } from '../../src/data/hash.ts';
import { writeLockEntry, type LockEntry } from '../../src/data/lock.ts';
import { dataDirs, primaryDataDir } from '../../src/data/source.ts';
import { SCORE_CORRUPTING, type Erratum } from '../../src/core/errata.ts';

export const LOCOMO_AUDIT_REPO = 'dial481/locomo-audit';
export const LOCOMO_AUDIT_COMMIT = '9493fb4b4af4256ed17a18e8fd0b3cfdeec29539';
/** The folder under a data directory. */
export const LOCOMO_AUDIT_DIR = 'locomo-audit' as const;

/** Upstream path → sha256 and size at LOCOMO_AUDIT_COMMIT (the per-conversation errata files repeat errors.json). */
export const LOCOMO_AUDIT_FILES: Readonly<Record<string, { sha256: string; bytes: number }>> = {
  'errors.json': { sha256: 'f298ef46263fada20688a1d672be37d4f488c6da3b19343eea55ae5c1b5fe55e', bytes: 150552 },
  'ap-baseline/v1/ap_eval_results_scored.json': {
    sha256: 'a83882eda3ff02fd04dace6edddd0ceed533a245fedb3069ffde02a9503c4e3a',
    bytes: 656280,
  },
  'ap-baseline/v2/ap_eval_results_scored.json': {
    sha256: '3c32acbdcf667967a4e1f9f541b06566ae5e7361dc92f79f9043af7d068adc6b',
    bytes: 645227,
  },
  'fc-baseline/results/gpt-4o-mini-memos/eval_results.json': {
    sha256: '1c55eb0ee66f9eb784c222ec54492cc39702652baa4e6c66b7fb89a7bb8a3d8f',
    bytes: 632147,
  },
  'fc-baseline/results/gpt-4o-mini-cot/eval_results.json': {
    sha256: '08212320401c65fa9a97f78dd18adfb1d527137ec9f04b1b518420aa8e651bfe',
    bytes: 901582,
  },
  'fc-baseline/results/gpt-4.1-mini-memos/eval_results.json': {
    sha256: 'f573c091606b5c7691d7801ef30aada0bc8c54e406e31da3a2f807ab1ffa02e8',
    bytes: 630603,
  },
  'fc-baseline/results/gpt-4.1-mini-cot/eval_results.json': {
    sha256: '7fa10ba1d8976bdc215172f9d4e1840c015644b28e8e97de840b690051e354f3',
    bytes: 1234689,
  },
};

export const ERRATA_FILE = 'errors.json';
/** The two probe sets: v1 "specific-but-wrong", v2 "vague-but-topical". */
export const PROBE_FILES = {
  specific: 'ap-baseline/v1/ap_eval_results_scored.json',
  vague: 'ap-baseline/v2/ap_eval_results_scored.json',
} as const;
export const FC_BASELINE_RUNS = [
  'gpt-4o-mini-memos',
  'gpt-4o-mini-cot',
  'gpt-4.1-mini-memos',
  'gpt-4.1-mini-cot',
] as const;
export const fcBaselineFile = (run: string): string => `fc-baseline/results/${run}/eval_results.json`;

/**
 * The sample ids of locomo10.json in file order (snap-research/locomo@3eb6f2c585f5e1699204e3c3bdf7adc5c28cb376): the
 * audit's `<i>`. Callers check the question text of every keyed item, so a different LoCoMo file fails loudly.
 */
export const LOCOMO_SAMPLE_IDS = [
  'conv-26',
  'conv-30',
  'conv-41',
  'conv-42',
  'conv-43',
  'conv-44',
  'conv-47',
  'conv-48',
  'conv-49',
  'conv-50',
] as const;

/** `locomo_<i>_qa<j>` → `<sample_id>:q<j>`, or undefined when the id has another shape or sample. */
export function auditToLocomoId(auditId: string): string | undefined {
  const m = /^locomo_(\d+)_qa(\d+)$/u.exec(auditId);
  if (!m) return undefined;
  const sample = LOCOMO_SAMPLE_IDS[Number(m[1])];
  return sample === undefined ? undefined : `${sample}:q${Number(m[2])}`;
}

const ErratumSchema = z.object({
  question_id: z.string(),
  question: z.string(),
  golden_answer: z.string(),
  category: z.number().int().min(1).max(5),
  error_type: z.enum([...SCORE_CORRUPTING, 'WRONG_CITATION']),
  cited_evidence: z.array(z.string()),
  correct_evidence: z.array(z.string()),
  reasoning: z.string(),
  correct_answer: z.string(),
});

const JudgmentsSchema = z.record(z.string().regex(/^judgment_\d+$/u), z.boolean());

const EvalRecordSchema = z.object({
  question_id: z.string(),
  question: z.string(),
  golden_answer: z.string(),
  generated_answer: z.string(),
  llm_judgments: JudgmentsSchema,
  category: z.enum(['1', '2', '3', '4', '5']),
});

export const EvalResultsSchema = z.object({
  total_questions: z.number().int(),
  correct: z.number(),
  accuracy: z.number(),
  detailed_results: z.record(z.string(), z.array(EvalRecordSchema)),
  metadata: z
    .object({
      answer_model: z.string().optional(),
      judge_model: z.string().optional(),
      answer_prompt: z.string().optional(),
      num_runs: z.number().int().optional(),
    })
    .loose()
    .optional(),
});
export type EvalResults = z.infer<typeof EvalResultsSchema>;

/** One answer of an audit results file: the generated answer and the judge's verdict per run (judgment_1, _2, …). */
export interface AuditAnswer {
  questionId: string;
  auditId: string;
  question: string;
  gold: string;
  category: string;
  answer: string;
  /** Verdicts in run order (judgment_1 first). */
  judgments: boolean[];
}

function parseJsonFile<T>(path: string, schema: z.ZodType<T>, what: string): T {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (err) {
    throw new InputError(`${what}: cannot read (${(err as NodeJS.ErrnoException).code ?? String(err)})`, path);
  }
  let value: unknown;
  try {
    // Strict UTF-8 and no lone surrogate, as every dataset file (json-decode.ts).
    value = parseJsonBytes(bytes);
  } catch (err) {
    throw new InputError(`${what}: ${decodeFailure(err, path).message.slice(path.length + 2)}`, path);
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new InputError(`${what}: field \`${issue?.path.join('.') ?? ''}\`: ${issue?.message ?? 'invalid'}`, path);
  }
  return parsed.data;
}

/**
 * Where an audit file is on the data search path, its pinned sha256 checked; a missing file names the pull
 * command, a changed one names the file and both hashes.
 */
export async function auditFile(dataDir: string, upstreamPath: string): Promise<string> {
  const pinned = LOCOMO_AUDIT_FILES[upstreamPath];
  if (!pinned) throw new Error(`not a pinned locomo-audit file: ${upstreamPath}`);
  const dirs = dataDirs(dataDir);
  const path = dirs.map((d) => join(d, LOCOMO_AUDIT_DIR, upstreamPath)).find((p) => existsSync(p));
  if (!path) {
    throw new InputError(
      `${LOCOMO_AUDIT_DIR}/${upstreamPath} not found in ${dirs.join(', ')}; run \`adaptmr data pull locomo-audit\` ` +
        `(${LOCOMO_AUDIT_REPO}@${LOCOMO_AUDIT_COMMIT.slice(0, 7)}, CC BY-NC 4.0)`,
    );
  }
  const { sha256 } = await sha256Memoised(path);
  if (sha256 !== pinned.sha256) {
    throw new InputError(
      `sha256 ${sha256} differs from the pinned ${pinned.sha256} (${LOCOMO_AUDIT_REPO}@${LOCOMO_AUDIT_COMMIT.slice(0, 7)}); ` +
        'the file changed or is damaged. Run `adaptmr data pull locomo-audit --force`.',
      path,
    );
  }
  return path;
}

/** The audit's errata by this project's LoCoMo id. */
export async function loadErrata(dataDir: string): Promise<Map<string, Erratum>> {
  const path = await auditFile(dataDir, ERRATA_FILE);
  const rows = parseJsonFile(path, z.array(ErratumSchema), 'LoCoMo audit errata');
  const out = new Map<string, Erratum>();
  for (const [i, r] of rows.entries()) {
    const questionId = auditToLocomoId(r.question_id);
    if (!questionId)
      throw new InputError(`errata item ${i}: question_id "${r.question_id}" is not locomo_<i>_qa<j>`, path);
    if (out.has(questionId)) throw new InputError(`errata item ${i}: ${r.question_id} appears twice`, path);
    out.set(questionId, {
      questionId,
      auditId: r.question_id,
      question: r.question,
      originalAnswer: r.golden_answer,
      correctedAnswer: r.correct_answer,
      errorType: r.error_type,
      scoreCorrupting: r.error_type !== 'WRONG_CITATION',
      correctEvidence: r.correct_evidence,
    });
  }
  return out;
}

/**
 * A record's judgment keys in run order: exactly `judgment_1` … `judgment_<n>` (the audit's runs, numbered from 1,
 * no gap, no leading zero); anything else (`judgment_01`, `judgment_3` without `judgment_2`) is one line, not runs.
 */
function judgmentRuns(keys: string[], where: string, path: string): string[] {
  if (keys.length === 0) throw new InputError(`${where}: no llm_judgments`, path);
  const expected = keys.map((_, i) => `judgment_${i + 1}`);
  const have = new Set(keys);
  if (expected.some((k) => !have.has(k)))
    throw new InputError(
      `${where}: llm_judgments keys ${keys.join(', ')} are not judgment_1 … judgment_${keys.length} (one per run, numbered from 1)`,
      path,
    );
  return expected;
}

/** The answers of a results file in the audit's `eval_results.json` format (fc-baseline or ap-baseline), in file order. */
export function readAuditAnswers(path: string): { results: EvalResults; answers: AuditAnswer[] } {
  const results = parseJsonFile(path, EvalResultsSchema, 'locomo-audit eval_results');
  const answers: AuditAnswer[] = [];
  for (const [group, records] of Object.entries(results.detailed_results)) {
    for (const [i, r] of records.entries()) {
      const questionId = auditToLocomoId(r.question_id);
      if (!questionId)
        throw new InputError(
          `detailed_results.${group}[${i}]: question_id "${r.question_id}" is not locomo_<i>_qa<j>`,
          path,
        );
      const runs = judgmentRuns(
        Object.keys(r.llm_judgments),
        `detailed_results.${group}[${i}] (${r.question_id})`,
        path,
      );
      answers.push({
        questionId,
        auditId: r.question_id,
        question: r.question,
        gold: r.golden_answer,
        category: r.category,
        answer: r.generated_answer,
        judgments: runs.map((k) => r.llm_judgments[k]!),
      });
    }
  }
  if (answers.length === 0)
    throw new InputError('detailed_results holds no answers: nothing to import (is this the right file?)', path);
  const ids = new Set<string>();
  for (const a of answers) {
    if (ids.has(a.questionId)) throw new InputError(`${a.auditId} appears twice`, path);
    ids.add(a.questionId);
  }
  const runCounts = new Set(answers.map((a) => a.judgments.length));
  if (runCounts.size > 1)
    throw new InputError(`records differ in their number of judge runs (${[...runCounts].join(', ')})`, path);
  return { results, answers };
}

/** The audit's probe answers of one kind, by LoCoMo id. */
export async function loadAuditProbes(
  dataDir: string,
  kind: keyof typeof PROBE_FILES,
): Promise<{ path: string; answers: Map<string, AuditAnswer> }> {
  const path = await auditFile(dataDir, PROBE_FILES[kind]);
  return { path, answers: new Map(readAuditAnswers(path).answers.map((a) => [a.questionId, a])) };
}

export interface AuditPullOptions {
  dataDir: string;
  /** Base of the raw URL; default ADAPTMR_LOCOMO_URL, then https://raw.githubusercontent.com. */
  baseUrl?: string | undefined;
  force?: boolean | undefined;
  log?: ((line: string) => void) | undefined;
}

export interface AuditPullResult {
  downloaded: string[];
  present: string[];
  dir: string;
}

/**
 * `adaptmr data pull locomo-audit`: every pinned file into `<dataDir>/locomo-audit/<upstream path>`, each checked
 * against its pinned sha256 before it is renamed into place, and recorded in the lock file as
 * `locomo-audit/<upstream path>`. A file already there with the pinned sha256 is kept (no request).
 */
export async function pullLocomoAudit(opts: AuditPullOptions): Promise<AuditPullResult> {
  const dataDir = primaryDataDir(opts.dataDir);
  const log = opts.log ?? (() => undefined);
  const base = (opts.baseUrl ?? process.env.ADAPTMR_LOCOMO_URL ?? 'https://raw.githubusercontent.com').replace(
    /\/+$/,
    '',
  );
  const result: AuditPullResult = { downloaded: [], present: [], dir: join(dataDir, LOCOMO_AUDIT_DIR) };
  for (const [path, pinned] of Object.entries(LOCOMO_AUDIT_FILES)) {
    const dest = join(dataDir, LOCOMO_AUDIT_DIR, path);
    if (!opts.force && existsSync(dest) && (await sha256Memoised(dest)).sha256 === pinned.sha256) {
      result.present.push(path);
      continue;
    }
    const url = `${base}/${LOCOMO_AUDIT_REPO}/${LOCOMO_AUDIT_COMMIT}/${path}`;
    log(`locomo-audit: downloading ${url}`);
    const res = await fetch(url).catch((err: unknown) => {
      throw new ServiceCallError(`${url}: cannot download: ${describeNetworkError(err)}`, { cause: err });
    });
    if (!res.ok || !res.body) throw new InputError(`HTTP ${res.status} ${res.statusText}`, url);
    const got = await downloadTo(res.body, dest, (d) => {
      if (d.sha256 !== pinned.sha256) {
        throw new InputError(
          `sha256 ${d.sha256} differs from the pinned ${pinned.sha256}; the download was discarded`,
          url,
        );
      }
    });
    const entry: LockEntry = {
      dataset: `${LOCOMO_AUDIT_DIR}/${path}`,
      repo: `github:${LOCOMO_AUDIT_REPO}`,
      revision: LOCOMO_AUDIT_COMMIT,
      commit: LOCOMO_AUDIT_COMMIT,
      path: relative(dataDir, dest),
      sha256: got.sha256,
      bytes: got.bytes,
      url,
      fetchedAt: new Date().toISOString(),
    };
    await writeLockEntry(dataDir, entry);
    result.downloaded.push(path);
  }
  log(`locomo-audit: ${result.downloaded.length} downloaded, ${result.present.length} already present and verified`);
  return result;
}
