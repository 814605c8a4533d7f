// The loopback stand-in's Batch API and prompt caching, driven by the official `openai` SDK (its files / batches
// resources are generated from OpenAI's API reference): what the SDK sends is accepted and what the stand-in answers
// parses into the SDK's types; every request the real service refuses is refused, naming the parameter or line.
import OpenAI, { BadRequestError, NotFoundError, toFile } from 'openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeOpenAiServer, type FakeOpenAiServer, type FakeServerOptions } from './fake-openai-server.ts';

let server: FakeOpenAiServer;
let sdk: OpenAI;

async function start(options: FakeServerOptions = {}): Promise<void> {
  server = await startFakeOpenAiServer(options);
  sdk = new OpenAI({ baseURL: server.baseURL, apiKey: 'sk-test', maxRetries: 0 });
}
afterEach(async () => server.close());

const line = (id: string, content: string, model = 'gpt-4o-mini') =>
  JSON.stringify({
    custom_id: id,
    method: 'POST',
    url: '/v1/chat/completions',
    body: { model, messages: [{ role: 'user', content }], max_tokens: 10 },
  });

async function upload(lines: string[], name = 'requests.jsonl'): Promise<string> {
  const file = await sdk.files.create({
    file: await toFile(Buffer.from(lines.map((l) => `${l}\n`).join('')), name),
    purpose: 'batch',
  });
  return file.id;
}

async function submit(lines: string[]): Promise<OpenAI.Batch> {
  return sdk.batches.create({
    input_file_id: await upload(lines),
    endpoint: '/v1/chat/completions',
    completion_window: '24h',
  });
}

async function jsonl(fileId: string): Promise<Record<string, unknown>[]> {
  const text = await (await sdk.files.content(fileId)).text();
  return text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe('files and batches through the openai SDK', () => {
  beforeEach(async () => start({ chat: (body) => `answer to ${body.messages.at(-1)!.content}` }));

  it('uploads a JSONL file, runs the batch through validating → in_progress → completed, and serves the output file', async () => {
    const fileId = await upload([line('a', 'first'), line('b', '第二个问题')]);
    const file = await sdk.files.retrieve(fileId);
    expect(file).toMatchObject({
      id: fileId,
      object: 'file',
      purpose: 'batch',
      filename: 'requests.jsonl',
      status: 'processed',
    });
    expect(file.bytes).toBeGreaterThan(100);
    const created = await sdk.batches.create({
      input_file_id: fileId,
      endpoint: '/v1/chat/completions',
      completion_window: '24h',
      metadata: { submission: 's1' },
    });
    expect(created).toMatchObject({
      object: 'batch',
      status: 'validating',
      input_file_id: fileId,
      endpoint: '/v1/chat/completions',
      metadata: { submission: 's1' },
    });
    expect((await sdk.batches.retrieve(created.id)).status).toBe('in_progress');
    const done = await sdk.batches.retrieve(created.id);
    expect(done).toMatchObject({
      status: 'completed',
      request_counts: { total: 2, completed: 2, failed: 0 },
      error_file_id: null,
      model: 'gpt-4o-mini',
    });
    const out = await jsonl(done.output_file_id!);
    expect(out.map((l) => l.custom_id)).toEqual(['a', 'b']);
    const first = out[0] as { response: { status_code: number; body: OpenAI.ChatCompletion }; error: unknown };
    expect(first.response.status_code).toBe(200);
    expect(first.error).toBeNull();
    expect(first.response.body.choices[0]!.message.content).toBe('answer to first');
    expect((out[1] as { response: { body: OpenAI.ChatCompletion } }).response.body.choices[0]!.message.content).toBe(
      'answer to 第二个问题',
    );
    expect(done.usage?.input_tokens).toBe(
      first.response.body.usage!.prompt_tokens +
        (out[1] as { response: { body: OpenAI.ChatCompletion } }).response.body.usage!.prompt_tokens,
    );
  });

  it('lists batches newest first with cursor pagination, and files by purpose', async () => {
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await submit([line(`x${i}`, `q${i}`)])).id);
    const listed = [];
    for await (const b of sdk.batches.list({ limit: 2 })) listed.push(b.id);
    expect(listed).toEqual([...ids].reverse());
    const files = [];
    for await (const f of sdk.files.list({ purpose: 'batch' })) files.push(f.purpose);
    expect(files).toEqual(['batch', 'batch', 'batch']);
  });

  it('cancels a running batch and refuses to cancel a finished one', async () => {
    const b = await submit([line('a', 'q')]);
    expect((await sdk.batches.cancel(b.id)).status).toBe('cancelled');
    await expect(sdk.batches.cancel(b.id)).rejects.toBeInstanceOf(BadRequestError);
  });

  it('refuses bad parameters and unknown ids as the API does (400 naming the parameter, 404)', async () => {
    const fileId = await upload([line('a', 'q')]);
    await expect(
      sdk.batches.create({ input_file_id: fileId, endpoint: '/v1/chat/completions', completion_window: '1h' as '24h' }),
    ).rejects.toMatchObject({ status: 400, param: 'completion_window' });
    await expect(
      sdk.batches.create({ input_file_id: 'file-nope', endpoint: '/v1/chat/completions', completion_window: '24h' }),
    ).rejects.toBeInstanceOf(NotFoundError);
    await expect(sdk.batches.retrieve('batch_nope')).rejects.toBeInstanceOf(NotFoundError);
    await expect(sdk.files.content('file-nope')).rejects.toBeInstanceOf(NotFoundError);
    await expect(
      sdk.files.create({ file: await toFile(Buffer.from('{}\n'), 'requests.txt'), purpose: 'batch' }),
    ).rejects.toMatchObject({ status: 400, param: 'file' });
    const tooMuchMetadata = Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, 'v']));
    await expect(
      sdk.batches.create({
        input_file_id: fileId,
        endpoint: '/v1/chat/completions',
        completion_window: '24h',
        metadata: tooMuchMetadata,
      }),
    ).rejects.toMatchObject({ status: 400, param: 'metadata' });
  });

  it('fails a batch whose input breaks the format, naming the line (duplicate custom_id, other endpoint, mixed models)', async () => {
    const cases: [string[], string, number][] = [
      [[line('a', 'q'), line('a', 'r')], 'duplicate_custom_id', 2],
      [[line('a', 'q'), line('b', 'r').replace('/v1/chat/completions', '/v1/embeddings')], 'mismatched_endpoint', 2],
      [[line('a', 'q'), line('b', 'r', 'gpt-4o')], 'mismatched_model', 2],
      [[line('a', 'q'), 'not json'], 'invalid_json_line', 2],
      [
        [JSON.stringify({ method: 'POST', url: '/v1/chat/completions', body: { model: 'm', messages: [] } })],
        'missing_required_parameter',
        1,
      ],
    ];
    for (const [lines, code, at] of cases) {
      const b = await submit(lines);
      expect(b.status).toBe('failed');
      expect(b.errors?.data?.[0]).toMatchObject({ code, line: at });
    }
  });

  it('puts failed and expired lines in the error file with their custom_id', async () => {
    await server.close();
    await start({
      chat: (body) => (body.messages[0]!.content === 'boom' ? { status: 500 } : 'fine'),
      batch: { expire: (id) => id === 'late' },
    });
    const b = await submit([line('ok', 'q'), line('bad', 'boom'), line('late', 'q2')]);
    await sdk.batches.retrieve(b.id);
    const done = await sdk.batches.retrieve(b.id);
    expect(done.request_counts).toEqual({ total: 3, completed: 1, failed: 2 });
    const errors = await jsonl(done.error_file_id!);
    expect(errors.map((e) => e.custom_id).sort()).toEqual(['bad', 'late']);
    expect(errors.find((e) => e.custom_id === 'bad')).toMatchObject({ response: { status_code: 500 }, error: null });
    expect(errors.find((e) => e.custom_id === 'late')).toMatchObject({
      response: null,
      error: { code: 'batch_expired' },
    });
  });

  it('keeps a batch in progress while held', async () => {
    await server.close();
    await start({ batch: { hold: true } });
    const b = await submit([line('a', 'q')]);
    for (let i = 0; i < 5; i++) expect((await sdk.batches.retrieve(b.id)).status).toBe('in_progress');
  });
});

describe('chat requests and prompt caching', () => {
  it('refuses a parameter the API does not know, accepts prompt_cache_key', async () => {
    await start();
    await expect(
      sdk.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'q' }], prompt_cache_key: 'h1' }),
    ).resolves.toBeDefined();
    await expect(
      sdk.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'q' }], bogus: 1 } as never),
    ).rejects.toMatchObject({ status: 400, param: 'bogus' });
  });

  it('reports cached tokens for a repeated prefix of 1,024+ tokens, in steps of 128, per prompt_cache_key', async () => {
    await start({ promptCache: true });
    const history = Array.from({ length: 1500 }, (_, i) => `w${i}`).join(' ');
    const ask = async (question: string, key: string) => {
      const r = await sdk.chat.completions.create({
        model: 'm',
        messages: [{ role: 'user', content: `${history}\nQuestion: ${question}` }],
        prompt_cache_key: key,
      });
      return r.usage!;
    };
    expect((await ask('one', 'h1')).prompt_tokens_details?.cached_tokens).toBe(0);
    const second = await ask('two', 'h1');
    // 1,502 words, 1,500 of them shared: the shared prefix is ~1,500 tokens, cached in 128-token steps → 1,408.
    expect(second.prompt_tokens_details?.cached_tokens).toBe(1408);
    expect((await ask('three', 'other-haystack')).prompt_tokens_details?.cached_tokens).toBe(0);
    const short = await sdk.chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'short prompt' }],
      prompt_cache_key: 'h1',
    });
    expect(short.usage?.prompt_tokens_details?.cached_tokens).toBe(0);
  });
});
