/**
 * `adaptmr rejudge <file> --judge <id>:<model>[:<prompt>] …`: adds verdicts to a results file's stored answers with new
 * judges — no retrieval, no reader call — through the judging pass of src/run/judging/judge-pass.ts (cached, resumable: a
 * verdict already in the file is not asked again; calls recorded in `llm_calls` as stage `judge:<id>`). The judges
 * use the endpoint, key variable, settings and cache of the run's `llm.roles.judge` (`--base-url` / `--api-key-env`
 * override or supply them), the run's judge repeats and its LoCoMo category-5 rule, and judge every gold version and
 * probe answer the run holds. A file written before judge panels first gets its one judge's verdicts as rows.
 * Statistics (judge_agreement, judge_comparisons) are recomputed at the end.
 */
import { parseStoredConfig } from '../../store/stored-config.ts';
import { existsSync } from 'node:fs';
import { InputError } from '../../core/errors.ts';
import { LlmConfigSchema, type LlmConfigInput } from '../../core/llm-config.ts';
import { primaryJudgeOf } from '../../eval/qa/panel.ts';
import { parseJudgeSpec } from './judge-spec.ts';
import { createLlmProvider } from '../../llm/provider.ts';
import { backfillLegacyVerdicts, judgePass, type JudgePassSummary } from '../../run/judging/judge-pass.ts';
import { openResultStore, refreshStats } from '../../store/index.ts';
import { PLAN_EXPERIMENT_REGISTRY } from '../../plan-experiments/registry.ts';

export interface RejudgeOptions {
  /** `<id>:<model>[:<prompt>]` each. */
  judges: readonly string[];
  /** Only this run (default: every run of the file with answers). */
  run?: string | undefined;
  baseUrl?: string | undefined;
  apiKeyEnv?: string | undefined;
  log?: (line: string) => void;
}

export interface RejudgeSummary extends JudgePassSummary {
  runs: number;
  backfilled: number;
}

export { parseJudgeSpec } from './judge-spec.ts';

interface StoredConfig {
  llm?: LlmConfigInput;
  qa?: { judge?: { repeats?: number; judgeAdversarial?: boolean } };
}

export async function rejudgeFile(file: string, o: RejudgeOptions): Promise<RejudgeSummary> {
  if (o.judges.length === 0)
    throw new InputError('name at least one judge: --judge <id>:<model>[:<prompt>]', '--judge');
  const panel = o.judges.map(parseJudgeSpec);
  if (new Set(panel.map((j) => j.id)).size !== panel.length) throw new InputError('each judge id once', '--judge');
  const log = o.log ?? (() => {});
  if (!existsSync(file)) throw new InputError('results file not found', file);
  const store = await openResultStore(file);
  const total: RejudgeSummary = { runs: 0, backfilled: 0, judged: 0, copied: 0, probesAdded: 0, failed: 0 };
  try {
    const runs = await store.query<{ run_id: string; config_json: string }>(
      `SELECT r.run_id, r.config_json FROM runs r WHERE EXISTS (SELECT 1 FROM answers a WHERE a.run_id = r.run_id) ORDER BY r.run_id`,
    );
    const chosen = o.run ? runs.filter((r) => r.run_id === o.run) : runs;
    if (chosen.length === 0)
      throw new InputError(
        o.run
          ? `no run "${o.run}" with answers`
          : 'the file holds no answers to judge (run an experiment with qa: first)',
        file,
      );
    for (const run of chosen) {
      const stored = parseStoredConfig(run.config_json, run.run_id, file) as StoredConfig;
      const role = stored.llm?.roles?.judge;
      const llmInput: LlmConfigInput = {
        ...(stored.llm ?? {}),
        roles: {
          judge: {
            ...(role ?? {}),
            model: panel[0]!.model,
            ...(o.baseUrl ? { baseURL: o.baseUrl } : {}),
            ...(o.apiKeyEnv ? { apiKeyEnv: o.apiKeyEnv } : {}),
          },
        },
      };
      const llmParsed = LlmConfigSchema.safeParse(llmInput);
      if (!llmParsed.success)
        throw new InputError(
          `run ${run.run_id}: its llm settings do not parse (${llmParsed.error.issues[0]?.message})`,
          file,
        );
      const llm = createLlmProvider(llmParsed.data);
      if (role?.model)
        total.backfilled += await backfillLegacyVerdicts(store, run.run_id, {
          id: primaryJudgeOf(run.config_json),
          model: role.model,
        });
      const summary = await judgePass(store, {
        runId: run.run_id,
        panel,
        llm,
        stageOf: (id) => `judge:${id}`,
        repeats: stored.qa?.judge?.repeats ?? 1,
        judgeAdversarial: stored.qa?.judge?.judgeAdversarial ?? false,
        log,
      });
      total.runs++;
      total.judged += summary.judged;
      total.copied += summary.copied;
      total.failed += summary.failed;
      if (summary.firstError !== undefined) total.firstError ??= summary.firstError;
    }
    await refreshStats(store, PLAN_EXPERIMENT_REGISTRY);
    return total;
  } finally {
    await store.close();
  }
}
