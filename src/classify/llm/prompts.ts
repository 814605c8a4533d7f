/**
 * The few-shot classification prompt of plan §2.2 option A (`CLASSIFIER_PROMPT`), in its original Chinese and in
 * a faithful English translation, with two reply instructions:
 * - `json` (default): a JSON object with the type and a probability per type — for structured output and stated
 *   probabilities;
 * - `name`: the plan's own instruction verbatim ("请只返回类型名称（如 factual_extraction），不需要解释。"), sent
 *   without a JSON schema; probabilities then come from the log-probabilities of the name's first token.
 * The type ids are the plan's own (`factual_extraction` …), whose distinct first letters let the log-probability
 * reader tell them apart.
 */

export type PromptLanguage = 'en' | 'zh';

/** The plan's prompt, verbatim up to the reply instruction. */
const ZH = `你是一个查询类型分类器。根据用户的查询，判断它属于以下哪种类型：

1. factual_extraction: 直接提取某个具体事实
   示例："我的猫叫什么名字？"、"你记得我说过喜欢什么颜色吗？"

2. temporal_reasoning: 需要理解时间先后关系
   示例："我是先换的工作还是先搬的家？"、"上个月我跟你聊了什么？"

3. knowledge_update: 涉及可能已更新的信息
   示例："我现在住在哪里？"、"我最近的工作是什么？"

4. multi_hop: 需要综合多条信息推理
   示例："我提到过的餐厅里哪个评价最好？"、"我和小王的共同爱好是什么？"

5. abstention: 需要判断是否有相关信息
   示例："我有没有跟你说过我的血型？"、"你知道我父亲的职业吗？"

用户查询：{query}

`;

/** English translation of the same prompt; examples translated, names kept (小王 → Xiao Wang). */
const EN = `You are a query type classifier. Given the user's query, decide which of the following types it belongs to:

1. factual_extraction: directly extract a specific fact
   Examples: "What is my cat's name?", "Do you remember what colour I said I like?"

2. temporal_reasoning: requires understanding the order of events in time
   Examples: "Did I change jobs first or move house first?", "What did I chat with you about last month?"

3. knowledge_update: involves information that may have been updated
   Examples: "Where do I live now?", "What is my most recent job?"

4. multi_hop: requires combining several pieces of information to reason
   Examples: "Which of the restaurants I mentioned had the best reviews?", "What hobby do Xiao Wang and I have in common?"

5. abstention: requires judging whether any relevant information exists
   Examples: "Have I ever told you my blood type?", "Do you know my father's occupation?"

User query: {query}

`;

export type ReplyFormat = 'json' | 'name';

const REPLY: Record<ReplyFormat, Record<PromptLanguage, string>> = {
  json: {
    zh: '请只返回一个 JSON 对象，不需要解释：{"type": 类型名称（如 factual_extraction）, "probabilities": {五个类型名称各自的概率，总和为 1}}',
    en: 'Reply with only a JSON object, no explanation: {"type": the type name (e.g. factual_extraction), "probabilities": {the probability of each of the five type names, summing to 1}}',
  },
  // The plan's line, verbatim, and its translation.
  name: {
    zh: '请只返回类型名称（如 factual_extraction），不需要解释。',
    en: 'Reply with only the type name (e.g. factual_extraction), no explanation.',
  },
};

/** The JSON-reply prompts (kept under this name for existing callers). */
export const PROMPTS: Record<PromptLanguage, string> = { en: EN + REPLY.json.en, zh: ZH + REPLY.json.zh };

/** `auto` picks Chinese when the question contains a Han character. */
export function promptLanguage(text: string, setting: 'auto' | PromptLanguage): PromptLanguage {
  if (setting !== 'auto') return setting;
  return /\p{Script=Han}/u.test(text) ? 'zh' : 'en';
}

export function buildPrompt(text: string, language: PromptLanguage, reply: ReplyFormat = 'json'): string {
  const template = (language === 'zh' ? ZH : EN) + REPLY[reply][language];
  // A replacer function, so `$` sequences in the question are not read as replacement patterns.
  return template.replace('{query}', () => text);
}
