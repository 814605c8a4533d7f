// The LoCoMo audit's probe answers reached through the contract (`qa.publishedProbes`, `qa.probes.source: audit`):
// the real ap-baseline files (full tier), keyed to LoCoMo ids, refused when the run's question text differs.
import { describe, expect, it } from 'vitest';
import { TEST_DATA_DIR } from '../../test/data-path.ts';
import { loadAuditProbes } from './audit.ts';
import { locomo } from './index.ts';

describe('LoCoMo audit probes through the contract', () => {
  it('gives each probe kind the audit answer of a run question, and refuses a question whose text differs', async () => {
    const published = locomo.qa.publishedProbes!;
    const { answers } = await loadAuditProbes(TEST_DATA_DIR, 'specific');
    const [id, a] = [...answers.entries()][0]!;
    const vague = (await loadAuditProbes(TEST_DATA_DIR, 'vague')).answers.get(id);
    const got = await published(TEST_DATA_DIR, [{ questionId: id, text: a.question }]);
    expect(got.get('specific')?.get(id)).toEqual({ answer: a.answer, source: 'locomo-audit:v1' });
    expect(got.get('vague')?.get(id)).toEqual(vague ? { answer: vague.answer, source: 'locomo-audit:v2' } : undefined);
    await expect(published(TEST_DATA_DIR, [{ questionId: id, text: `${a.question} (changed)` }])).rejects.toThrow(
      new RegExp(`the audit's ${a.auditId} asks`, 'u'),
    );
  });

  it('names its extra pull and its errata overlay on the contract', () => {
    expect(locomo.extraPulls?.map((p) => p.name)).toEqual(['locomo-audit']);
    expect(typeof locomo.datasets[0]!.answerErrata).toBe('function');
  });
});
