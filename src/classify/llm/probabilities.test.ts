// Reading an LLM reply into a distribution: logprobs (hand-computed), stated, one-hot, bare labels.
import { describe, expect, it } from 'vitest';
import { probsFromLogprobs, readReply } from './probabilities.ts';

const REPLY =
  '{"type":"temporal_reasoning","probabilities":{"factual_extraction":0.1,"temporal_reasoning":0.7,"knowledge_update":0.1,"multi_hop":0.1,"abstention":0}}';

describe('reply → probabilities', () => {
  it('reads the first-token alternatives of the type value (OpenAI-style tokens)', () => {
    const rest = REPLY.slice('{"type":"temporal_reasoning'.length);
    const tokens = [
      { token: '{"', logprob: 0, top: [] },
      { token: 'type', logprob: 0, top: [] },
      { token: '":"', logprob: 0, top: [] },
      {
        token: 'temporal',
        logprob: -0.2,
        top: [
          { token: 'temporal', logprob: -0.2 },
          { token: 'multi', logprob: -1.8 },
          { token: 'knowledge', logprob: -3 },
          { token: 'fact', logprob: -4 },
          { token: 'the', logprob: -5 }, // names no label: dropped
        ],
      },
      { token: '_reasoning', logprob: 0, top: [] },
      { token: rest, logprob: 0, top: [] },
    ];
    const r = readReply(REPLY, JSON.parse(REPLY), tokens);
    const z = Math.exp(-0.2) + Math.exp(-1.8) + Math.exp(-3) + Math.exp(-4);
    expect(r?.source).toBe('logprobs');
    expect(r?.type).toBe('temporal');
    expect(r?.probs.temporal).toBeCloseTo(Math.exp(-0.2) / z, 12);
    expect(r?.probs['multi-hop']).toBeCloseTo(Math.exp(-1.8) / z, 12);
    expect(r?.probs.update).toBeCloseTo(Math.exp(-3) / z, 12);
    expect(r?.probs.factual).toBeCloseTo(Math.exp(-4) / z, 12);
    expect(r?.probs.abstention).toBe(0);
  });

  it('strips the part of a token that precedes the value (a leading quote)', () => {
    const text = '{"type": "multi_hop"}';
    const tokens = [
      { token: '{"type":', logprob: 0, top: [] },
      {
        token: ' "m',
        logprob: -0.1,
        top: [
          { token: ' "m', logprob: -0.1 },
          { token: ' "a', logprob: -2.5 },
          { token: 'x', logprob: -1 },
        ],
      },
      { token: 'ulti_hop"}', logprob: 0, top: [] },
    ];
    const p = probsFromLogprobs(text, tokens);
    const z = Math.exp(-0.1) + Math.exp(-2.5);
    expect(p?.['multi-hop']).toBeCloseTo(Math.exp(-0.1) / z, 12);
    expect(p?.abstention).toBeCloseTo(Math.exp(-2.5) / z, 12);
  });

  it('falls back to the stated distribution, then to one-hot', () => {
    const stated = readReply(REPLY, undefined, undefined);
    expect(stated?.source).toBe('stated');
    expect(stated?.probs.temporal).toBeCloseTo(0.7, 12);
    const unnormalised = readReply(
      '{"type":"multi_hop","probabilities":{"multi_hop":3,"abstention":1}}',
      undefined,
      [],
    );
    expect(unnormalised?.probs['multi-hop']).toBeCloseTo(0.75, 12);
    const bad = readReply('{"type":"knowledge_update","probabilities":{"knowledge_update":-1}}', undefined, undefined);
    expect(bad).toEqual({
      type: 'update',
      probs: { factual: 0, temporal: 0, update: 1, 'multi-hop': 0, abstention: 0 },
      source: 'one-hot',
    });
    expect(readReply('abstention', undefined, undefined)?.type).toBe('abstention');
    expect(readReply('"Factual_Extraction".', undefined, undefined)?.type).toBe('factual');
    expect(readReply('I think it is about time', undefined, undefined)).toBeUndefined();
  });

  it("reads the plan's own format: the type name alone, as id, Chinese or English name, T-number or list number", () => {
    const cases: [string, string][] = [
      ['temporal_reasoning', 'temporal'],
      ['时序推理', 'temporal'],
      ['时间推理', 'temporal'],
      ['知识更新。', 'update'],
      ['多跳推理', 'multi-hop'],
      ['拒绝判断', 'abstention'],
      ['事实提取', 'factual'],
      ['**Multi-hop Reasoning**', 'multi-hop'],
      ['T3', 'update'],
      ['4. multi_hop', 'multi-hop'],
      ['类型：时序推理（temporal_reasoning）', 'temporal'],
      ['{"type": "知识更新"}', 'update'],
    ];
    for (const [text, type] of cases) expect([text, readReply(text, undefined, undefined)?.type]).toEqual([text, type]);
    // two different types named: not read
    expect(readReply('temporal_reasoning or knowledge_update', undefined, undefined)).toBeUndefined();
    expect(readReply('时序推理', undefined, undefined)?.source).toBe('one-hot');
  });

  it('reads first-token logprobs of a bare reply (after a leading quote)', () => {
    const text = '"multi_hop"';
    const tokens = [
      {
        token: '"m',
        logprob: -0.1,
        top: [
          { token: '"m', logprob: -0.1 },
          { token: '"t', logprob: -2 },
          { token: '"x', logprob: -3 },
        ],
      },
      { token: 'ulti_hop"', logprob: 0, top: [] },
    ];
    const r = readReply(text, undefined, tokens);
    expect(r?.source).toBe('logprobs');
    const z = Math.exp(-0.1) + Math.exp(-2);
    expect(r?.probs['multi-hop']).toBeCloseTo(Math.exp(-0.1) / z, 12);
    expect(r?.probs.temporal).toBeCloseTo(Math.exp(-2) / z, 12);
  });
});
