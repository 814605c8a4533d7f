/**
 * Splits a "which came first" question into the events it compares (plan §2.3 策略 2, Path B), offline by rules.
 * English patterns: "Which …first, A or B?", "Did I A before/after B?", "between A and B"; Chinese: "先A还是先B",
 * "A之前/之后…B". Question scaffolding ("did I", "the day I") is stripped so each event reads like a memory.
 */
const LEAD =
  /^(?:(?:which|what)\b[^,:]*?\b(?:first|earlier|later|last)\b[^,:]*[,:]\s*|(?:did|do|have|was|were|had)\s+(?:i|we|you)\s+|(?:the\s+)?(?:day|time|date)\s+(?:when\s+|that\s+)?(?:i|we)\s+|when\s+(?:i|we)\s+|i\s+|we\s+|my\s+)/iu;

function clean(event: string): string {
  let e = event
    .trim()
    .replace(/[?？。.!！,，]+$/u, '')
    .trim();
  for (let i = 0; i < 3; i++) e = e.replace(LEAD, '').trim();
  e = e.replace(/^(?:the\s+)?(?:day|time|date)\s+(?:when\s+|that\s+)?(?:i|we)\s+/iu, '').replace(/\s+first$/iu, '');
  return e
    .replace(/^(?:是|我|先|在)+/u, '')
    .replace(/(?:的|了|呢|吗)+$/u, '')
    .trim();
}

export function splitEvents(question: string): string[] {
  const q = question.trim();
  const tryParts = (parts: string[]): string[] | undefined => {
    const events = parts.map(clean).filter((e) => e.length > 1);
    return events.length >= 2 ? events : undefined;
  };
  // "Which …first, A or B?" / "…: A or B"
  let m = /[,:]\s*(.+?)\s+or\s+(.+)$/iu.exec(q);
  if (m && /\b(first|earlier|before|after|later|last)\b/iu.test(q)) {
    const r = tryParts([m[1]!, m[2]!]);
    if (r) return r;
  }
  // "between A and B"
  m = /\bbetween\s+(.+?)\s+and\s+(.+)$/iu.exec(q);
  if (m) {
    const r = tryParts([m[1]!, m[2]!]);
    if (r) return r;
  }
  // "Did I A before/after B?"
  m = /^(.+?)\s+(?:before|after|prior to)\s+(.+)$/iu.exec(q);
  if (m && /^(did|do|have|had|was|were|is)\b/iu.test(q)) {
    const r = tryParts([m[1]!, m[2]!]);
    if (r) return r;
  }
  // 先A还是先B
  m = /先(.+?)还是先?(.+)$/u.exec(q);
  if (m) {
    const r = tryParts([m[1]!, m[2]!]);
    if (r) return r;
  }
  // A之前/之后…B
  m = /^(.+?)(?:之前|之后|以前|以后)(.+)$/u.exec(q);
  if (m) {
    const r = tryParts([m[1]!, m[2]!]);
    if (r) return r;
  }
  return [];
}
