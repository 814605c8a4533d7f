/**
 * Zep's asynchronous message processing, shared by the v3 and v4 adapters: each message add returns a task, polled at
 * `GET /tasks/{id}` until it reports completed (zep-js `tasks`); a batch re-adopted after a kill has no task, so the
 * threads' messages' own `processed` flags decide instead.
 */
import { z } from 'zod';
import { type Call, parseReply, send } from '../memory-server/api.ts';

const TaskSchema = z.looseObject({
  status: z.string().nullish(),
  error: z.looseObject({ message: z.string().nullish() }).nullish(),
});

export interface ProcessedState {
  done: boolean;
  failed?: string;
}

/**
 * Polls the tasks not yet seen done (`seen` is the adapter's memory of finished tasks across polls), then — when a
 * batch has no task — the messages listed by `listMessages`.
 */
export async function zepProcessed(
  receipts: readonly { handles: readonly string[] }[],
  expected: number,
  seen: Set<string>,
  listMessages: () => Promise<readonly { processed?: boolean | null | undefined }[]>,
  c: Call,
  label: string,
  taskPath: string,
): Promise<ProcessedState> {
  for (const id of receipts.flatMap((r) => r.handles)) {
    if (seen.has(id)) continue;
    const t = parseReply(
      TaskSchema,
      (await send(c, { method: 'GET', path: `/tasks/${encodeURIComponent(id)}` })).body,
      label,
      taskPath,
    );
    const status = (t.status ?? '').toLowerCase();
    if (status === 'failed' || status === 'error')
      return { done: false, failed: `task ${id}: ${t.error?.message ?? status}` };
    if (status !== 'completed' && status !== 'succeeded') return { done: false };
    seen.add(id);
  }
  if (receipts.some((r) => r.handles.length === 0)) {
    const msgs = await listMessages();
    if (msgs.length < expected || msgs.some((m) => m.processed === false)) return { done: false };
  }
  return { done: true };
}
