/**
 * The CLI's command table. Each entry names a top-level command, says what it does, and loads its module only
 * when that command runs, so `adaptmr --help` and each command start without importing every other concern (DuckDB,
 * ONNX Runtime, vega…). Add a concern's commands here: name, one-line description, and a loader of its module.
 */
import type { CommandModule } from 'yargs';

/** Command modules differ in their argument types; yargs only needs them as modules. */
export type AnyCommand = CommandModule<object, never>;

export interface CommandEntry {
  name: string;
  describe: string;
  load: () => Promise<AnyCommand>;
}

const as = (m: unknown): AnyCommand => m as AnyCommand;

export const commands: CommandEntry[] = [
  {
    name: 'run',
    describe: 'Run an experiment config (resumable)',
    load: async () => as((await import('./run/commands.ts')).runCommand),
  },
  {
    name: 'sweep',
    describe: 'Run a sweep file (or one shard of it), one results file per variation',
    load: async () => as((await import('./run/sweep/sweep-command.ts')).sweepCommand),
  },
  {
    name: 'merge',
    describe: 'Merge results files of one experiment (sweep shards) into one',
    load: async () => as((await import('./tools/merge/commands.ts')).mergeCommand),
  },
  {
    name: 'status',
    describe: "Each shard's state, questions written and cost (a split run)",
    load: async () => as((await import('./tools/scale-out/commands.ts')).statusCommand),
  },
  {
    name: 'launch',
    describe: 'Write Slurm or Kubernetes jobs that run an experiment in shards',
    load: async () => as((await import('./tools/scale-out/commands.ts')).launchCommand),
  },
  {
    name: 'data',
    describe: 'Dataset info and download (data info | data pull)',
    load: async () => as((await import('./data/commands.ts')).dataCommand),
  },
  {
    name: 'report',
    describe: 'Per-type tables and charts of a results file',
    load: async () => as((await import('./report/commands.ts')).reportCommand),
  },
  {
    name: 'export',
    describe: 'Export a results file to CSV or Parquet',
    load: async () => as((await import('./store/commands.ts')).exportCommand),
  },
  {
    name: 'classify',
    describe: 'Classify questions into AdaptMR types',
    load: async () => as((await import('./tools/classifier/commands.ts')).classifyCommand),
  },
  {
    name: 'classifier',
    describe: 'Train or evaluate a query-type classifier',
    load: async () => as((await import('./tools/classifier/commands.ts')).classifierCommand),
  },
  {
    name: 'calibrate',
    describe: 'Pick abstention thresholds on a calibration split',
    load: async () => as((await import('./tools/calibrate/commands.ts')).calibrateCommand),
  },
  {
    name: 'analyze',
    describe: 'Analyses of a results file (oracle strategy (held-out), abstention P/R)',
    load: async () => as((await import('./tools/analysis/commands.ts')).analyzeCommand),
  },
  {
    name: 'score-answers',
    describe: 'Score {question_id, prediction} lines (F1, BLEU-1, judges)',
    load: async () => as((await import('./tools/score-answers/commands.ts')).scoreAnswersCommand),
  },
  {
    name: 'rejudge',
    describe: "Add judges' verdicts to a results file's stored answers (no reader calls)",
    load: async () => as((await import('./tools/rejudge/commands.ts')).rejudgeCommand),
  },
  {
    name: 'compare',
    describe: 'Paired comparison of two methods (difference, CI, test)',
    load: async () => as((await import('./tools/compare/commands.ts')).compareCommand),
  },
  {
    name: 'bundle',
    describe: 'Write a signed results bundle (Every Eval Ever files, Parquet, manifest)',
    load: async () => as((await import('./tools/bundle/commands.ts')).bundleCommand),
  },
  {
    name: 'verify',
    describe: 'Check a results bundle: signature, hashes, every number recomputed',
    load: async () => as((await import('./tools/verify/commands.ts')).verifyCommand),
  },
  {
    name: 'board',
    describe: 'A static leaderboard page of results bundles (comparable ones together)',
    load: async () => as((await import('./tools/board/commands.ts')).boardCommand),
  },
  {
    name: 'doctor',
    describe: 'Check every endpoint an experiment uses',
    load: async () => as((await import('./tools/doctor/commands.ts')).doctorCommand),
  },
  {
    name: 'protocol-check',
    describe: 'Check a memory server against the http-memory protocol',
    load: async () => as((await import('./tools/protocol-check/commands.ts')).protocolCheckCommand),
  },
  {
    name: 'explain',
    describe: 'Case study: every method on one question, gold apart',
    load: async () => as((await import('./tools/explain/commands.ts')).explainCommand),
  },
];
