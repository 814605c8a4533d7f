// The Batch API client against the loopback stand-in: a retried upload or batch creation whose first reply was lost
// (the work done, HTTP 502 returned) adopts what the service made instead of making a second copy — a second batch
// would be paid twice.
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { BatchApi, inputLine } from './batch-api.ts';
import { startFakeOpenAiServer, type FakeOpenAiServer } from './testing/fake-openai-server.ts';

let server: FakeOpenAiServer;
afterEach(async () => server.close());

const jsonl = Buffer.from(`${inputLine('k1', { model: 'm', messages: [{ role: 'user', content: '你好' }] })}\n`);

describe('BatchApi', () => {
  it('adopts the file and the batch a lost reply hid, on retry', async () => {
    server = await startFakeOpenAiServer({ batch: { loseReplies: { upload: 1, create: 1 } } });
    const api = new BatchApi(new OpenAI({ baseURL: server.baseURL, apiKey: 'k', maxRetries: 0 }), {
      maxRetries: 2,
      retryBaseMs: 1,
    });
    const since = Math.floor(Date.now() / 1000) - 60;
    const fileId = await api.upload('sub-1.jsonl', jsonl, since);
    const uploads = server.requests.filter((r) => r.method === 'POST' && r.path === '/v1/files');
    expect(uploads).toHaveLength(1);
    const batch = await api.create(fileId, { adaptmr_submission: 'sub-1' }, since);
    expect(server.batches.created().map((b) => b.id)).toEqual([batch.id]);
    expect(server.requests.filter((r) => r.method === 'POST' && r.path === '/v1/batches')).toHaveLength(1);
    await api.retrieve(batch.id);
    const done = await api.retrieve(batch.id);
    const lines = await api.lines(done.output_file_id!);
    expect(lines.map((l) => [l.customId, l.status])).toEqual([['k1', 200]]);
  });

  it('without a lost reply, a failing creation is retried and then reported', async () => {
    server = await startFakeOpenAiServer();
    const api = new BatchApi(new OpenAI({ baseURL: server.baseURL, apiKey: 'k', maxRetries: 0 }), {
      maxRetries: 1,
      retryBaseMs: 1,
    });
    await expect(api.create('file-missing', {}, 0)).rejects.toThrow(
      /^Batch API creation of a batch over file-missing failed after 1 attempt\(s\): HTTP 404: .*No such File object/,
    );
  });
});
