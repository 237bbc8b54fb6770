import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { startGateway, type RunningGateway } from '../../../main/simulator/index.ts';
import { pollUntil } from '../../support/poll-until.ts';

let gateway: RunningGateway;
afterEach(() => gateway?.close());

async function client(options: Parameters<typeof startGateway>[0] = {}) {
  gateway = await startGateway(options);
  return new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: gateway.key, maxRetries: 0 });
}

const messages = [
  { role: 'system' as const, content: 'You are terse.' },
  { role: 'user' as const, content: 'Describe a lighthouse at dusk' },
];

describe('the official openai client against the simulator: text', () => {
  it('chat.completions.create, non-streamed', async () => {
    const openai = await client();
    const completion = await openai.chat.completions.create({ model: 'gpt-4o-mini', messages });
    expect(completion.object).toBe('chat.completion');
    expect(completion.choices[0]?.message.content).toContain('Describe a lighthouse at dusk');
    expect(completion.choices[0]?.finish_reason).toBe('stop');
    expect(completion.usage?.total_tokens).toBe(
      (completion.usage?.prompt_tokens ?? 0) + (completion.usage?.completion_tokens ?? 0),
    );
  });

  it('chat.completions.create, streamed, reassembles to the non-streamed content', async () => {
    const openai = await client();
    const sync = await openai.chat.completions.create({ model: 'gpt-4o-mini', messages });
    const stream = await openai.chat.completions.create({
      model: 'gpt-4o-mini',
      messages,
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let finish: string | null = null;
    let usage: OpenAI.CompletionUsage | null | undefined = null;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
      usage = chunk.usage ?? usage;
    }
    expect(text).toBe(sync.choices[0]?.message.content);
    expect(finish).toBe('stop');
    expect(usage).toEqual(sync.usage);
  });

  it('chat.completions.stream helper accumulates the final completion', async () => {
    const openai = await client();
    const stream = openai.chat.completions.stream({ model: 'qwen-plus', messages });
    const final = await stream.finalChatCompletion();
    expect(final.choices[0]?.message.content).toContain('lighthouse');
  });

  it('responses.create, non-streamed, exposes output_text and usage', async () => {
    const openai = await client();
    const response = await openai.responses.create({
      model: 'gpt-4o-mini',
      input: 'Describe a lighthouse at dusk',
    });
    expect(response.status).toBe('completed');
    expect(response.output_text).toContain('Describe a lighthouse at dusk');
    expect(response.usage?.total_tokens).toBe(
      (response.usage?.input_tokens ?? 0) + (response.usage?.output_tokens ?? 0),
    );
  });

  it('responses.create, streamed, gives deltas that add up to the completed text', async () => {
    const openai = await client();
    const stream = await openai.responses.create({
      model: 'gpt-4o-mini',
      input: 'Describe a lighthouse at dusk',
      stream: true,
    });
    let text = '';
    let completed: OpenAI.Responses.Response | null = null;
    const types: string[] = [];
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === 'response.output_text.delta') text += event.delta;
      if (event.type === 'response.completed') completed = event.response;
    }
    expect(types[0]).toBe('response.created');
    expect(types.at(-1)).toBe('response.completed');
    expect(completed?.output_text ?? text).toBe(text);
    const sync = await openai.responses.create({
      model: 'gpt-4o-mini',
      input: 'Describe a lighthouse at dusk',
    });
    expect(text).toBe(sync.output_text);
  });

  it('responses.stream helper validates the event sequence and returns the final response', async () => {
    const openai = await client();
    const stream = openai.responses.stream({ model: 'gpt-4o-mini', input: 'Hello there' });
    const final = await stream.finalResponse();
    expect(final.output_text).toContain('Hello there');
  });
});

describe('the official openai client against the simulator: video', () => {
  it('videos.create (multipart), retrieve until completed, downloadContent gives an MP4', async () => {
    const openai = await client({ videoDurationMs: 300 });
    const created = await openai.videos.create({
      model: 'sora-2',
      prompt: 'a paper boat on a pond',
      seconds: '4',
      size: '1280x720',
    });
    expect(created.object).toBe('video');
    expect(['queued', 'in_progress']).toContain(created.status);
    let video = created;
    const seen = new Set<string>();
    await pollUntil(
      async () => {
        video = await openai.videos.retrieve(created.id);
        seen.add(video.status);
        return video.status === 'completed' || video.status === 'failed';
      },
      `video ${created.id} is finished`,
      { timeoutMs: 5000, intervalMs: 40 },
    );
    expect(video.status).toBe('completed');
    expect(video.progress).toBe(100);
    expect(seen.has('in_progress')).toBe(true);
    const content = await openai.videos.downloadContent(created.id);
    expect(content.headers.get('content-type')).toBe('video/mp4');
    const bytes = Buffer.from(await content.arrayBuffer());
    expect(bytes.subarray(4, 8).toString('latin1')).toBe('ftyp');
  });

  it('videos.create with defaults, and a missing video surfaces as a 404 APIError', async () => {
    const openai = await client({ videoDurationMs: 10_000 });
    const created = await openai.videos.create({ prompt: 'clouds' });
    expect(created).toMatchObject({ model: 'sora-2', seconds: '4', size: '720x1280' });
    const error = await openai.videos.downloadContent(created.id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(404);
    const unknown = await openai.videos.retrieve('video_nope').catch((e: unknown) => e);
    expect((unknown as InstanceType<typeof OpenAI.APIError>).status).toBe(404);
  });
});
