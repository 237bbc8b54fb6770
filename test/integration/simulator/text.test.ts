import { afterEach, describe, expect, it } from 'vitest';
import { startGateway, type RunningGateway } from '../../../main/simulator/index.ts';
import { isComment, parseSse, sseJson } from './text-sse-parser.ts';
import type { WireResponse } from './wire-response.ts';

let gateway: RunningGateway;
afterEach(() => gateway?.close());

function post(path: string, body: unknown, init: RequestInit = {}): Promise<WireResponse> {
  return fetch(`${gateway.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${gateway.key}` },
    body: JSON.stringify(body),
    ...init,
  });
}

const chat = {
  model: 'gpt-4o-mini',
  messages: [
    { role: 'system', content: 'Answer briefly.' },
    { role: 'user', content: 'Name three colours of a sunset over the sea' },
  ],
};
/** The simulator's tokenizer: a word with the whitespace before it. */
const tokens = (text: string) => text.match(/\s*\S+|\s+$/g)?.length ?? 0;
/** 3 framing tokens per message, as the simulator documents. */
const chatPromptTokens = 3 + tokens('Answer briefly.') + 3 + tokens(chat.messages[1]!.content);

async function onlyEntry() {
  await gateway.idle();
  const entries = gateway.ledger.entries();
  expect(entries).toHaveLength(1);
  return entries[0]!;
}

describe('POST /v1/chat/completions, synchronous', () => {
  it('answers a chat.completion whose usage counts the prompt and the content', async () => {
    gateway = await startGateway();
    const response = await post('/v1/chat/completions', chat);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-svc-request-id')).toMatch(/^req_/);
    const body = await response.json();
    expect(body).toMatchObject({ object: 'chat.completion', model: 'gpt-4o-mini' });
    expect(body.id).toMatch(/^chatcmpl-/);
    expect(typeof body.created).toBe('number');
    const [choice] = body.choices;
    expect(choice).toMatchObject({ index: 0, finish_reason: 'stop' });
    expect(choice.message.role).toBe('assistant');
    expect(choice.message.content).toContain('Name three colours of a sunset over the sea');
    expect(body.usage).toEqual({
      prompt_tokens: chatPromptTokens,
      completion_tokens: tokens(choice.message.content),
      total_tokens: chatPromptTokens + tokens(choice.message.content),
    });
  });

  it('is deterministic: same messages, same reply; other messages, other reply', async () => {
    gateway = await startGateway();
    const first = await (await post('/v1/chat/completions', chat)).json();
    const again = await (await post('/v1/chat/completions', chat)).json();
    const other = await (
      await post('/v1/chat/completions', {
        ...chat,
        messages: [{ role: 'user', content: 'Something else entirely' }],
      })
    ).json();
    expect(again.choices[0].message.content).toBe(first.choices[0].message.content);
    expect(other.choices[0].message.content).not.toBe(first.choices[0].message.content);
    expect(other.choices[0].message.content).toContain('Something else entirely');
  });

  it('accepts content as an array of text parts', async () => {
    gateway = await startGateway();
    const response = await post('/v1/chat/completions', {
      model: 'qwen-plus',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'parts work too' }] }],
    });
    expect(response.status).toBe(200);
    expect((await response.json()).choices[0].message.content).toContain('parts work too');
  });

  it('honours max_tokens: cuts the reply, finish_reason "length", pre-deducts prompt + max', async () => {
    gateway = await startGateway();
    const body = await (await post('/v1/chat/completions', { ...chat, max_tokens: 3 })).json();
    expect(body.choices[0].finish_reason).toBe('length');
    expect(tokens(body.choices[0].message.content)).toBe(3);
    expect(body.usage.completion_tokens).toBe(3);
    const entry = await onlyEntry();
    expect(entry.preDeducted).toBe(chatPromptTokens + 3);
    expect(entry.charged).toBe(chatPromptTokens + 3);
  });

  it('charges exactly the tokens used (price 1 per token) and the balance follows', async () => {
    gateway = await startGateway({ balance: 10_000 });
    const body = await (await post('/v1/chat/completions', chat)).json();
    const entry = await onlyEntry();
    expect(entry).toMatchObject({
      state: 'settled',
      endpoint: '/v1/chat/completions',
      model: 'gpt-4o-mini',
      charged: body.usage.total_tokens,
      units: body.usage.total_tokens,
    });
    // The estimate held at pre-deduction was larger: the difference went back.
    expect(entry.preDeducted).toBeGreaterThan(entry.charged);
    expect(gateway.ledger.balance).toBe(10_000 - body.usage.total_tokens);
  });
});

describe('POST /v1/chat/completions, streamed', () => {
  it('sends SSE with empty deltas and keep-alives; the content reassembles to the sync reply', async () => {
    gateway = await startGateway();
    const sync = await (await post('/v1/chat/completions', chat)).json();
    const response = await post('/v1/chat/completions', {
      ...chat,
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const raw = await response.text();
    const blocks = parseSse(raw);

    expect(blocks.filter(isComment).map((b) => b.comment)).toContain('keep-alive');
    expect(raw.trimEnd().endsWith('data: [DONE]')).toBe(true);
    const chunks = sseJson(blocks).map((c) => c.json);
    for (const chunk of chunks) {
      expect(chunk).toMatchObject({ id: chunks[0].id, object: 'chat.completion.chunk' });
    }
    const deltas = chunks.filter((c) => c.choices.length > 0).map((c) => c.choices[0].delta);
    expect(deltas[0]).toEqual({ role: 'assistant', content: '' });
    expect(deltas).toContainEqual({});
    expect(deltas).toContainEqual({ content: '' });
    const content = deltas.map((d) => d.content ?? '').join('');
    expect(content).toBe(sync.choices[0].message.content);

    const withChoices = chunks.filter((c) => c.choices.length > 0);
    expect(withChoices.at(-1).choices[0].finish_reason).toBe('stop');
    expect(withChoices.slice(0, -1).every((c) => c.choices[0].finish_reason === null)).toBe(true);
    const usageChunk = chunks.at(-1);
    expect(usageChunk.choices).toEqual([]);
    expect(usageChunk.usage).toEqual(sync.usage);
    expect(chunks.slice(0, -1).every((c) => c.usage === null)).toBe(true);
  });

  it('sends no usage chunk unless stream_options.include_usage is set', async () => {
    gateway = await startGateway();
    const raw = await (await post('/v1/chat/completions', { ...chat, stream: true })).text();
    const chunks = sseJson(parseSse(raw)).map((c) => c.json);
    expect(chunks.every((c) => c.choices.length === 1 && !('usage' in c))).toBe(true);
    const entry = await onlyEntry();
    expect(entry.state).toBe('settled');
    expect(entry.charged).toBeGreaterThan(chatPromptTokens);
  });

  it('writes at the pace of tokenMs: the frames arrive spread out, as a model writes', async () => {
    gateway = await startGateway({ tokenMs: 20 });
    const response = await post('/v1/chat/completions', { ...chat, stream: true });
    const reader = response.body!.getReader();
    const arrivals: number[] = [];
    let raw = '';
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      arrivals.push(performance.now());
      raw += new TextDecoder().decode(read.value);
    }
    const frames = parseSse(raw).length;
    // one frame a read, each about 20 ms after the last (the lower bound holds on a busy machine)
    expect(arrivals.length).toBeGreaterThan(frames / 2);
    expect(arrivals.at(-1)! - arrivals[0]!).toBeGreaterThanOrEqual((frames - 2) * 20 * 0.9);
  });
});

describe('billing of text calls under faults (interface 1, charging rule)', () => {
  it('refunds when the reset fault cuts a synchronous body', async () => {
    gateway = await startGateway({ faults: 'reset@1' });
    const response = await post('/v1/chat/completions', chat);
    await expect(response.text()).rejects.toThrow();
    const entry = await onlyEntry();
    expect(entry).toMatchObject({ state: 'refunded', charged: 0 });
    expect(gateway.ledger.balance).toBe(gateway.options.balance);
  });

  it('refunds when the reset fault cuts a stream before [DONE]', async () => {
    gateway = await startGateway({ faults: 'reset@1' });
    const response = await post('/v1/chat/completions', { ...chat, stream: true });
    expect(response.status).toBe(200);
    let received = '';
    const error = await (async () => {
      const decoder = new TextDecoder();
      const reader = response.body!.getReader();
      for (let part = await reader.read(); !part.done; part = await reader.read()) {
        received += decoder.decode(part.value);
      }
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(received).toContain('data: {');
    expect(received).not.toContain('[DONE]');
    expect((await onlyEntry()).state).toBe('refunded');
  });

  it('refunds when the client goes away before the answer', async () => {
    gateway = await startGateway({ latencyMs: 400 });
    const aborter = new AbortController();
    const request = post('/v1/chat/completions', chat, { signal: aborter.signal });
    setTimeout(() => aborter.abort(), 50);
    await expect(request).rejects.toThrow();
    const entry = await onlyEntry();
    expect(entry).toMatchObject({ state: 'refunded', charged: 0 });
  });

  it('refunds when the client goes away in the middle of a slow stream', async () => {
    gateway = await startGateway({ faults: 'slow@1', slowBodyMs: 3000 });
    const aborter = new AbortController();
    const response = await post(
      '/v1/chat/completions',
      { ...chat, stream: true },
      { signal: aborter.signal },
    );
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toContain('chat.completion.chunk');
    aborter.abort();
    const entry = await onlyEntry();
    expect(entry).toMatchObject({ state: 'refunded', charged: 0 });
  });

  it.each(['504', '524'])('charges the finished work, then answers %s', async (fault) => {
    gateway = await startGateway({ faults: `${fault}@1` });
    const response = await post('/v1/chat/completions', chat);
    expect(response.status).toBe(Number(fault));
    expect((await response.json()).error.code).toMatch(/timeout/);
    const entry = await onlyEntry();
    expect(entry.state).toBe('settled');
    expect(entry.charged).toBeGreaterThan(chatPromptTokens);
  });

  it('charges nothing for a 500 answered before any work', async () => {
    gateway = await startGateway({ faults: '500@1' });
    const response = await post('/v1/chat/completions', chat);
    expect(response.status).toBe(500);
    await gateway.idle();
    expect(gateway.ledger.entries()).toHaveLength(0);
  });

  it('refuses with insufficient_user_quota when the estimate exceeds the balance', async () => {
    gateway = await startGateway({ balance: 100 });
    const response = await post('/v1/chat/completions', chat);
    expect((await response.json()).error.code).toBe('insufficient_user_quota');
    expect(gateway.ledger.entries()).toHaveLength(0);
  });
});

describe('validation of text requests', () => {
  it.each([
    ['no model', { messages: chat.messages }, 400, 'missing_model'],
    ['an image model', { ...chat, model: 'flux-schnell' }, 404, 'model_not_found'],
    ['no messages', { model: 'gpt-4o-mini' }, 400, 'invalid_messages'],
    ['empty messages', { model: 'gpt-4o-mini', messages: [] }, 400, 'invalid_messages'],
    ['a message that is a string', { ...chat, messages: ['hi'] }, 400, 'invalid_messages'],
    [
      'an unknown role',
      { ...chat, messages: [{ role: 'bot', content: 'x' }] },
      400,
      'invalid_role',
    ],
    [
      'content that is a number',
      { ...chat, messages: [{ role: 'user', content: 42 }] },
      400,
      'invalid_content',
    ],
    ['max_tokens 0', { ...chat, max_tokens: 0 }, 400, 'invalid_value'],
    ['stream "yes"', { ...chat, stream: 'yes' }, 400, 'invalid_value'],
  ])('refuses %s, charging nothing', async (_, body, status, code) => {
    gateway = await startGateway();
    const response = await post('/v1/chat/completions', body);
    expect(response.status).toBe(status);
    const error = (await response.json()).error;
    expect(error.code).toBe(code);
    expect(error.message.length).toBeGreaterThan(10);
    await gateway.idle();
    expect(gateway.ledger.entries()).toHaveLength(0);
  });

  it('refuses a body that is not JSON', async () => {
    gateway = await startGateway();
    const response: WireResponse = await fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gateway.key}` },
      body: '{not json',
    });
    expect(response.status).toBe(400);
    expect((await response.json()).error.code).toBe('invalid_json');
  });

  it('refuses /v1/responses without input', async () => {
    gateway = await startGateway();
    const response = await post('/v1/responses', { model: 'gpt-4o-mini' });
    expect(response.status).toBe(400);
    expect((await response.json()).error).toMatchObject({ code: 'invalid_input', param: 'input' });
  });
});

describe('POST /v1/responses', () => {
  it('answers a completed response object with output_text content and usage', async () => {
    gateway = await startGateway();
    const response = await post('/v1/responses', {
      model: 'gpt-4o-mini',
      instructions: 'Be brief.',
      input: [{ role: 'user', content: [{ type: 'input_text', text: 'Tell me about tides' }] }],
    });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toMatchObject({
      object: 'response',
      status: 'completed',
      model: 'gpt-4o-mini',
      instructions: 'Be brief.',
    });
    expect(body.output).toHaveLength(1);
    const [message] = body.output;
    expect(message).toMatchObject({ type: 'message', role: 'assistant', status: 'completed' });
    expect(message.content).toHaveLength(1);
    expect(message.content[0]).toMatchObject({ type: 'output_text', annotations: [] });
    const text = message.content[0].text;
    expect(text).toContain('Tell me about tides');
    const input = 3 + tokens('Be brief.') + 3 + tokens('Tell me about tides');
    expect(body.usage).toMatchObject({
      input_tokens: input,
      output_tokens: tokens(text),
      total_tokens: input + tokens(text),
    });
    expect((await onlyEntry()).charged).toBe(input + tokens(text));
  });

  it('reports status "incomplete" when max_output_tokens cuts the reply', async () => {
    gateway = await startGateway();
    const body = await (
      await post('/v1/responses', { model: 'gpt-4o-mini', input: 'hi', max_output_tokens: 2 })
    ).json();
    expect(body.status).toBe('incomplete');
    expect(body.incomplete_details).toEqual({ reason: 'max_output_tokens' });
    expect(body.usage.output_tokens).toBe(2);
  });

  it('streams named events whose deltas add up to the final text', async () => {
    gateway = await startGateway();
    const request = { model: 'gpt-4o-mini', input: 'Tell me about tides' };
    const sync = await (await post('/v1/responses', request)).json();
    const response = await post('/v1/responses', { ...request, stream: true });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const raw = await response.text();
    expect(raw).not.toContain('[DONE]');
    const events = sseJson(parseSse(raw));
    for (const [index, { event, json }] of events.entries()) {
      expect(json.type).toBe(event);
      expect(json.sequence_number).toBe(index);
    }
    const types = events.map((e) => e.event);
    expect(types.slice(0, 5)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
    ]);
    expect(types.slice(-4)).toEqual([
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(events[0]!.json.response.status).toBe('in_progress');
    const text = events
      .filter((e) => e.event === 'response.output_text.delta')
      .map((e) => e.json.delta)
      .join('');
    const syncText = sync.output[0].content[0].text;
    expect(text).toBe(syncText);
    expect(events.find((e) => e.event === 'response.output_text.done')!.json.text).toBe(syncText);
    const completed = events.at(-1)!.json.response;
    expect(completed.output[0].content[0].text).toBe(syncText);
    expect(completed.usage).toEqual(sync.usage);
    expect(completed.id).toBe(events[0]!.json.response.id);
  });
});
