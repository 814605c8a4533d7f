/**
 * Text printed to a terminal carries no control sequences. Stored LLM replies, dataset names and results-file strings
 * reach the terminal through `explain`, `report`, `compare` and error lines; an escape sequence among them could set
 * the window title, clear the screen, plant a hyperlink, or rewrite what was printed before. `terminalSafe` removes
 * ANSI/VT escape and control strings (CSI, OSC — titles, OSC 8 links —, DCS, APC…; the `strip-ansi` package) and then
 * every remaining C0/C1 control character and DEL except tab and newline (a lone CR would let text overwrite its line).
 *
 * `guardTerminalOutput()` (called once by the CLI) applies it to every string written to stdout and stderr, so no
 * command can forget it; the progress bar, whose own cursor sequences must pass, writes through `rawStderr()`.
 */
import stripAnsi from 'strip-ansi';

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/gu;

export function terminalSafe(text: string): string {
  return stripAnsi(text).replace(CONTROL, '');
}

let original: { out: typeof process.stdout.write; err: typeof process.stderr.write } | undefined;

function guarded(write: typeof process.stdout.write, stream: NodeJS.WriteStream): typeof process.stdout.write {
  return function (this: unknown, chunk: unknown, ...rest: unknown[]): boolean {
    const safe = typeof chunk === 'string' ? terminalSafe(chunk) : chunk;
    return (write as (...a: unknown[]) => boolean).call(stream, safe, ...rest);
  } as typeof process.stdout.write;
}

/** Makes every string written to stdout and stderr terminal-safe (idempotent). */
export function guardTerminalOutput(): void {
  if (original) return;
  original = { out: process.stdout.write, err: process.stderr.write };
  process.stdout.write = guarded(original.out, process.stdout);
  process.stderr.write = guarded(original.err, process.stderr);
}

/** stderr for the progress bar: its own cursor sequences pass unfiltered (what it shows is sanitised by its caller). */
export function rawStderr(): NodeJS.WriteStream {
  if (!original) return process.stderr;
  const write = original.err;
  return Object.create(process.stderr, {
    write: { value: (...args: unknown[]) => (write as (...a: unknown[]) => boolean).apply(process.stderr, args) },
  }) as NodeJS.WriteStream;
}
