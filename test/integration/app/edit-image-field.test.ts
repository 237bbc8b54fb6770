import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { startGateway, type RunningGateway } from '../../../main/simulator/index.ts';
import type { Api } from '../../../shared/api/types.ts';
import { pollUntil } from '../../support/poll-until.ts';
import { openTestService, type TestService } from '../../support/test-service.ts';

// The gateway profile's multipartImageField, set through the settings as the form sets it,
// decides the name of the picture's part: a gateway that reads only image[] gets image[] even
// for one picture (auto would send image, and the gateway would refuse it).

const KEY = 'sk-edit-field-0123456789abcdef';
let dir: string;
let gateway: RunningGateway;
let opened: TestService;
let api: Api;

beforeEach(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'atelier-edit-field-'));
  gateway = await startGateway({ latencyMs: 0, keys: [{ key: KEY }], editImageField: 'image[]' });
  opened = await openTestService(dir);
  api = opened.api;
});
afterEach(async () => {
  await opened.close();
  await gateway.close();
  rmSync(dir, { recursive: true, force: true });
});

async function finished(batchId: number) {
  await pollUntil(async () => {
    const batch = await api.batches.get({ id: batchId });
    const { queued, running, retrying } = batch.jobs;
    const { pending, downloading } = batch.downloads;
    return queued + running + retrying + pending + downloading === 0;
  }, `batch ${batchId} is finished`);
  return api.batches.get({ id: batchId });
}

async function editOnePicture() {
  const made = await api.batches.create({
    source: { kind: 'rows', rows: [{ prompt: 'a lake at dawn' }] },
    defaults: { model: 'flux-schnell', size: '64x64', response_format: 'b64_json' },
  });
  await finished(made.id);
  const [source] = (await api.images.ids({ query: { batchId: made.id } })).ids;
  const edit = await api.edits.create({
    images: [source!],
    prompts: 'a red boat',
    model: 'flux-schnell',
  });
  return finished(edit.id);
}

async function useGateway(multipartImageField: 'auto' | 'image[]') {
  await api.settings.update({
    profiles: [{ name: 'strict', baseUrl: gateway.url, headers: [], multipartImageField }],
    gateway: { kind: 'remote', profile: 'strict' },
  });
  await api.key.set({ key: KEY });
  await opened.service.startQueue();
}

it('sends the picture as image[] when the profile says so, and keeps the setting', async () => {
  await useGateway('image[]');
  const batch = await editOnePicture();
  expect(batch.jobs).toMatchObject({ succeeded: 1, failed: 0 });
  expect(gateway.receivedEdits().map((edit) => edit.imageField)).toEqual(['image[]']);
  const saved = (await api.settings.get({})).profiles.find((p) => p.name === 'strict');
  expect(saved?.multipartImageField).toBe('image[]');
});

it('by default sends image for one picture, which this gateway refuses', async () => {
  await useGateway('auto');
  const batch = await editOnePicture();
  expect(batch.jobs).toMatchObject({ succeeded: 0, failed: 1 });
  expect(gateway.receivedEdits()).toEqual([]);
});
