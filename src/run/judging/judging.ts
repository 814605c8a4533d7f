/**
 * What a run needs to judge its answers: the judge panel (qa.judges, or the judge role as a one-judge panel), the
 * call-record stage of each judge, and per dataset the headline gold version and the LoCoMo errata
 * (`gold: { answers: errata }`). Gold versions are gold: they reach the judge, never a method.
 */
import type { ExperimentConfig } from '../../core/config.ts';
import { InputError } from '../../core/errors.ts';
import { clientFor, type LlmProvider } from '../../core/llm.ts';
import type { Instance } from '../../core/types.ts';
import { panelOf, promptFor, type PanelJudge, type QaProtocol } from '../../eval/qa/panel.ts';
import type { PrimaryJudge } from '../../eval/qa/answer-question.ts';
import type { Erratum } from '../../data/locomo-audit.ts';
import type { GoldVersionRow } from '../../store/types.ts';

/** The gold versions this harness knows. */
export const GOLD_VERSIONS = ['original', 'errata'] as const;

export interface DatasetJudging {
  panel: PanelJudge[];
  /** The gold version the `accuracy` scores use. */
  headline: 'original' | 'errata';
  /** LoCoMo errata by question id (only with `gold: { answers: errata }`). */
  errata?: ReadonlyMap<string, Erratum> | undefined;
}

/** The panel of an experiment, checked: a panel needs the judge role's endpoint; probes need a judge. */
export function runPanel(config: ExperimentConfig, where: string): PanelJudge[] {
  const qa = config.qa;
  if (!qa) return [];
  const role = config.llm?.roles.judge;
  if (qa.judges && !role) {
    throw new InputError(
      'qa.judges needs llm.roles.judge: its endpoint, key and settings serve every judge of the panel',
      where,
    );
  }
  const panel = panelOf(qa, role?.model);
  if (qa.probes && panel.length === 0)
    throw new InputError('qa.probes needs a judge (llm.roles.judge or qa.judges)', where);
  return panel;
}

/** The stage a judge's calls are recorded under: `judge` for the plain one-judge panel, else `judge:<id>`. */
export function judgeStage(config: Pick<ExperimentConfig, 'qa'>, judgeId: string): string {
  return config.qa?.judges ? `judge:${judgeId}` : 'judge';
}

/** The primary judge's client, prompt and stage for the answers of one protocol. */
export function primaryJudge(
  config: ExperimentConfig,
  llm: LlmProvider,
  panel: readonly PanelJudge[],
  protocol: QaProtocol,
): PrimaryJudge | undefined {
  const first = panel[0];
  if (!first) return undefined;
  return {
    client: clientFor(llm, 'judge', first.model),
    prompt: promptFor(first, protocol),
    stage: judgeStage(config, first.id),
  };
}

/** The erratum that changes a question's answer (score-corrupting), its question text checked against the dataset's. */
export function answerErratum(judging: DatasetJudging | undefined, instance: Instance): Erratum | undefined {
  const e = judging?.errata?.get(instance.query.id);
  if (!e) return undefined;
  if (e.question !== instance.query.text) {
    throw new InputError(
      `${e.source ? 'erratum' : 'LoCoMo audit erratum'} ${e.auditId} is for "${e.question}", the dataset's question is "${instance.query.text}"; ` +
        `the errata fit ${e.source ?? 'snap-research/locomo@3eb6f2c data/locomo10.json'} only`,
      `question ${instance.query.id}`,
    );
  }
  return e.scoreCorrupting ? e : undefined;
}

/** The gold answer a question is judged against under a version. */
export function goldAnswer(instance: Instance, version: string, erratum: Erratum | undefined): string {
  return version === 'errata' && erratum ? erratum.correctedAnswer : instance.gold.answer;
}

/** The gold_versions rows of a question whose answer an erratum changes (both versions), else none. */
export function goldVersionRows(instance: Instance, erratum: Erratum | undefined): GoldVersionRow[] {
  if (!erratum) return [];
  const base = { dataset: instance.dataset, questionId: instance.query.id };
  return [
    { ...base, version: 'original', answer: instance.gold.answer, note: null },
    { ...base, version: 'errata', answer: erratum.correctedAnswer, note: erratum.errorType },
  ];
}
