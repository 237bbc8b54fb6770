import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findMethod } from '../../../shared/api/channels.ts';
import type { Result } from '../../../shared/api/errors.ts';
import type { AppService } from '../../../main/core/app/app-service.ts';
import type { Logger } from '../../../main/core/logger.ts';
import { startGateway, type RunningGateway } from '../../../main/simulator/index.ts';
import { startWebHost, type WebHost } from '../../../main/web/web-host.ts';
import { callEveryMethod, everyMethod } from '../../support/every-method.ts';
import { pollUntil } from '../../support/poll-until.ts';
import { openTestService, type TestService } from '../../support/test-service.ts';
import { openSession } from '../../support/web-login.ts';

/** The key of a real gateway, set through the API: it must never come back out. */
const KEY = 'sk-live-9f8e7d6c5b4a39281706f5e4d3c2b1a0';
const UPSTREAM = 'pk-upstream-5e4d3c2b1a0f9e8d';

let dir: string;
let opened: TestService;
let service: AppService;
let host: WebHost;
let gateway: RunningGateway;
let origin: string;
let authorization: string;
const logged: string[] = [];

beforeEach(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'atelier-web-real-'));
  gateway = await startGateway({ latencyMs: 0, keys: [{ key: KEY, name: 'mine' }] });
  const logger: Logger = {
    info: (m, ...d) => logged.push([m, ...d].join(' ')),
    warn: (m, ...d) => logged.push([m, ...d].join(' ')),
    error: (m, ...d) => logged.push([m, ...d].join(' ')),
  };
  opened = await openTestService(dir, { logger });
  service = opened.service;
  // no secretsToRedact: what is checked is that the service itself never lets the key out
  host = await startWebHost({ app: service, rendererDir: dir, logger, checkOutput: true });
  origin = new URL(host.url).origin;
  authorization = `Bearer ${(await openSession(host.newAddress())).token}`;
});
afterEach(async () => {
  await host.close();
  await opened.close();
  await gateway.close();
  rmSync(dir, { recursive: true, force: true });
});

async function call(area: string, method: string, input: unknown): Promise<Result<unknown>> {
  const response = await request(`${origin}/api/${area}/${method}`, {
    method: 'POST',
    headers: { authorization, 'content-type': 'application/json', origin },
    body: JSON.stringify(input),
  });
  const text = await response.body.text();
  bodies.push(text);
  return JSON.parse(text) as Result<unknown>;
}
const bodies: string[] = [];

describe('the browser host over the real service', () => {
  it('round-trips every method of the contract, and the key never comes back out', async () => {
    let stream = '';
    const events = await request(`${origin}/api/events`, { headers: { authorization } });
    events.body.setEncoding('utf8').on('data', (chunk: string) => (stream += chunk));

    // a real gateway with its key and an extra header, set through the API as the Settings
    // screen does
    const profile = {
      name: 'Mine',
      baseUrl: gateway.url,
      headers: [{ name: 'X-Upstream-Key', value: UPSTREAM }],
    };
    expect(await call('settings', 'update', { profiles: [profile] })).toMatchObject({ ok: true });
    expect(await call('key', 'set', { key: KEY })).toMatchObject({
      ok: true,
      value: { set: true, last4: KEY.slice(-4), source: 'memory' },
    });
    const chosen = await call('settings', 'update', {
      gateway: { kind: 'remote', profile: 'Mine' },
    });
    expect(chosen).toMatchObject({ ok: true });
    expect(await call('queue', 'state', {})).toMatchObject({
      ok: true,
      value: { engine: 'running' },
    });
    const created = (await call('batches', 'create', {
      source: { kind: 'text', fileName: 'p.txt', text: 'a red fox\na blue owl\n' },
      defaults: { model: 'flux-schnell', size: '256x256' },
    })) as { ok: true; value: { id: number } };
    const batchId = created.value.id;
    await pollUntil(async () => {
      const got = (await call('batches', 'get', { id: batchId })) as {
        value: { downloads: { done: number } };
      };
      return got.value.downloads.done === 2;
    }, 'the batch to be written');
    await pollUntil(() => stream.includes('batch.finished'), 'the batch.finished event');
    const ids = (await call('images', 'ids', {})) as { value: { ids: number[] } };
    const jobs = (await call('jobs', 'ids', { batchId })) as { value: { ids: number[] } };

    const calls = everyMethod({
      batchId,
      jobId: jobs.value.ids[0]!,
      imageId: ids.value.ids[0]!,
      libraryDir: path.join(dir, 'library'),
    });
    const failures = await callEveryMethod(calls, async (area, method, input) => {
      const result = await call(area, method, input);
      if (result.ok) findMethod(area, method)!.output.parse(result.value);
      return result;
    });
    expect(failures).toEqual([]);
    // the key and the header's value that were set, in any response body, the event stream
    // or the log: nowhere
    events.body.destroy();
    for (const text of [...bodies, stream, ...logged]) {
      expect(text).not.toContain(KEY);
      expect(text).not.toContain(UPSTREAM);
    }
    expect(stream).toContain('images.written');
  });
});
