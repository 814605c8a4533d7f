/**
 * ReasoningBank's prompts and formats, verbatim from hanw39/ReasoningBank-MCP (the implementation the source design
 * documents): the success-trajectory extraction prompt and the merge prompt (src/prompts/templates.py @ 7173482),
 * the trajectory and memory formatters (src/prompts/formatters.py @ 29e62c3); and the readers of the replies
 * (lenient JSON, src/llm/json-reply.ts, then zod). The prompts are Chinese, as in the source.
 *
 * Deviation: the source's merge template writes `{len(memories)}` inside a `str.format` template (a KeyError at run
 * time); we put the number of memories there, which is what it means.
 */
import { z } from 'zod';
import { readJson } from '../llm-mode.ts';

export function extractSuccessPrompt(query: string, trajectory: string): string {
  return `你是一个专业的AI经验总结专家。请分析以下成功完成的任务轨迹，并提取可复用的推理策略。

**任务查询：**
${query}

**成功的轨迹：**
${trajectory}

**分析目标：**
1. 成功原因分析：解释该轨迹中关键的推理路径、决策点或信息利用方式，说明为何任务能被成功完成。
2. 抽象可复用策略：从成功行为中提炼出可迁移的思维模式或操作步骤，而非表层动作。
3. 形成记忆项（3条以内）：每条代表一种通用策略或方法论，适合未来相似任务的快速复用。

**输出格式（JSON）：**
\`\`\`json
{
  "memories": [
    {
      "title": "策略标题（5-10字）",
      "description": "一句话说明策略适用的典型场景",
      "content": "详细说明策略的逻辑结构、关键判断点和可执行步骤"
    }
  ]
}
\`\`\`

**注意事项：**
- 聚焦于“如何思考”而不是“做了什么”
- 优先提取体现分解问题、假设验证、信息整合、动态调整等高层推理能力的内容
- 策略要具备跨任务适用性，避免与具体工具、网站或数据源绑定
- 输出应简洁、概念清晰、结构稳定，方便后续自动化学习或知识库吸收
- 避免冗余，每个记忆项应该关注不同的方面

请按照上述格式输出，只输出JSON，不要包含其他内容。
`;
}

export function mergePrompt(count: number, memoriesText: string): string {
  return `你是一个经验提炼专家。以下是 ${count} 条相似的经验，它们来自同一个AI Agent在不同任务中积累的知识。

${memoriesText}

请分析这些经验的**共同模式**，提炼出一条更通用、更深层的经验。

要求：
1. **title**: 5-15字的简洁标题，概括核心策略
2. **description**: 一句话（20-40字）概括适用场景
3. **content**: 详细描述通用策略（200-500字），包括：
   - 这个策略解决什么问题
   - 为什么这样做
   - 如何应用到新场景
   - 需要注意的事项
4. **query**: 提炼出的通用场景描述（可以是"<通用场景：xxx>"格式）
5. **abstraction_level**: 抽象层级
   - 0 = 具体案例（特定问题的解决方案）
   - 1 = 模式识别（一类问题的通用方法）
   - 2 = 原则层面（跨领域的指导原则）

请以JSON格式返回，只返回JSON，不要其他内容：
\`\`\`json
{
  "title": "...",
  "description": "...",
  "content": "...",
  "query": "...",
  "abstraction_level": 1
}
\`\`\`
`;
}

/** formatters.py `format_trajectory`: "步骤 n [Role]: content" per step. */
export function formatTrajectory(steps: readonly { role: string; content: string }[]): string {
  if (steps.length === 0) return '（空轨迹）';
  const label = (r: string) =>
    ({ user: 'User', assistant: 'Assistant', tool: 'Tool' })[r] ?? r.charAt(0).toUpperCase() + r.slice(1);
  return steps.map((s, i) => `步骤 ${i + 1} [${label(s.role)}]: ${s.content}`).join('\n');
}

export interface MemoryText {
  title: string;
  description: string;
  content: string;
  query: string;
}

/** llm_merge.py `_build_merge_prompt`'s list of the memories to merge. */
export function formatMergeMemories(memories: readonly MemoryText[]): string {
  return memories
    .map(
      (m, i) =>
        `\n### 经验 ${i + 1}\n**标题**: ${m.title || 'N/A'}\n**描述**: ${m.description || 'N/A'}\n**内容**: ${m.content || 'N/A'}\n**原始场景**: ${m.query || 'N/A'}\n`,
    )
    .join('');
}

/** formatters.py `format_memory_for_prompt`, with each item's date added (the harness renders context with dates). */
export function formatMemoriesForPrompt(
  memories: readonly { title: string; content: string; success: boolean; date: string }[],
): string {
  let prompt = '以下是我从过去与环境的交互中积累的一些记忆项，可能有助于解决任务。当您觉得它们相关时可以使用它们。\n\n';
  memories.forEach((m, i) => {
    const status = m.success ? '✓ 成功经验' : '✗ 失败教训';
    prompt += `**记忆 ${i + 1} [${status}] - ${m.title}** (${m.date})\n${m.content}\n\n`;
  });
  return prompt.trim();
}

const ItemSchema = z.object({ title: z.string(), description: z.string(), content: z.string() });
const ExtractSchema = z.object({ memories: z.array(z.unknown()) });

/**
 * extract_memory.py `_parse_llm_response`: the reply's `memories`, or none when the reply is not that JSON (the
 * source returns [] then). Items missing a field are skipped (the source would raise on `mem_data["title"]`).
 */
export function parseExtraction(reply: string): { items: z.infer<typeof ItemSchema>[]; ok: boolean } {
  const parsed = readJson(reply, ExtractSchema);
  if (!parsed) return { items: [], ok: false };
  const items = parsed.memories.flatMap((m) => {
    const r = ItemSchema.safeParse(m);
    return r.success ? [r.data] : [];
  });
  return { items, ok: true };
}

const MergeSchema = z.object({
  title: z.string(),
  description: z.string(),
  content: z.string(),
  query: z.string().optional(),
  abstraction_level: z.union([z.number(), z.string()]),
});

/** llm_merge.py `merge`: the four required fields (title, content, description, abstraction_level), else undefined. */
export function parseMerge(
  reply: string,
): { title: string; description: string; content: string; query: string } | undefined {
  const m = readJson(reply, MergeSchema);
  return m
    ? { title: m.title, description: m.description, content: m.content, query: m.query ?? '<通用场景>' }
    : undefined;
}
