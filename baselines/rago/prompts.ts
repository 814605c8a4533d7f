/**
 * rago's memory prompt and formats, verbatim from rago's source design (`buildSummaryPrompt`, `formatMemories`), and
 * the reader of the extraction reply (the spec's `MemorySummaryResult`: should_store, reasoning, memories of type
 * fact | skill | pattern | context | preference with importance 0–1, tags, entities), read with the project's lenient
 * JSON parsing and zod. A memory of another type, or without content, is skipped; importance is clamped to 0–1.
 */
import { z } from 'zod';
import { readJson } from '../llm-mode.ts';

export const MEMORY_TYPES = ['fact', 'skill', 'pattern', 'context', 'preference'] as const;
export type MemoryType = (typeof MEMORY_TYPES)[number];

/** The spec's `formatExecutionLog` is not shown; an empty log adds nothing, a log gets a heading. */
function formatExecutionLog(log: string): string {
  return log === '' ? '' : `Execution Log:\n${log}`;
}

export function summaryPrompt(taskGoal: string, taskResult: string, executionLog = ''): string {
  return `Analyze the completed task and extract any information worth storing in long-term memory.

Task Goal: ${taskGoal}

Task Result: ${taskResult}

${formatExecutionLog(executionLog)}

Guidelines:

- Extract facts, skills, patterns, or preferences that could be useful for future tasks
- Only store information that is likely to be referenced again
- Importance score (0-1): >0.8 for critical info, >0.5 for useful info, <0.5 for trivial
- Tags: short keywords for categorization
- Entities: named entities (people, projects, concepts)

Return JSON with: should_store (boolean), reasoning, and memories array.
`;
}

const ItemSchema = z.object({
  type: z.enum(MEMORY_TYPES),
  content: z.string().min(1),
  importance: z.number(),
  tags: z.array(z.string()).optional(),
  entities: z.array(z.string()).optional(),
});
const SummarySchema = z.object({
  should_store: z.boolean(),
  reasoning: z.string().optional(),
  memories: z.array(z.unknown()),
});

export interface ExtractedMemory {
  type: MemoryType;
  content: string;
  importance: number;
}

/** The memories to store: none when the reply is not the JSON asked for or says should_store false (the spec stores nothing then). */
export function parseSummary(reply: string): { memories: ExtractedMemory[]; ok: boolean; skipped: number } {
  const s = readJson(reply, SummarySchema);
  if (!s) return { memories: [], ok: false, skipped: 0 };
  if (!s.should_store) return { memories: [], ok: true, skipped: 0 };
  let skipped = 0;
  const memories = s.memories.flatMap((m) => {
    const r = ItemSchema.safeParse(m);
    if (!r.success) {
      skipped++;
      return [];
    }
    return [{ type: r.data.type, content: r.data.content, importance: Math.min(1, Math.max(0, r.data.importance)) }];
  });
  return { memories, ok: true, skipped };
}

/** The source design's `formatMemories`: "## Relevant Memory", then "[i] [type] (score: x.xx)" and the content; the date is added. */
export function formatMemories(
  memories: readonly { type: string; score: number; content: string; date: string }[],
): string {
  let out = '## Relevant Memory\n\n';
  memories.forEach((m, i) => {
    out += `[${i + 1}] [${m.type}] (score: ${m.score.toFixed(2)}) [${m.date}]\n${m.content}\n\n`;
  });
  return out.trimEnd();
}
