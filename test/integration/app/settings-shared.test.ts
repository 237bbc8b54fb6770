import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApiEvent } from '../../../shared/api/events.ts';
import { openTestService, type TestService } from '../../support/test-service.ts';
import { pollUntil } from '../../support/poll-until.ts';

const UPSTREAM = 'pk-upstream-secret-7c1e4b9a';
let dir: string;
let services: TestService[] = [];
let server: Server | null = null;

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'atelier-shared-settings-'));
});
afterEach(async () => {
  for (const service of services) await service.close();
  services = [];
  server?.close();
  server = null;
  rmSync(dir, { recursive: true, force: true });
});

async function open(env: NodeJS.ProcessEnv = {}) {
  const service = await openTestService(dir, { env, watchIntervalMs: 20 });
  services.push(service);
  return service;
}

/** A gateway that records every request's headers and refuses the key (the queue pauses). */
async function recordingGateway(): Promise<{ url: string; seen: IncomingHttpHeaders[] }> {
  const seen: IncomingHttpHeaders[] = [];
  server = createServer((request, response) => {
    seen.push(request.headers);
    request.resume();
    response.writeHead(401, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ error: { message: 'no', type: 'x', code: 'invalid_api_key' } }));
  });
  await new Promise<void>((ready) => server!.listen(0, '127.0.0.1', ready));
  return { url: `http://127.0.0.1:${(server!.address() as AddressInfo).port}`, seen };
}

/** Every file under the data folder, as text. */
function dataFolderText(): string {
  const data = path.join(dir, 'data');
  return readdirSync(data, { recursive: true, encoding: 'utf8' })
    .map((name) => {
      try {
        return readFileSync(path.join(data, name), 'latin1');
      } catch {
        return ''; // a folder
      }
    })
    .join('\n');
}

describe('one settings store per data folder', () => {
  it('a change made by one service reaches another open on the same folder as settings.changed', async () => {
    const first = await open();
    const second = await open();
    const events: ApiEvent[] = [];
    const stop = second.service.events.subscribe(null, (batch) => events.push(...batch.events));
    try {
      await first.api.settings.update({ concurrency: 3, theme: 'dark' });
      await pollUntil(
        () => events.some((e) => e.type === 'settings.changed'),
        'the second service heard the change',
      );
      expect(await second.api.settings.get({})).toMatchObject({ concurrency: 3, theme: 'dark' });
      // what the first changed itself is said once, by the first
      expect(events.filter((e) => e.type === 'settings.changed')).toHaveLength(1);
    } finally {
      stop();
    }
  });

  it('a queue running here follows a gateway another process chose; a stopped one stays so', async () => {
    const running = await open();
    const idle = await open();
    const other = await open();
    await running.service.startQueue();
    expect((await running.api.queue.state({})).engine).toBe('running');
    await other.api.settings.update({
      profiles: [{ name: 'Real', baseUrl: 'https://gw.example', headers: [] }],
      gateway: { kind: 'remote', profile: 'Real' },
    });
    // restarted on the new gateway, which needs a key this process does not have
    await pollUntil(
      async () => (await running.api.queue.state({})).problem?.code === 'key-missing',
      'the running queue restarted on the gateway chosen elsewhere',
    );
    expect((await running.api.app.info({})).demo).toBe(false);
    expect((await idle.api.queue.state({})).engine).toBe('stopped');
  });
});

describe('extra gateway headers are credentials', () => {
  it('never reach a client or the disk, yet are sent to the gateway', async () => {
    const gateway = await recordingGateway();
    const { service, api } = await open({ ATELIER_API_KEY: 'sk-test-0123456789' });
    await service.startQueue();
    const view = await api.settings.update({
      profiles: [
        {
          name: 'Portkey',
          baseUrl: gateway.url,
          headers: [
            { name: 'X-Portkey-Api-Key', value: UPSTREAM },
            { name: 'X-Route', value: 'eu-west' },
          ],
        },
      ],
      gateway: { kind: 'remote', profile: 'Portkey' },
    });
    const headers = view.profiles[0]!.headers;
    expect(headers.map(({ name, last4, source }) => ({ name, last4, source }))).toEqual([
      { name: 'X-Portkey-Api-Key', last4: '4b9a', source: 'memory' },
      { name: 'X-Route', last4: 'west', source: 'memory' },
    ]);
    // what any client is ever given: the name and the last four, never the value
    for (const answer of [view, await api.settings.get({})]) {
      expect(JSON.stringify(answer)).not.toContain(UPSTREAM);
      expect(JSON.stringify(answer)).not.toContain('eu-west');
    }

    await api.batches.create({
      source: { kind: 'rows', rows: [{ prompt: 'a red fox' }] },
      defaults: { model: 'flux-schnell', size: '256x256' },
      position: 'back',
    });
    await pollUntil(() => gateway.seen.length > 0, 'a request reached the gateway');
    expect(gateway.seen[0]).toMatchObject({
      'x-portkey-api-key': UPSTREAM,
      'x-route': 'eu-west',
      authorization: 'Bearer sk-test-0123456789',
    });
    expect(await api.key.test({})).toMatchObject({ ok: false, httpStatus: 401 });
    expect(gateway.seen.at(-1)).toMatchObject({ 'x-portkey-api-key': UPSTREAM });

    // nothing under the data folder holds a value: settings, database, its log
    expect(dataFolderText()).not.toContain(UPSTREAM);
    expect(dataFolderText()).not.toContain('eu-west');
    // and an error message that quotes one is scrubbed like the key
    expect(
      JSON.stringify(service.toApiError(new Error(`upstream said ${UPSTREAM}`))),
    ).not.toContain(UPSTREAM);
  });

  it('are kept, replaced and removed by id without the client ever sending the old value', async () => {
    const { api } = await open();
    const first = await api.settings.update({
      profiles: [
        {
          name: 'Work',
          baseUrl: 'https://gw.example',
          headers: [
            { name: 'X-Key', value: 'value-one-1111' },
            { name: 'X-Other', value: 'value-two-2222' },
          ],
        },
      ],
    });
    const [key, other] = first.profiles[0]!.headers;
    // renamed profile, first header kept by id, second replaced, a third added
    const second = await api.settings.update({
      profiles: [
        {
          name: 'Work, renamed',
          baseUrl: 'https://gw.example',
          headers: [
            { name: 'X-Key', id: key!.id },
            { name: 'X-Other', value: 'value-new-3333' },
            { name: 'X-Third', value: 'value-add-4444' },
          ],
        },
      ],
    });
    expect(second.profiles[0]!.headers.map((h) => [h.name, h.last4])).toEqual([
      ['X-Key', '1111'],
      ['X-Other', '3333'],
      ['X-Third', '4444'],
    ]);
    expect(second.profiles[0]!.headers[1]!.id).not.toBe(other!.id);
    // an id the data folder does not have is refused, never taken for a value
    await expect(
      api.settings.update({
        profiles: [
          { name: 'Work', baseUrl: 'https://gw.example', headers: [{ name: 'X', id: other!.id }] },
        ],
      }),
    ).rejects.toMatchObject({ code: 'invalid-argument', message: /give its value again/ });
  });

  it('come from ATELIER_GATEWAY_HEADERS too, which wins, shown masked with its source', async () => {
    const gateway = await recordingGateway();
    const env = {
      ATELIER_API_KEY: 'sk-test-0123456789',
      ATELIER_GATEWAY_HEADERS: JSON.stringify({ 'x-portkey-api-key': UPSTREAM, 'X-Extra': 'e1' }),
    };
    const { service, api } = await open(env);
    await service.startQueue();
    const view = await api.settings.update({
      profiles: [
        {
          name: 'Portkey',
          baseUrl: gateway.url,
          headers: [{ name: 'X-Portkey-Api-Key', value: 'pk-saved-but-outranked' }],
        },
      ],
      gateway: { kind: 'remote', profile: 'Portkey' },
    });
    expect(view.profiles[0]!.headers[0]).toMatchObject({ last4: '4b9a', source: 'env' });
    expect(await api.key.test({})).toMatchObject({ ok: false });
    expect(gateway.seen[0]).toMatchObject({ 'x-portkey-api-key': UPSTREAM, 'x-extra': 'e1' });
  });

  it('say what is missing when this process has no value for a header the settings name', async () => {
    const first = await open({ ATELIER_API_KEY: 'sk-test-0123456789' });
    await first.api.settings.update({
      profiles: [
        {
          name: 'Portkey',
          baseUrl: 'https://gw.example',
          headers: [{ name: 'X-K', value: 'v123' }],
        },
      ],
      gateway: { kind: 'remote', profile: 'Portkey' },
    });
    await first.close();
    services = [];
    // another start (the browser host restarted): the value lived in the first one's memory
    const again = await open({ ATELIER_API_KEY: 'sk-test-0123456789' });
    expect((await again.api.settings.get({})).profiles[0]!.headers[0]).toMatchObject({
      name: 'X-K',
      last4: null,
      source: null,
    });
    await again.service.startQueue();
    expect((await again.api.queue.state({})).problem).toMatchObject({
      code: 'key-missing',
      message: expect.stringMatching(/needs its extra header X-K, .*ATELIER_GATEWAY_HEADERS/),
    });
  });
});
