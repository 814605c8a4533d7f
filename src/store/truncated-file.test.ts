// Disk-full and truncated-file errors are one sentence that names the file, says what happened and what to do:
// the row spool's ENOSPC (a wrapped system error), and DuckDB's "Could not read enough bytes" for a results file cut
// short — checked on a real results file truncated here.
import { copyFileSync, mkdtempSync, rmSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { userFacingMessage } from '../core/errors.ts';
import { runSummary } from '../report/summary.ts';
import { parseExperiment } from '../run/config/load-config.ts';
import { runExperiment } from '../run/runner.ts';
import { tinyLongMemEval } from '../run/testing/tiny-longmemeval.ts';

const dir = mkdtempSync(join(tmpdir(), 'adaptmr-truncated-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('one actionable sentence', () => {
  it('for a full disk under the row spool, naming the spool file', () => {
    const cause = Object.assign(new Error('ENOSPC: no space left on device, write'), {
      code: 'ENOSPC',
      syscall: 'write',
    });
    const err = new Error(`writing the row spool /r/结果.duckdb.spool: ${cause.message}`, { cause });
    expect(userFacingMessage(err)).toMatch(
      /^\/r\/结果\.duckdb\.spool: no space left on the device \(ENOSPC\); what was committed before is kept .* free space on that disk .* run the same command again/,
    );
  });

  it('for a results file cut short, naming it and saying what to do', async () => {
    const out = join(dir, 'whole.duckdb');
    const exp = parseExperiment(
      `name: t\ndatasets: [${tinyLongMemEval(dir, 3)}]\nmethods: [{ id: bm25, method: bm25, k: 2 }]\n`,
      't.yaml',
    );
    await runExperiment(exp, { out, progress: false, log: () => {} });
    const cut = join(dir, 'cut.duckdb');
    copyFileSync(out, cut);
    truncateSync(cut, 300_000);
    const err = await runSummary(cut).catch((e: unknown) => e);
    const line = userFacingMessage(err);
    expect(line).toMatch(
      /cut\.duckdb: the file is cut short .*restore it from a copy, or rerun the experiment into a new results file$/,
    );
    expect(line).not.toContain('\n');
  });
});
