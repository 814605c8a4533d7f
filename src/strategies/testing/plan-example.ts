/**
 * The plan's own example (plan §1.2) as a LongMemEval-format dataset, `plan-example.json`: the eight memories
 * M1–M8 (2023, dates from the plan's table; each a session of one user turn and one assistant reply) and, per
 * language (Chinese as in the plan, and an English translation), the five questions of §1.2 — factual (the cat),
 * temporal (running vs the move), update (where I live now), multi-hop (which cuisine most), and the plan's
 * unanswerable blood-type question — plus a second unanswerable one (a dog that was never mentioned), asked on
 * 2023-08-20, after M8. Restaurant names follow §2.3 (鶴矢 = "Tsuruya", 蜀乡情 = "Shuxiangqing"); the assistant
 * replies are ours (the plan gives only what was recommended). Loaded through the real LongMemEval normaliser.
 *
 * `TOPIC` labels what each memory is about, for the "never merge different topics" checks of the update strategy:
 * the residence (M1 → M4) and the running distance (M6 → M8) change; everything else is its own topic.
 */
import { readFileSync } from 'node:fs';
import type { Instance } from '../../core/types.ts';
import { normaliseLongMemEval } from '../../../benchmarks/longmemeval/load.ts';

export const PLAN_EXAMPLE_FILE = new URL('./plan-example.json', import.meta.url);

export type PlanLanguage = 'zh' | 'en';
export type PlanQuestion = 'factual' | 'temporal' | 'update' | 'multi-hop' | 'blood-type_abs' | 'dog_abs';

let cached: Instance[] | undefined;
export function planExample(): Instance[] {
  cached ??= (JSON.parse(readFileSync(PLAN_EXAMPLE_FILE, 'utf8')) as unknown[]).map((raw) =>
    normaliseLongMemEval(raw, 'plan-example.json', 'plan-example'),
  );
  return cached;
}

export function planInstance(lang: PlanLanguage, question: PlanQuestion): Instance {
  const id = `plan-${lang}-${question}`;
  const found = planExample().find((i) => i.query.id === id);
  if (!found) throw new Error(`no question ${id} in plan-example.json`);
  return found;
}

export const TOPIC: Readonly<Record<string, string>> = {
  M1: 'residence',
  M2: 'job-search',
  M3: 'cat',
  M4: 'residence',
  M5: 'japanese-restaurant',
  M6: 'running',
  M7: 'sichuan-restaurant',
  M8: 'running',
};
