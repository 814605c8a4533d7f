/**
 * SIGTERM and SIGINT during `adaptmr run`. Killed at once, a run loses the paid LLM calls in flight: the provider has
 * answered (and billed) them, but no reply was recorded or cached, so the resume pays for them again. Instead the
 * first signal stops the run from starting any new question; the questions in flight finish — their calls return,
 * are recorded in `llm_calls` and cached — and are written; the run then ends with one line saying so, and the same
 * command resumes it without repeating a paid call. A second signal stops at once. A run computing in worker
 * threads (pure computation: no paid call) stops at once on the first signal; its committed rows are kept as after
 * any kill.
 */
import { terminalSafe } from '../core/terminal-text.ts';

export interface InterruptState {
  /** The signal received, once one was. */
  requested: NodeJS.Signals | undefined;
  /** Set by the runner while questions run in this process (they can be finished); false while workers compute. */
  graceful: boolean;
}

/** A run stopped by a signal after its questions in flight were finished and written. */
export class RunInterrupted extends Error {
  constructor(
    readonly signal: NodeJS.Signals,
    readonly written: number,
  ) {
    super(
      `interrupted by ${signal}: ${written} questions written in this invocation (those in flight finished and their paid calls were recorded); ` +
        'run the same command again to resume',
    );
    this.name = 'RunInterrupted';
  }
}

const SIGNALS: NodeJS.Signals[] = ['SIGTERM', 'SIGINT'];
const SIGNAL_NUMBER: Partial<Record<NodeJS.Signals, number>> = { SIGINT: 2, SIGTERM: 15 };

/** The conventional exit code of a process ended by `signal` (128 + its number). */
export function exitCodeOf(signal: NodeJS.Signals): number {
  return 128 + (SIGNAL_NUMBER[signal] ?? 15);
}

/** Installs the handlers for the duration of a run; `dispose` removes them. */
export function watchInterrupts(
  say: (line: string) => void = (l) => process.stderr.write(`${terminalSafe(l)}\n`),
): InterruptState & { dispose(): void } {
  const state: InterruptState = { requested: undefined, graceful: false };
  const handler = (signal: NodeJS.Signals): void => {
    if (state.requested !== undefined || !state.graceful) {
      say(
        `adaptmr run: ${signal}: stopping now; questions already written are kept, run the same command again to resume`,
      );
      process.exit(exitCodeOf(signal));
    }
    state.requested = signal;
    say(
      `adaptmr run: ${signal}: starting no new question; the ones in flight finish and are recorded (send ${signal} again to stop at once)`,
    );
  };
  for (const s of SIGNALS) process.on(s, handler);
  return Object.assign(state, {
    dispose: () => {
      for (const s of SIGNALS) process.off(s, handler);
    },
  });
}
