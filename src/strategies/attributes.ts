/**
 * Attribute families for the update strategy's offline same-topic test: the personal attributes whose value a newer
 * memory replaces (where I live, my job, my pet, my exercise routine …), each as the English words (stemmed like
 * text.ts) and Chinese words that name it. "I live in Beijing" and "I moved to Hangzhou" share no content word but
 * share the residence family; two restaurant recommendations share words but no family, and recommendations add up
 * rather than replace. The list is ours, written from the plan's examples (§1.2, §2.3 策略 3: 住址, 工作) and the
 * attributes LongMemEval's knowledge-update questions ask about (residence, job, pets, fitness, vehicles,
 * relationships, devices, study, health); it is not fitted to any question.
 */
import { normaliseWord, type TextKeys } from './text.ts';

const FAMILIES: Readonly<Record<string, { en: string; zh: string }>> = {
  residence: {
    en: 'live lived living move moved moving relocate relocated address apartment neighborhood neighbourhood district reside',
    zh: '住 搬 住址 地址 公寓 小区 定居',
  },
  job: {
    en: 'job work working employer company position promoted promotion salary career office hired',
    zh: '工作 公司 上班 职位 升职 工资 跳槽 入职',
  },
  pet: { en: 'cat dog pet puppy kitten', zh: '猫 狗 宠物' },
  exercise: {
    en: 'run running ran jog jogging gym workout exercise marathon kilometers kilometres km miles swim yoga',
    zh: '跑步 跑 健身 公里 锻炼 游泳 瑜伽',
  },
  vehicle: { en: 'car vehicle drive bike motorcycle', zh: '车 汽车 自行车' },
  relationship: {
    en: 'girlfriend boyfriend partner wife husband married marry dating fiance fiancee',
    zh: '女朋友 男朋友 对象 结婚 老婆 老公',
  },
  device: { en: 'phone laptop computer tablet', zh: '手机 电脑 平板' },
  study: { en: 'school degree university college course study studying major', zh: '学校 学位 大学 课程 专业' },
  health: { en: 'weight doctor medication diet allergy', zh: '体重 医生 药 饮食 过敏' },
};

interface Family {
  name: string;
  en: ReadonlySet<string>;
  zh: readonly string[];
}

const COMPILED: readonly Family[] = Object.entries(FAMILIES).map(([name, f]) => ({
  name,
  en: new Set(f.en.split(' ').map(normaliseWord)),
  zh: f.zh.split(' '),
}));

/** The attribute families a text names (by its keys from text.ts). */
export function familiesOf(keys: TextKeys): Set<string> {
  const out = new Set<string>();
  for (const f of COMPILED) {
    if (f.zh.some((w) => keys.lower.includes(w))) out.add(f.name);
    else
      for (const w of keys.words)
        if (f.en.has(w)) {
          out.add(f.name);
          break;
        }
  }
  return out;
}

/** The words of the given families, as one search text (query expansion for the update strategy's candidates). */
export function familyWords(names: Iterable<string>): string {
  const out: string[] = [];
  for (const n of names) {
    const f = FAMILIES[n];
    if (f) out.push(f.en, f.zh);
  }
  return out.join(' ');
}
