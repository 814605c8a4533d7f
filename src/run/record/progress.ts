/**
 * A progress bar with ETA on stderr (cli-progress). On a terminal it redraws in place; elsewhere (CI logs) it prints
 * a line every 10 s so a long run still shows it is alive. Ingestion into a memory server (src/core/progress-events.ts)
 * shows after the ETA.
 */
import { createRequire } from 'node:module';
import type * as CliProgress from 'cli-progress';
import { onWorkProgress } from '../../core/progress-events.ts';
import { rawStderr, terminalSafe } from '../../core/terminal-text.ts';

export interface Progress {
  tick(): void;
  stop(): void;
}

export function createProgress(total: number, enabled: boolean): Progress {
  if (!enabled || total === 0) return { tick() {}, stop() {} };
  // Required here, so runs without a bar (tests, --no-progress, workers) never load it.
  const { SingleBar, Presets } = createRequire(import.meta.url)('cli-progress') as typeof CliProgress;
  const bar = new SingleBar(
    {
      stream: rawStderr(),
      format:
        'questions {bar} {value}/{total} | {percentage}% | elapsed {duration_formatted} | eta {eta_formatted}{work}',
      noTTYOutput: true,
      notTTYSchedule: 10_000,
      hideCursor: true,
      etaBuffer: 50,
    },
    Presets.shades_classic,
  );
  bar.start(total, 0, { work: '' });
  // Work inside a method (memory-server ingestion) shows after the ETA until it completes.
  const off = onWorkProgress((p) =>
    bar.update({ work: p.done < p.total ? ` | ${terminalSafe(p.label)} ${p.done}/${p.total}` : '' }),
  );
  return {
    tick: () => bar.increment(),
    stop: () => {
      off();
      bar.stop();
    },
  };
}
