import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppService } from '../../../main/core/app/app-service.ts';
import { startGateway, type RunningGateway } from '../../../main/simulator/index.ts';
import type { Api } from '../../../shared/api/types.ts';
import { pollUntil } from '../../support/poll-until.ts';
import { openTestService, type TestService } from '../../support/test-service.ts';

let dir: string;
let opened: TestService;
let service: AppService;
let api: Api;
let gateway: RunningGateway;

beforeEach(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'atelier-words-'));
  opened = await openTestService(dir);
  ({ service, api } = opened);
  gateway = await startGateway({ latencyMs: 0 });
});
afterEach(async () => {
  await opened.close();
  await gateway.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("what the service says, in a person's words", () => {
  it('names a refused request and the pause it made, and counts every request sent', async () => {
    await api.settings.update({
      profiles: [{ name: 'sim', baseUrl: gateway.url, headers: [] }],
      gateway: { kind: 'remote', profile: 'sim' },
    });
    await api.key.set({ key: 'sk-not-the-right-key-1234' });
    await service.startQueue();
    const batch = await api.batches.create({
      source: { kind: 'rows', rows: [{ prompt: 'a fox' }] },
      defaults: { model: 'flux-schnell', size: '64x64' },
    });
    await pollUntil(async () => (await api.queue.state({})).paused !== null, 'the key is refused');
    expect((await api.queue.state({})).paused).toMatchObject({
      kind: 'auth',
      title: 'The gateway refused the key',
    });

    await api.key.set({ key: gateway.key });
    await api.queue.resume({});
    await pollUntil(
      async () => (await api.batches.get({ id: batch.id })).jobs.succeeded === 1,
      'the job succeeds with the right key',
    );
    const [jobId] = (await api.jobs.ids({ batchId: batch.id })).ids;
    const detail = await api.jobs.get({ id: jobId! });
    // the refusal handed the job back (its try not counted); two requests were sent all the same
    expect(detail).toMatchObject({ tries: 1, attempts: 2, failureText: null });
    const attempts = (await api.jobs.attempts({ jobId: jobId! })).items;
    expect(attempts.map((a) => [a.outcome, a.outcomeText])).toEqual([
      ['pause-queue', 'Refused for the whole queue: paused it, the job waits'],
      ['succeeded', 'Succeeded'],
    ]);
  });
});
