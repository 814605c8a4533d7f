/**
 * LoCoMo (Maharana et al. 2024; snap-research/locomo): ten long two-person conversations with questions in five
 * categories, read by load.ts (README.md, docs/datasets.md §1). The LoCoMo audit's corrected answers
 * are a gold version of this benchmark (audit.ts, docs/datasets.md §4.4).
 */
import { defineBenchmark } from '../../src/core/benchmark.ts';
import { locomoCatalogEntries, normaliseLocomo } from './load.ts';
import { LOCOMO_CATEGORIES } from './types.ts';
import { locomoQa } from './qa.ts';
import { LOCOMO_AUDIT_DIR, loadErrata, pullLocomoAudit } from './audit.ts';
import { auditProbes } from './audit-probes.ts';
import { LOCOMO_PIN } from './pins.ts';

export const locomo = defineBenchmark({
  name: 'locomo',
  description: 'LoCoMo: 10 conversations, 1,986 questions in five categories (category 5 adversarial)',
  display: { label: 'LoCoMo', fittedColours: { locomo: '#C2B280' } },
  datasets: [
    {
      name: 'locomo',
      layouts: [{ rel: 'locomo/locomo10.json', kind: 'file' }],
      answerErrata: loadErrata,
      pin: LOCOMO_PIN,
    },
  ],
  pathFormat: true,
  reader: {
    // What a catalogue pass never needs: skipping them avoids assembling the conversations.
    catalogueSkipKeys: ['conversation', 'event_summary', 'observation', 'session_summary'],
    catalogue: ({ raw, file, index }) => locomoCatalogEntries(raw, file, index),
    normalise: ({ raw, file, index }, ctx) => normaliseLocomo(raw, file, index, ctx.dataset, ctx.issues, ctx.keep),
  },
  nativeTypes: ['1', '2', '3', '4', '5'],
  mapType: (nativeType) => {
    const type = /^[1-5]$/u.test(nativeType) ? LOCOMO_CATEGORIES[Number(nativeType)] : undefined;
    return type && { type };
  },
  qa: {
    ...locomoQa,
    publishedProbes: auditProbes,
    answerFormats: { 'locomo-audit': async () => (await import('./answer-format.ts')).locomoAuditFormat },
  },
  extraPulls: [{ name: LOCOMO_AUDIT_DIR, describe: 'LoCoMo errata, probes, baselines', pull: pullLocomoAudit }],
  fixture: {
    path: 'fixture/locomo_fixture.json',
    kind: 'file',
    judgeReplies: { right: '{"label": "CORRECT"}', wrong: '{"label": "WRONG"}' },
    malformed: { file: '', text: '[{"sample_id": "fx-bad", "conversation": {}, "qa": []}]', item: 'fx-bad' },
  },
});
