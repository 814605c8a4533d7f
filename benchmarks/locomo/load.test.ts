// LoCoMo loader against the real locomo10.json: counts, repaired/dropped evidence, shared haystacks, captions.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Instance } from '../../src/core/types.ts';
import { loadDataset, readCatalog, resolveDataset, summarize, type DataIssue } from '../../src/data/index.ts';
import { repairEvidence } from './load.ts';
import { TEST_DATA_DIR } from '../../test/data-path.ts';

const dataDir = TEST_DATA_DIR;
let instances: Instance[];
let issues: DataIssue[];
const byId = (id: string) => instances.find((i) => i.query.id === id)!;

beforeAll(async () => {
  ({ instances, issues } = await loadDataset({ name: 'locomo' }, dataDir));
});

describe('locomo', () => {
  it('has the README counts (1,986 questions; categories 1:282 2:321 3:96 4:841 5:446; 272 sessions, 5,882 turns)', () => {
    expect(summarize('locomo', instances)).toEqual({
      dataset: 'locomo',
      questions: 1986,
      sessions: 272,
      turns: 5882,
      byNativeType: { '1': 282, '2': 321, '3': 96, '4': 841, '5': 446 },
      byAdaptType: { abstention: 446, factual: 937, 'multi-hop': 282, temporal: 321 },
      abstention: 446,
    });
  });

  it('repairs D:11:26 to D11:26 and reports it (conv-43 q18, category 1)', () => {
    const q = byId('conv-43:q18');
    expect(q.gold.evidenceTurnIds).toEqual(['D1:14', 'D2:7', 'D4:7', 'D5:15', 'D11:26', 'D20:21', 'D26:36']);
    expect(q.gold.evidenceSessionIds).toEqual(['D1', 'D2', 'D4', 'D5', 'D11', 'D20', 'D26']);
    expect(q.gold.type).toBe('multi-hop');
    expect(issues).toContainEqual(
      expect.objectContaining({ questionId: 'conv-43:q18', field: 'conv-43.qa[18].evidence[4]', action: 'repaired' }),
    );
  });

  it('splits "D9:1 D4:4 D4:6" (conv-49 q31) and normalises D30:05 (conv-50 q69)', () => {
    expect(byId('conv-49:q31').gold.evidenceTurnIds).toEqual(['D9:1', 'D4:4', 'D4:6']);
    expect(byId('conv-49:q31').gold.evidenceSessionIds).toEqual(['D9', 'D4']);
    expect(byId('conv-50:q69').gold.evidenceTurnIds).toEqual(['D30:5']);
  });

  it('drops and reports dangling ids: "D" (conv-42), D10:19 (conv-42), D4:36 (conv-47)', () => {
    const dropped = issues.filter((i) => i.action === 'dropped' && i.questionId !== undefined).map((i) => i.questionId);
    expect(dropped.sort()).toEqual(['conv-42:q58', 'conv-42:q88', 'conv-47:q38']);
    expect(byId('conv-47:q38').gold.evidenceTurnIds).not.toContain('D4:36');
    expect(issues.filter((i) => i.action === 'repaired').length).toBe(12); // 6 evidence strings + 6 numeric answers
  });

  it('builds conv-26 from session_N keys (19 sessions), reporting the 16 dates without turns', () => {
    const q = byId('conv-26:q0');
    expect(q.haystack).toHaveLength(19);
    expect(q.haystack[0]!.id).toBe('D1');
    expect(q.haystack[0]!.at).toBe('2023-05-08T13:56:00Z');
    expect(q.query.askedAt).toBe('2023-10-22T09:55:00Z'); // session_19: "9:55 am on 22 October, 2023"
    expect(issues.filter((i) => i.field.startsWith('conv-26.conversation.session_{20,'))).toHaveLength(1);
  });

  it('shares one haystack array per conversation and maps speakers to roles', () => {
    const a = byId('conv-26:q0');
    const b = byId('conv-26:q150');
    expect(a.haystack).toBe(b.haystack);
    expect(a.haystackId).toBe('conv-26');
    const t = a.haystack[0]!.turns[4]!;
    expect(t).toMatchObject({ id: 'D1:5', sessionId: 'D1', index: 4, role: 'user', speaker: 'Caroline' });
    expect(t.caption).toBe('a photo of a dog walking past a wall with a painting of a woman');
    expect(a.haystack[0]!.turns.find((x) => x.speaker === 'Melanie')!.role).toBe('assistant');
  });

  it('keeps category 5 adversarial answers, numeric answers as strings, and the native category', () => {
    const adv = byId('conv-26:q167');
    expect(adv.gold).toMatchObject({
      nativeType: '5',
      type: 'abstention',
      isAbstention: true,
      answer: 'No',
      adversarialAnswer: 'Yes',
    });
    const noAnswer = instances.find((i) => i.gold.nativeType === '5' && i.gold.answer === '')!;
    expect(noAnswer.gold.adversarialAnswer).toBeTruthy();
    expect(byId('conv-26:q1').gold.answer).toBe('2022');
    expect(byId('conv-26:q0').gold).toMatchObject({ nativeType: '2', type: 'temporal', evidenceTurnIds: ['D1:3'] });
  });

  it('returns instances sorted by question id (natural order)', () => {
    expect(instances.slice(0, 3).map((i) => i.query.id)).toEqual(['conv-26:q0', 'conv-26:q1', 'conv-26:q2']);
    expect(instances[10]!.query.id).toBe('conv-26:q10');
  });

  it('catalog pass agrees with the full load', async () => {
    const catalog = await readCatalog(resolveDataset({ name: 'locomo' }, dataDir));
    expect(catalog).toHaveLength(1986);
    expect(catalog.filter((c) => c.adaptType === 'factual')).toHaveLength(937);
  });
});

describe('repairEvidence', () => {
  it('splits on [;\\s]+ and normalises the id shape', () => {
    expect(repairEvidence('D8:6; D9:17').ids).toEqual(['D8:6', 'D9:17']);
    expect(repairEvidence('D:11:26').ids).toEqual(['D11:26']);
    expect(repairEvidence('D30:05').ids).toEqual(['D30:5']);
    expect(repairEvidence('D')).toMatchObject({ ids: [], unparsable: ['D'] });
    expect(repairEvidence('D3:5')).toEqual({ ids: ['D3:5'], problems: [], unparsable: [] });
  });
});
