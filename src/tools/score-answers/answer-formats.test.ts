// `score-answers --format <name>` finds a published-answer format through the installed benchmarks
// (`BenchmarkQa.answerFormats`): `locomo-audit` is LoCoMo's, it names a pinned audit file by its bytes, and an
// unknown name is one line with "did you mean" and the known formats.
import { describe, expect, it } from 'vitest';
import { LOCOMO_AUDIT_COMMIT, LOCOMO_AUDIT_FILES } from '../../../benchmarks/locomo/audit.ts';
import { answerFormat, answerFormatNames } from '../../core/benchmarks-installed.ts';

describe('published-answer formats', () => {
  it('locomo-audit is installed and names a pinned audit file by its sha256, no other bytes', async () => {
    expect(answerFormatNames()).toEqual(['locomo-audit']);
    const format = await answerFormat('locomo-audit');
    const [path, { sha256 }] = Object.entries(LOCOMO_AUDIT_FILES)[0]!;
    expect(format.pinnedName(sha256)).toBe(`dial481/locomo-audit@${LOCOMO_AUDIT_COMMIT.slice(0, 7)} ${path}`);
    expect(format.pinnedName('0'.repeat(64))).toBeNull();
  });

  it('an unknown format is one line with "did you mean" and the known ones (never an inherited property)', async () => {
    await expect(answerFormat('locomo-audt')).rejects.toThrow(
      /^--format: unknown answer format "locomo-audt"\. Did you mean "locomo-audit"\? Known: locomo-audit$/u,
    );
    await expect(answerFormat('constructor')).rejects.toThrow(/^--format: unknown answer format "constructor"\./u);
  });
});
