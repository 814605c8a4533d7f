/**
 * A tiny labelled training set for the trainer tests: two questions per AdaptMR type, one English and one Chinese
 * (the plan's own phrasings: 先…还是先…, 现在, 一共, 有没有跟你说过), so a test can check a model learns both languages.
 */
import type { LabelledText } from '../train.ts';

export const BILINGUAL_TRAIN: readonly LabelledText[] = [
  { text: 'When did I visit the museum?', type: 'temporal' },
  { text: '我是先换的工作还是先搬的家？', type: 'temporal' },
  { text: 'Where do I work now?', type: 'update' },
  { text: '我现在住在哪里？', type: 'update' },
  { text: 'How many plants did I buy in total?', type: 'multi-hop' },
  { text: '我一共养过几只宠物？', type: 'multi-hop' },
  { text: 'What is the name of my dog?', type: 'factual' },
  { text: '我的猫叫什么名字？', type: 'factual' },
  { text: '我有没有跟你说过我的血型？', type: 'abstention' },
  { text: 'Did I ever mention my blood type?', type: 'abstention' },
];
