/**
 * The store's last line of defence for secrets: every string in a question's rows (errors, answers, contexts, notes,
 * judge replies) passes through the one redaction function before it is written, so a key a server echoed into any
 * reply or message never reaches the results file. Costs nothing when no secret was read.
 */
import { hasSecrets, redactSecrets } from '../core/secrets.ts';
import type { QuestionBatch } from './types.ts';

function deep(value: unknown): unknown {
  if (typeof value === 'string') return redactSecrets(value);
  if (Array.isArray(value)) return value.map(deep);
  if (value !== null && typeof value === 'object' && !ArrayBuffer.isView(value)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, deep(v)]));
  }
  return value;
}

export function redactBatch(batch: QuestionBatch): QuestionBatch {
  return hasSecrets() ? (deep(batch) as QuestionBatch) : batch;
}
