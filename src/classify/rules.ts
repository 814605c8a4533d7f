/**
 * The keyword/regex classifier: the plan's option C first layer (plan §2.2: temporal 先/后/之前/之后/什么时候/
 * 最近一次/上次, update 现在/目前/最新/换了/改了, abstention 有没有说过/你知道吗/我提过吗), widened with general
 * English and Chinese vocabulary for the same notions and with aggregation cues for multi-hop.
 *
 * Guard against tuning on the test questions: these lists were written from the plan's cue lists and ordinary
 * temporal/update/aggregation vocabulary before any evaluation question was read, then evaluated once on both
 * datasets; they were not edited after seeing the results (README "Classifier evaluation").
 *
 * Probabilities: each type's score is the number of its cue patterns that match; the default type gets a prior of
 * `defaultPrior`; p(t) = softmax(beta · score)(t). The decision is the highest score, ties broken by the plan's
 * order (temporal, update, abstention — its `if` chain — then multi-hop, then factual). A question no cue matches
 * is "undecided": it gets the default type, and `rules+llm` sends exactly these to the LLM.
 *
 * With `calibrationFile` (written by `adaptmr classifier calibrate`), `classify` maps the cue counts through the
 * fitted calibration instead (calibration.ts; source `calibrated`), the type is the calibrated argmax (same tie
 * order), and `excludedQuestionIds` names the calibration questions, which the evaluation must leave out.
 */
import { z } from 'zod';
import type { Classifier, Ctx } from '../core/interfaces.ts';
import { ADAPT_TYPES, AdaptTypeSchema, type AdaptType, type Query } from '../core/types.ts';
import { applyCalibration, readClassifierCalibration, type ClassifierCalibrationFile } from './calibration.ts';
import type { Classification } from './result.ts';

type CueTable = Record<Exclude<AdaptType, 'factual'>, RegExp[]>;

const MONTHS = 'january|february|march|april|june|july|august|september|october|november|december';
const WEEKDAYS = 'monday|tuesday|wednesday|thursday|friday|saturday|sunday';

export const ENGLISH_CUES: CueTable = {
  temporal: [
    /\bwhen\b/i,
    /\bwhat (time|date|day|month|year)\b/i,
    /\bhow long\b/i,
    /\bhow many (seconds|minutes|hours|days|weeks|months|years)\b/i,
    /\b(before|after|since|until|prior to|earlier than|later than)\b/i,
    /\b(first|last|previous) time\b/i,
    /\bwhich\b.{0,80}\bfirst\b/i,
    /\b(earliest|earlier|ago)\b/i,
    /\b(in )?(what|which) order\b/i,
    /\b(yesterday|last (week|month|year|weekend|summer|winter|spring|fall|autumn)|next (week|month|year))\b/i,
    new RegExp(`\\b(${MONTHS}|${WEEKDAYS})\\b`, 'i'),
    /\b(19|20)\d\d\b/,
  ],
  update: [
    /\b(now|currently|current|nowadays|presently|these days|at the moment|at present)\b/i,
    /\b(latest|newest|most recent|most recently|recently)\b/i,
    /\b(changed?|switched|updated?|replaced)\b/i,
    /\b(still|anymore|any more|no longer)\b/i,
  ],
  abstention: [
    /\b(did|have|had) i (ever )?(mention|mentioned|tell|told|say|said)\b/i,
    /\bdo you (know|remember) (if|whether)\b/i,
    /\bdo you know\b/i,
    /\b(did|have) we (ever )?(talk|talked|discuss|discussed)\b/i,
  ],
  'multi-hop': [
    /\bhow (many|much)\b/i,
    /\b(in total|total|altogether|combined|sum|average)\b/i,
    /\b(all (the|of)|each|every|both|across)\b/i,
    /\b(compare|comparison|difference between)\b/i,
    /\bthe (most|least|fewest)\b/i,
    /\bwhich (of|one)\b/i,
  ],
};

export const CHINESE_CUES: CueTable = {
  temporal: [
    /什么时候|何时|哪天|哪一天|几月|几号|几点/u,
    /多久|多长时间/u,
    /之前|之后|以前|以后/u,
    /最近一次|上次|上一次|第一次/u,
    // The plan lists bare 先 and 后; kept as written (they also catch 先…还是… "which came first").
    /先|后/u,
    /顺序|昨天|前天|去年|上个月|上周|上星期|年前|天前/u,
  ],
  update: [/现在|目前|如今|当前/u, /最新|最近的/u, /换了|改了|更新|变了/u, /还在|仍然|依然/u],
  abstention: [/有没有.{0,6}(说过|提过|讲过|告诉过)/u, /你知道.*吗/u, /我提过.*吗/u],
  'multi-hop': [
    /多少|几(个|次|本|家|种|位|件|只|门|部)/u,
    /总共|一共|总计|合计|平均|综合/u,
    /共同|哪个最|哪一个最|最多|最少|比较/u,
    /所有|分别|各/u,
  ],
};

/** The plan's `if` order first (temporal, update, abstention), then multi-hop, then factual. */
const PRECEDENCE: AdaptType[] = ['temporal', 'update', 'abstention', 'multi-hop', 'factual'];

export const RulesOptionsSchema = z
  .object({
    /** Type given when no cue matches. */
    defaultType: AdaptTypeSchema.default('factual'),
    /** Softmax inverse temperature over cue counts. */
    beta: z.number().positive().default(1.5),
    /** Score added to the default type, so an undecided question leans to it. */
    defaultPrior: z.number().min(0).default(0.5),
    /** Which cue tables to use; `auto` uses both (a question's script picks whichever matches). */
    language: z.enum(['auto', 'en', 'zh']).default('auto'),
    /** Calibrated probabilities: a file from `adaptmr classifier calibrate` (e.g. calibration/classifier-rules-lme-s.json). */
    calibrationFile: z.string().min(1).optional(),
  })
  .strict();
export type RulesOptions = z.infer<typeof RulesOptionsSchema>;

export interface RuleMatch {
  scores: Record<AdaptType, number>;
  /** The cues that matched, `<type>:<pattern source>`. */
  cues: string[];
  decided: boolean;
}

export function matchCues(text: string, language: RulesOptions['language'] = 'auto'): RuleMatch {
  const scores = Object.fromEntries(ADAPT_TYPES.map((t) => [t, 0])) as Record<AdaptType, number>;
  const cues: string[] = [];
  const tables = language === 'en' ? [ENGLISH_CUES] : language === 'zh' ? [CHINESE_CUES] : [ENGLISH_CUES, CHINESE_CUES];
  for (const table of tables) {
    for (const [type, patterns] of Object.entries(table) as [AdaptType, RegExp[]][]) {
      for (const p of patterns) {
        if (p.test(text)) {
          scores[type] += 1;
          cues.push(`${type}:${p.source}`);
        }
      }
    }
  }
  return { scores, cues, decided: cues.length > 0 };
}

/** Every cue's id (`<type>:<pattern source>`, as `matchCues` reports them): English first, then Chinese. */
export function cueIds(): string[] {
  return [ENGLISH_CUES, CHINESE_CUES].flatMap((table) =>
    (Object.entries(table) as [AdaptType, RegExp[]][]).flatMap(([type, ps]) => ps.map((p) => `${type}:${p.source}`)),
  );
}

export class RulesClassifier implements Classifier {
  readonly name = 'rules';
  readonly options: RulesOptions;
  readonly calibration?: ClassifierCalibrationFile;
  /** The calibration questions (with `calibrationFile`): evaluations must exclude them. */
  readonly excludedQuestionIds?: ReadonlySet<string>;
  constructor(options: Partial<RulesOptions> = {}) {
    this.options = RulesOptionsSchema.parse(options);
    if (this.options.calibrationFile !== undefined) {
      this.calibration = readClassifierCalibration(this.options.calibrationFile);
      this.excludedQuestionIds = new Set(this.calibration.calibrationQuestionIds);
    }
  }

  /** Synchronous core, shared with rules+llm and the abstention-visibility report. */
  explain(text: string): Classification & RuleMatch {
    const o = this.options;
    const m = matchCues(text, o.language);
    const scores = { ...m.scores, [o.defaultType]: m.scores[o.defaultType] + o.defaultPrior };
    const max = Math.max(...ADAPT_TYPES.map((t) => scores[t]));
    const exps = ADAPT_TYPES.map((t) => Math.exp(o.beta * (scores[t] - max)));
    const sum = exps.reduce((a, b) => a + b, 0);
    const probs = Object.fromEntries(ADAPT_TYPES.map((t, i) => [t, (exps[i] ?? 0) / sum])) as Record<AdaptType, number>;
    const type = m.decided ? (PRECEDENCE.find((t) => scores[t] === max) ?? o.defaultType) : o.defaultType;
    return { ...m, type, probs, source: 'rules', route: 'rules' };
  }

  /** The calibrated distribution (needs `calibrationFile`), from the raw cue counts. */
  calibrated(text: string): Classification {
    if (!this.calibration) throw new Error('rules: no calibrationFile configured');
    const m = matchCues(text, this.options.language);
    const values = applyCalibration(this.calibration.params, m.scores);
    const probs = Object.fromEntries(ADAPT_TYPES.map((t, i) => [t, values[i] ?? 0])) as Record<AdaptType, number>;
    const max = Math.max(...values);
    const type = PRECEDENCE.find((t) => probs[t] === max) ?? this.options.defaultType;
    return { type, probs, source: 'calibrated' };
  }

  async classify(query: Query, _ctx?: Ctx): Promise<Classification> {
    if (this.calibration) return this.calibrated(query.text);
    const { type, probs, source } = this.explain(query.text);
    return { type, probs, source };
  }
}
