/**
 * The contract of a benchmark: what one folder under benchmarks/ gives the harness (docs/architecture.md "Registries
 * and contracts"). A benchmark names its datasets (a config's `datasets[].name`), where each lives in a data
 * directory, how its records become `Instance`s, how its native question types map to the five AdaptMR types
 * (plan §2.2), and its QA protocol: how an answer is read, scored and judged, which questions are kept out of the
 * headline, and its judge prompts. The registry of benchmarks is src/run/benchmark-registry.ts; every entry runs the
 * benchmark conformance suite on its committed fixture.
 */
import type { z } from 'zod';
import type { CatalogEntry, DataIssue, ParseOptions, RawRecord } from './dataset-records.ts';
import type { Erratum } from './errata.ts';
import type { CallRecord } from './interfaces.ts';
import type { JudgeResult } from './judge.ts';
import type { LlmClient, LlmProvider } from './llm.ts';
import type { JudgePromptKind, QaConfig } from './qa-config.ts';
import type { AdaptType, ExtraTypeLabel, Instance, Retrieval } from './types.ts';

/**
 * Files `adaptmr data pull` fetches from a GitHub repository without a release, pinned to one upstream commit and
 * checked against their sha256 and size. Paths are relative to `upstreamRoot` in the repository and to `localRoot`
 * in the data directory.
 */
export interface PinnedFiles {
  repo: string;
  commit: string;
  upstreamRoot: string;
  localRoot: string;
  /** [path, sha256, bytes] */
  files: readonly (readonly [string, string, number])[];
}

/** One GitHub file `adaptmr data pull` fetches at a pinned commit, checked against its sha256 and size. */
export interface PinnedFile {
  kind: 'github-file';
  repo: string;
  commit: string;
  /** Path in the repository. */
  path: string;
  /** Path in the data directory. */
  localPath: string;
  sha256: string;
  bytes: number;
  /** The environment variable that overrides the raw URL's base (default https://raw.githubusercontent.com). */
  baseUrlEnv?: string;
}

/** One file of a Hugging Face dataset `adaptmr data pull` fetches at the asked revision (default `main`), resolved to its commit. */
export interface HubFile {
  kind: 'hf-dataset-file';
  repo: string;
  /** Path in the hub repository. */
  file: string;
  /** Path in the data directory. */
  localPath: string;
}

/** One dataset of a benchmark, as a config names it. */
export interface BenchmarkDataset {
  name: string;
  /** Where it lives in a data directory, tried in order (the upstream file first, then a folder per question). */
  layouts: readonly { rel: string; kind: 'file' | 'folder' }[];
  /** What `adaptmr data pull` fetches: pinned GitHub files, one pinned GitHub file, or a hub file at a revision. */
  pin?: PinnedFiles | PinnedFile | HubFile;
  /** A file of another dataset its items are stitched into (relative to the data directory), found beside it. */
  companion?: { dataset: string; rel: string };
  /**
   * Its answer-errata overlay by question id, read from the data directory where it is pulled; with it
   * `gold: { answers: errata }` applies (its corrected answers judged beside the originals).
   */
  answerErrata?: (dataDir: string) => Promise<ReadonlyMap<string, Erratum>>;
  /** Another dataset of the benchmark that holds the same questions (over another haystack): trained on once. */
  sameQuestionsAs?: string;
  /** Its knowledge updates name the superseded evidence, so `gold: { update: both }` applies (src/data/supersession.ts). */
  updateGold?: boolean;
}

/** What a benchmark's normaliser is told about the source it reads. */
export interface NormaliseContext {
  /** The dataset's name in results. */
  dataset: string;
  issues: DataIssue[];
  /** Questions for which this returns false are parsed but not built. */
  keep?: ((c: CatalogEntry) => boolean) | undefined;
  /** The companion file's path (`BenchmarkDataset.companion`), when the dataset has one. */
  companion?: string | undefined;
  /** The dataset entry's options under the benchmark's own key (`datasets[].<benchmark>`, `Benchmark.datasetOptions`). */
  options?: unknown;
}

/**
 * How a benchmark's files become records, catalogue entries and `Instance`s; src/data does the streaming, selecting,
 * hashing and locking around it. By default a source is an array file, or a folder of `.json`/`.json.gz` files read
 * in name order.
 */
export interface BenchmarkReader {
  /** A folder source's reading units in order, when they are not its data files (e.g. one folder per chat). */
  units?(folder: string): string[];
  /** One unit of `units`, read and parsed (`light`: only what the catalogue needs); `sync`: without an event loop. */
  readUnit?(unit: string, opts: { parse?: ParseOptions | undefined; light?: boolean }): Promise<unknown>;
  readUnitSync?(unit: string, parse?: ParseOptions): unknown;
  /** The data files of one unit of `units` (hashed for provenance and checked against the lock file). */
  unitFiles?(unit: string): string[];
  /** Checks a listed data file before any is read (e.g. a file whose name is its question type); throws an InputError. */
  checkFile?(file: string): void;
  /**
   * Each record is one question whose id and type are its first keys: the catalogue reads these heads only (and a
   * reader passes over the items a selection refuses, unparsed).
   */
  headKeys?: readonly string[];
  /** Keys of a record a catalogue pass never reads (skipped unparsed). */
  catalogueSkipKeys?: readonly string[];
  /** The catalogue entries of one record (a head, with `headKeys`). */
  catalogue(record: RawRecord): CatalogEntry[];
  /** The instances of one record; invalid records throw an InputError naming the file and item. */
  normalise(record: RawRecord, ctx: NormaliseContext): Iterable<Instance>;
  /** What a session and a turn are called in the benchmark's own terms (`adaptmr data info`); default sessions, turns. */
  unitNames?: readonly [string, string];
}

/** How reports show a benchmark. */
export interface BenchmarkDisplay {
  /** Its name in prose (`LongMemEval`, `LoCoMo`). */
  label: string;
  /** The colour of the routers fitted on each of its datasets (`adaptmr-from-<dataset>`), by dataset name. */
  fittedColours?: Readonly<Record<string, string>>;
  /** Its native types that fit none of the five AdaptMR types are reported per native type (beside the type that averages the others). */
  perNativeType?: boolean;
}

/** An AdaptMR type for a native type; `reportAs` when none of the five fits (reported apart, never in a headline). */
export interface MappedType {
  type: AdaptType;
  reportAs?: ExtraTypeLabel;
}

/** One answer to score, with the gold the protocol needs. */
export interface AnswerToScore {
  /** The benchmark's protocol id (`BenchmarkQa.protocol`). */
  protocol: string;
  questionId: string;
  nativeType: string;
  question: string;
  /** Gold answer (or rubric / explanation, per protocol). */
  gold: string;
  hypothesis: string;
  /** Rubric items, where the protocol judges against a rubric. */
  rubric?: readonly string[];
  /** The correct letter, when the question was asked as multiple choice (scored exactly, no judge). */
  correctChoice?: string;
  /** The cue a judge checks the reply against, where the protocol has no reference answer. */
  evidenceText?: string;
}

export interface AnswerScores {
  judge?: JudgeResult;
  /** Token F1 (with the protocol's category rules). */
  f1?: number;
  /** BLEU-1. */
  bleu1?: number;
  /** Further per-question metrics the protocol defines (exact `accuracy`, `event_order`, `kendall_tau_b`, …). */
  metrics?: Record<string, number>;
}

export interface ScoreOptions {
  calls: CallRecord[];
  /** Judge runs per question (default 1). */
  repeats?: number;
  /** Judge the questions the protocol leaves unjudged by default (LoCoMo's adversarial category). */
  judgeAdversarial?: boolean;
  /** The judge's prompt where the protocol accepts a panel prompt (default: its official one). */
  prompt?: JudgePromptKind | undefined;
  /** Call-record stage of the judge calls (default `judge`). */
  stage?: string;
}

/** What a protocol's own reader gets: the question, what the method retrieved (or answered), the reader settings. */
export interface ReadInput {
  instance: Instance;
  retrieval: Retrieval;
  /** The method's own answer, when it gave one (a protocol may still need to record how the question was asked). */
  methodAnswer?: string | undefined;
  config: QaConfig;
  llm: LlmProvider;
  calls: CallRecord[];
}

/** A protocol's own reading: the answer, the tokens the reader saw (when not the retrieval's context), scoring extras. */
export interface ProtocolRead {
  answer: string;
  contextTokens?: number;
  score?: Pick<AnswerToScore, 'correctChoice'>;
}

/** How a benchmark's answers are read, scored and judged. */
export interface BenchmarkQa {
  /** Stored with runs and used by reports (`longmemeval`, `locomo`, …). */
  protocol: string;
  /** The panel protocol its answers may be judged under with any panel prompt; undefined: its own judge only. */
  panel?: 'longmemeval' | 'locomo';
  /** The judge prompts the benchmark defines, each `name — source` (owner/repo@commit path). */
  judgePrompts: readonly string[];
  /** Why a question of this native type is kept out of the headline (reported apart), or null. */
  excluded(nativeType: string): string | null;
  /** The protocol's own reader; undefined (or returning undefined): the harness's reader (src/eval/qa/reader.ts). */
  read?(input: ReadInput): Promise<ProtocolRead | undefined>;
  /**
   * Its own judge asked again by every judge of a panel from what the results file stores (the judging pass,
   * src/run/judging/benchmark-panel.ts): the scoring input the stored gold answer gives (e.g. the rubric, one item per line);
   * undefined: its own judge cannot be asked again from the results file.
   */
  rejudge?(storedAnswer: string): Pick<AnswerToScore, 'rubric'>;
  /** Scores one answer; LLM failures propagate (the caller records them on the question's row). */
  score(input: AnswerToScore, judge: LlmClient | undefined, options: ScoreOptions): Promise<AnswerScores>;
  /**
   * The judge reads evidence besides the gold answer (`AnswerToScore.evidenceText`, stored as
   * `questions.judge_evidence`): a results file without it cannot be judged again.
   */
  judgeNeedsEvidence?: boolean;
  /** How leniency probes are made for a benchmark with its own judge (docs/qa-and-judges.md); default: from the gold answer, every rule. */
  probes?: ProbeMaking;
  /**
   * Published known-wrong answers (`qa.probes.source: audit`), per probe kind, for the run's questions (each checked
   * against the question text the run stored), read from files pulled into the data directory.
   */
  publishedProbes?(
    dataDir: string,
    questions: readonly { questionId: string; text: string }[],
  ): Promise<Map<'specific' | 'vague', Map<string, { answer: string; source: string }>>>;
  /**
   * File formats of answers other systems published with their judges' verdicts, by the name
   * `adaptmr score-answers --format <name>` gives; each loaded when that command runs.
   */
  answerFormats?: Readonly<Record<string, () => Promise<AnswerFormat>>>;
}

/** One published answer with its judge's verdict per run, keyed to a question of the benchmark. */
export interface PublishedAnswer {
  /** This project's question id. */
  questionId: string;
  /** The question's id in the file. */
  auditId: string;
  question: string;
  gold: string;
  /** The native type the file gives (checked against the benchmark's). */
  category: string;
  answer: string;
  /** Verdicts in run order. */
  judgments: boolean[];
}

/** How a file of published answers says they were made (null where it does not say). */
export interface PublishedAnswersMeta {
  answerModel: string | null;
  answerPrompt: string | null;
  judgeModel: string | null;
}

/** A format of published answers (`BenchmarkQa.answerFormats`): how one file is read and how a pinned one is named. */
export interface AnswerFormat {
  /** One file's answers in file order; a malformed file is an InputError naming it and the record. */
  read(file: string): { meta: PublishedAnswersMeta; answers: PublishedAnswer[] };
  /** `owner/repo@commit path` of the pinned upstream file with these bytes (its sha256), else null. */
  pinnedName(sha256: string): string | null;
}

/**
 * Files `adaptmr data pull <name>` fetches that are not a dataset of questions (an audit's errata, probes and
 * baseline runs), pinned and checked by the benchmark's own `pull`.
 */
export interface BenchmarkExtraPull {
  name: string;
  /** What the files are, for `data pull --help`. */
  describe: string;
  pull(opts: {
    dataDir: string;
    baseUrl?: string | undefined;
    force?: boolean | undefined;
    log?: ((line: string) => void) | undefined;
  }): Promise<{ downloaded: string[]; present: string[]; dir: string }>;
}

/** What a benchmark's leniency probes are made against (src/eval/qa/probes/rules.ts). */
export interface ProbeMaking {
  /** The text a known-wrong answer is made against, from the stored gold; '' when none can be. */
  goldOf(q: { answer: string; judgeEvidence?: string | null | undefined }): string;
  /** `neighbour`: only another question's gold is a specific-wrong answer (editing a value of the gold is not wrong). */
  specific?: 'all' | 'neighbour';
}

/** The committed fixture the conformance suite runs: a few items the project wrote itself, in the upstream format. */
export interface BenchmarkFixture {
  /** Path relative to the benchmark's folder. */
  path: string;
  kind: 'file' | 'folder';
  /** A second file the items are stitched into (relative to the benchmark's folder), where the benchmark needs one. */
  companion?: string;
  /** What a judge of the protocol replies to a right and to a wrong answer (the conformance suite's loopback judge). */
  judgeReplies?: { right: string; wrong: string };
  /**
   * A malformed item: the fixture's file `file` (relative to `path`; '' for a single-file fixture) replaced by `text`
   * must fail with a one-line error naming the file and `item`.
   */
  malformed: { file: string; text: string; item: string };
}

export interface Benchmark {
  /** The benchmark's name: its folder under benchmarks/ and the source format of its datasets. */
  name: string;
  description: string;
  display: BenchmarkDisplay;
  datasets: readonly BenchmarkDataset[];
  reader: BenchmarkReader;
  /** A user-given file or folder may be in this format (`datasets[].path` with `format`); false: named datasets only. */
  pathFormat: boolean;
  /**
   * Options a config may give its named datasets under the benchmark's name (`datasets: [{ name, <benchmark>: {…} }]`),
   * checked with this schema and handed to `reader.normalise` (`NormaliseContext.options`).
   */
  datasetOptions?: z.ZodType;
  /** Its native type labels, in its own order (every one `mapType` maps). */
  nativeTypes?: readonly string[];
  /** Native type → AdaptMR type; undefined for a native type the benchmark does not define. */
  mapType(nativeType: string, questionId: string): MappedType | undefined;
  qa: BenchmarkQa;
  fixture: BenchmarkFixture;
  /** Pinned files `adaptmr data pull` fetches beside the datasets (not questions). */
  extraPulls?: readonly BenchmarkExtraPull[];
}

/** Declares a benchmark (frozen: the registry hands the same object to every caller). */
export function defineBenchmark(b: Benchmark): Benchmark {
  return Object.freeze({ ...b, qa: Object.freeze({ ...b.qa }), reader: Object.freeze({ ...b.reader }) });
}
