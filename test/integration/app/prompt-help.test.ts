import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  startGateway,
  type GatewayOptions,
  type RunningGateway,
} from '../../../main/simulator/index.ts';
import type { ApiEventOf } from '../../../shared/api/events.ts';
import type { Api } from '../../../shared/api/types.ts';
import { useGateway } from '../../support/remote-gateway.ts';
import { openTestService, type TestService } from '../../support/test-service.ts';

// Prompt help through the application service, over real HTTP to the simulator: streamed as
// events, parsed, cut to the target model's limit, canceled at once, errors in plain words.

type Progress = ApiEventOf<'prompts.progress'>['payload'];

let dir: string;
let opened: TestService;
let api: Api;
const gateways: RunningGateway[] = [];

beforeEach(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'atelier-prompts-'));
  opened = await openTestService(dir);
  ({ api } = opened);
});
afterEach(async () => {
  await opened.close();
  await Promise.all(gateways.splice(0).map((g) => g.close()));
  rmSync(dir, { recursive: true, force: true });
});

/** A simulator of the test's own as the settings' gateway, with its key set. */
async function remote(options: GatewayOptions = {}): Promise<RunningGateway> {
  const gateway = await startGateway({ latencyMs: 0, ...options });
  gateways.push(gateway);
  await api.settings.update({ promptModel: 'gpt-4o-mini' });
  await useGateway(api, gateway, options.keys?.[0]?.key ?? gateway.key);
  return gateway;
}

/** The events of every prompt-help request, from now on. */
function record() {
  const events: Progress[] = [];
  const waiters: Array<() => void> = [];
  const stop = opened.service.events.subscribe(null, (batch) => {
    for (const event of batch.events) {
      if (event.type === 'prompts.progress') events.push(event.payload);
    }
    for (const wake of waiters.splice(0)) wake();
  });
  const wait = (done: () => boolean) =>
    new Promise<void>((resolve) => {
      const check = () => (done() ? resolve() : waiters.push(check));
      check();
    });
  return {
    events,
    stop,
    /** The events of one request until it ended. */
    async ended(id: string): Promise<Progress[]> {
      await wait(() => events.some((e) => e.id === id && e.state !== 'running'));
      return events.filter((e) => e.id === id);
    },
    async first(id: string, test: (e: Progress) => boolean): Promise<Progress> {
      await wait(() => events.some((e) => e.id === id && test(e)));
      return events.find((e) => e.id === id && test(e))!;
    },
  };
}

describe('prompt help', () => {
  it('demo: a theme becomes five prompts streamed as events, each on the theme, kept for get', async () => {
    const seen = record();
    const started = await api.prompts.generate({ theme: 'lighthouses in winter', count: 5 });
    expect(started).toMatchObject({
      task: 'theme',
      model: 'gpt-4o-mini',
      asked: 5,
      state: 'running',
      targetModel: null,
      limit: 32_000,
    });
    const events = await seen.ended(started.id);
    const prompts = events.flatMap((e) => e.added);
    expect(prompts.map((p) => p.index)).toEqual([0, 1, 2, 3, 4]);
    for (const prompt of prompts) {
      expect(prompt.text).toMatch(/^Lighthouses in winter /);
      expect(prompt.note).toBeNull();
    }
    expect(events.at(-1)).toMatchObject({ state: 'done', partial: '', error: null });
    const view = await api.prompts.get({ id: started.id });
    expect(view).toMatchObject({ state: 'done', duplicates: 0, error: null });
    expect(view.prompts).toEqual(prompts);
    expect(view.endedAt).toBeGreaterThanOrEqual(view.startedAt);
  });

  it('streams: prompts arrive in several events as their lines end, with the line being written between', async () => {
    // the answer's frames spread over 1.5 s
    await remote({ faults: 'slow:1', slowBodyMs: 1500 });
    const seen = record();
    const started = await api.prompts.generate({ theme: 'rivers', count: 6 });
    const events = await seen.ended(started.id);
    expect(events.filter((e) => e.added.length > 0).length).toBeGreaterThan(2);
    expect(events.some((e) => e.partial !== '' && e.partial.startsWith('Rivers'))).toBe(true);
    expect(events.flatMap((e) => e.added)).toHaveLength(6);
  });

  it.each(['qwen-plus', 'deepseek-r1'])(
    '%s (a preamble and numbers, or a think block) gives clean prompts all the same',
    async (model) => {
      const gateway = await remote();
      const seen = record();
      const started = await api.prompts.generate({ theme: 'a fox in the snow', count: 4, model });
      await seen.ended(started.id);
      const { prompts, state } = await api.prompts.get({ id: started.id });
      expect(state).toBe('done');
      expect(prompts).toHaveLength(4);
      for (const { text } of prompts) {
        expect(text).toMatch(/^A fox in the snow [a-z]/);
        expect(text).not.toMatch(/think|Here are|^\d/);
      }
      expect(gateway.ledger.entries()).toMatchObject([
        { model, endpoint: '/v1/chat/completions', state: 'settled' },
      ]);
    },
  );

  it("tags for a video model's limit: cut with a note; a text model set to the responses API streams from there", async () => {
    const gateway = await remote();
    await api.models.saveUserEntries({
      entries: [
        { kind: 'video', id: 'tiny-video', maxPromptChars: 60 },
        { kind: 'text', id: 'gpt-4o-mini', api: 'responses' },
      ],
    });
    const seen = record();
    const started = await api.prompts.generate({
      theme: 'city at night',
      count: 3,
      style: 'tags',
      targetModel: 'tiny-video',
    });
    expect(started).toMatchObject({ targetModel: 'tiny-video', limit: 60 });
    await seen.ended(started.id);
    const { prompts } = await api.prompts.get({ id: started.id });
    expect(prompts).toHaveLength(3);
    for (const { text } of prompts) {
      expect(text).toMatch(/^city at night, /);
      expect(Array.from(text).length).toBeLessThanOrEqual(60);
    }
    // the model was told the limit and kept to it; nothing needed cutting
    expect(prompts.every((p) => p.note === null)).toBe(true);
    expect(gateway.ledger.entries()).toMatchObject([{ endpoint: '/v1/responses' }]);
  });

  it('cuts what is longer than the target model’s limit, with a note', async () => {
    await remote();
    // the model is told 40, and qwen-plus (chatty) forgets it
    await api.models.saveUserEntries({
      entries: [
        { kind: 'image', id: 'tiny', protocol: 'openai', sizes: 'any', maxPromptChars: 40 },
      ],
    });
    const seen = record();
    const started = await api.prompts.expand({
      prompt: 'a lighthouse',
      targetModel: 'tiny',
      model: 'qwen-plus',
    });
    await seen.ended(started.id);
    const [prompt, ...more] = (await api.prompts.get({ id: started.id })).prompts;
    expect(more).toEqual([]);
    expect(Array.from(prompt!.text).length).toBeLessThanOrEqual(40);
    expect(prompt!.note).toMatch(
      /^Cut to \d+ characters, the prompt limit of tiny \(the model wrote \d+\)\.$/,
    );
  });

  it('regenerating the rest: prompts already kept are not written again; variations leave out the original', async () => {
    await remote();
    const seen = record();
    const first = await api.prompts.generate({ theme: 'harbours', count: 3 });
    await seen.ended(first.id);
    const kept = (await api.prompts.get({ id: first.id })).prompts.map((p) => p.text);
    const again = await api.prompts.generate({ theme: 'harbours', count: 3, exclude: kept });
    await seen.ended(again.id);
    const fresh = (await api.prompts.get({ id: again.id })).prompts.map((p) => p.text);
    expect(fresh).toHaveLength(3);
    for (const text of fresh) expect(kept).not.toContain(text);

    const vary = await api.prompts.vary({ prompt: 'a red kite over dunes', count: 4 });
    await seen.ended(vary.id);
    const variations = (await api.prompts.get({ id: vary.id })).prompts.map((p) => p.text);
    expect(variations).toHaveLength(4);
    for (const text of variations) {
      expect(text).toMatch(/^A red kite over dunes /);
      expect(text).not.toBe('a red kite over dunes');
    }
  });

  it('cancel stops the request to the gateway at once; the prompts that arrived are kept', async () => {
    const gateway = await remote({ faults: 'slow:1', slowBodyMs: 20_000 });
    const seen = record();
    const started = await api.prompts.generate({ theme: 'deserts', count: 40 });
    await seen.first(started.id, (e) => e.added.length > 0);
    const at = performance.now();
    await api.prompts.cancel({ id: started.id });
    await gateway.idle();
    // the gateway saw the client leave at once, not 20 s later, and charged nothing
    expect(performance.now() - at).toBeLessThan(2000);
    expect(gateway.ledger.entries()).toMatchObject([{ state: 'refunded', charged: 0 }]);
    const view = await api.prompts.get({ id: started.id });
    expect(view.state).toBe('canceled');
    expect(view.prompts.length).toBeGreaterThan(0);
    expect(view.prompts.length).toBeLessThan(40);
    expect((await seen.ended(started.id)).at(-1)).toMatchObject({ state: 'canceled', error: null });
  });

  it.each([
    {
      name: 'a model the key may not use',
      options: { keys: [{ key: 'sk-images-only-0000000000', models: ['flux-schnell'] }] },
      message:
        'The gateway does not let this key use gpt-4o-mini (403 model_not_allowed: This API key is not allowed to use model "gpt-4o-mini".). Choose another text model for prompt help, or allow gpt-4o-mini for the key in the gateway\'s console.',
      kind: 'permission',
    },
    {
      name: 'no balance',
      options: { balance: 10 },
      message: "The account's balance or the key's quota is too low for gpt-4o-mini (",
      kind: 'balance',
    },
    {
      name: 'rate limited',
      options: { faults: '429@1' },
      message: 'The gateway is rate limiting (429 rate_limit_exceeded: ',
      kind: 'rate-limited',
    },
    {
      name: 'a stream that breaks off',
      options: { faults: 'stream-error@1' },
      message:
        'gpt-4o-mini did not finish its answer (200 upstream_error: The upstream model stopped in the middle of its answer (a simulated failure). Nothing was charged; ask again.). The prompts that arrived are kept; ask again for the rest.',
      kind: 'bad-response',
    },
  ])(
    '$name: the request fails with what the gateway said and what to do',
    async ({ options, message, kind }) => {
      await remote(options);
      const seen = record();
      const started = await api.prompts.generate({ theme: 'owls', count: 5 });
      const last = (await seen.ended(started.id)).at(-1)!;
      expect(last.state).toBe('failed');
      expect(last.error).toMatchObject({ code: 'gateway-error', details: { kind } });
      expect(last.error!.message).toContain(message);
      expect(last.error!.message).toMatch(/\(request id req_[0-9a-f]+\)$/);
      expect((await api.prompts.get({ id: started.id })).error).toEqual(last.error);
    },
  );

  it('refuses what cannot be asked, before anything is sent', async () => {
    const gateway = await remote();
    await expect(api.prompts.generate({ theme: 'x', count: 101 })).rejects.toMatchObject({
      code: 'invalid-argument',
    });
    await expect(api.prompts.generate({ theme: '  ', count: 1 })).rejects.toMatchObject({
      code: 'invalid-argument',
    });
    await expect(api.prompts.generate({ theme: 'x', model: 'flux-schnell' })).rejects.toMatchObject(
      {
        code: 'invalid-argument',
        message: 'flux-schnell is an image model; prompt help needs a text model.',
      },
    );
    await expect(
      api.prompts.generate({ theme: 'x', targetModel: 'gpt-4o-mini' }),
    ).rejects.toMatchObject({
      code: 'invalid-argument',
    });
    await api.settings.update({ promptModel: null });
    await expect(api.prompts.generate({ theme: 'x' })).rejects.toMatchObject({
      code: 'invalid-argument',
      message: expect.stringContaining('No text model is chosen for prompt help'),
    });
    await api.key.clear({});
    await expect(api.prompts.generate({ theme: 'x', model: 'gpt-4o-mini' })).rejects.toMatchObject({
      code: 'key-missing',
    });
    await expect(api.prompts.get({ id: 'nope' })).rejects.toMatchObject({ code: 'not-found' });
    expect(gateway.ledger.entries()).toEqual([]);
  });
});
