/**
 * Tolerant JSON extraction from model replies, for endpoints without structured output and for models that wrap
 * JSON in prose or Markdown code fences (Mem0's evaluation does the same with `extract_json`). Tolerant about the
 * wrapping only: the JSON itself must parse, and callers stay strict about its content.
 */

/** The first JSON value found in `text`: the whole text, a fenced ```json block, or the first balanced {…} / […]. */
export function parseJsonReply(text: string): { ok: true; value: unknown } | { ok: false } {
  const candidates: string[] = [text.trim()];
  const fence = /```(?:json|JSON)?\s*\n?([\s\S]*?)```/.exec(text);
  if (fence?.[1] !== undefined) candidates.push(fence[1].trim());
  const balanced = firstBalanced(text);
  if (balanced !== undefined) candidates.push(balanced);
  for (const c of candidates) {
    if (c === '') continue;
    try {
      return { ok: true, value: JSON.parse(c) as unknown };
    } catch {
      // not this candidate; try the next
    }
  }
  return { ok: false };
}

/** The first balanced `{…}` or `[…]` substring, skipping brackets inside JSON strings. */
function firstBalanced(text: string): string | undefined {
  for (let start = 0; start < text.length; start++) {
    const open = text[start];
    if (open !== '{' && open !== '[') continue;
    const close = open === '{' ? '}' : ']';
    let depth = 0;
    let inString = false;
    for (let i = start; i < text.length; i++) {
      const ch = text[i];
      if (inString) {
        if (ch === '\\') i++;
        else if (ch === '"') inString = false;
        continue;
      }
      if (ch === '"') inString = true;
      else if (ch === open) depth++;
      else if (ch === close) {
        depth--;
        if (depth === 0) {
          const s = text.slice(start, i + 1);
          try {
            JSON.parse(s);
            return s;
          } catch {
            break;
          }
        }
      }
    }
  }
  return undefined;
}
