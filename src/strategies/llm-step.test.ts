// LLM steps: strict YES parsing, tolerant JSON parsing, fallback recorded, accounting by stage (loopback server).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Ctx } from '../core/interfaces.ts';
import { createLlmProvider } from '../llm/index.ts';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../llm/testing/fake-openai-server.ts';
import { parseJsonReply } from '../llm/json-reply.ts';
import { askJson, askYesNo, strategyClient } from './llm-step.ts';

let server: FakeOpenAiServer;
beforeAll(async () => {
  server = await startFakeOpenAiServer({ supportsJsonSchema: true });
});
afterAll(async () => server.close());

function ctx(): Ctx {
  return {
    seed: 1,
    calls: [],
    llm: createLlmProvider(
      { cache: { mode: 'off' }, maxRetries: 0, roles: { strategy: { baseURL: server.baseURL, model: 'm' } } },
      {},
    ),
  };
}

describe('LLM steps', () => {
  it('strategy replies are read with the shared lenient JSON parser (fenced or prose-wrapped)', () => {
    expect(parseJsonReply('```json\n{"events": ["a"]}\n```')).toEqual({ ok: true, value: { events: ['a'] } });
    expect(parseJsonReply('Sure! {"events": ["a", "b"]} hope that helps')).toEqual({
      ok: true,
      value: { events: ['a', 'b'] },
    });
    expect(parseJsonReply('no json here')).toEqual({ ok: false });
  });

  it('only a leading YES counts as yes', async () => {
    const c = ctx();
    const client = strategyClient(c, 't');
    server.enqueue({ text: 'YES.' }, { text: 'No, yes would be wrong' }, { text: 'not sure' }, { text: 'yes' });
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await askYesNo(client, c, `s${i}`, `q${i}`));
    expect(answers).toEqual([true, false, false, true]);
    expect(c.calls.map((x) => x.stage)).toEqual(['s0', 's1', 's2', 's3']);
  });

  it("JSON of the wrong shape is reported (the strategy falls back); no JSON at all is the client's error", async () => {
    const c = ctx();
    const schema = z.object({ events: z.array(z.string()) });
    server.enqueue({ text: '{"items": [1]}' });
    expect(await askJson(strategyClient(c, 't'), c, 'strategy.x', 'p', schema)).toEqual({
      ok: false,
      reply: '{"items": [1]}',
    });
    server.enqueue({ text: 'I cannot do that' });
    await expect(askJson(strategyClient(c, 't'), c, 'strategy.y', 'p', schema)).rejects.toThrow(/no parseable JSON/);
  });

  it('mode llm without a strategy LLM fails naming the strategy', () => {
    expect(() => strategyClient({ seed: 1, calls: [] }, 'temporal')).toThrow(
      /strategy temporal: mode "llm" needs an LLM/,
    );
  });
});
