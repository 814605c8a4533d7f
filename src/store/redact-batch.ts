/**
 * The store's last line of defence for secrets: every string in a question's rows (errors, answers, contexts, notes,
 * judge replies) passes through the one redaction function before it is written, so a key a server echoed into any
 * reply or message never reaches the results file. Costs nothing when no secret was read.
 */
import { hasSecrets, redactDeep } from '../core/secrets.ts';
import type { QuestionBatch } from './types.ts';

export function redactBatch(batch: QuestionBatch): QuestionBatch {
  return hasSecrets() ? redactDeep(batch) : batch;
}
